/**
 * A run given its cases to keep (`sweep: {cases, release: true}`, as shadow gives a million traced
 * turns) lets each go once its trials are made: the list it was given is empty at the end, and the
 * run's records and report are those of the same cases kept to the end. A shadow's list makes
 * each case from its packed turn as it is read: read twice it gives the same cases, and a run of
 * it records what the same cases made at once record.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCases } from "../src/cases/load-cases.js";
import { loadConfig } from "../src/config/load-config.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { CaseList } from "../src/cases/case-list.js";
import { readTraces } from "../src/traces/read-traces.js";
import { createTurnCases } from "../src/traces/turn-cases.js";
import { buildRunMeta, caseHashes } from "../src/trial/run-meta.js";
import { canonicalJson, canonicalJsonPieces } from "../src/text/canonical-json.js";
import type { Endpoint } from "../src/types.js";

const out = mkdtempSync(join(tmpdir(), "route-eval-release-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const config = loadConfig(
  resolve("test/fixtures/sweep/route-eval.yaml"),
  { out_dir: out, trials: 3 },
  process.cwd(),
);

async function run(id: string, cases: CaseList, release: boolean) {
  const seen: number[] = [];
  const { runDir, report } = await runEvaluation(config, {
    place: { kind: "new", id },
    env: {},
    now: () => new Date("2026-12-05T09:00:00.000Z"),
    sweep: { cases, release },
    // Cases left in the list (not yet let go) as each record is kept.
    onRecord: () =>
      void seen.push(Array.isArray(cases) ? cases.filter((c) => c !== null).length : cases.length),
  });
  const hashes = JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).inputs.cases;
  const records = readFileSync(join(runDir, "records.jsonl"), "utf8")
    .replace(/"(latency_ms|recorded_latency_ms)":[0-9.e-]+/g, "")
    .replace(/"run_id":"[^"]*"/g, "");
  return { records, report, seen, hashes };
}

describe("a run that takes its cases", () => {
  it("lets each go once its trials are made, and records what it would have kept", async () => {
    const given = loadCases(config);
    const count = given.length;
    expect(count).toBeGreaterThan(2);
    const kept = await run("kept", [...given], false);
    const list = [...given];
    const released = await run("released", list, true);
    expect(list).toEqual([]);
    expect(kept.seen.every((n) => n === count)).toBe(true);
    // The list shrinks while the run is asking (the loop takes a few cases ahead of the records).
    expect(Math.min(...released.seen)).toBeLessThan(count);
    expect(released.records).toBe(kept.records);
    expect(released.report.metrics).toEqual(kept.report.metrics);
    expect(released.report.cases).toEqual(kept.report.cases);
  });

  it("made from traced turns as it is read (shadow): the same cases each reading, drained by the run", async () => {
    const turns = createTurnCases(null, null);
    readTraces([resolve("test/fixtures/traces/support-chat.jsonl")], process.cwd(), turns.add);
    const { cases } = turns.finish();
    const made = [...cases];
    expect(made.length).toBe(cases.length);
    expect(made.length).toBeGreaterThan(5);
    expect(new Set(made.map((c) => c.id)).size).toBe(made.length);
    // Read again, each case is made again alike (the checks before the first call read it too).
    expect([...cases]).toEqual(made);
    const kept = await run("traced-kept", made, false);
    const drained = await run("traced-drained", cases, true);
    expect(cases.length).toBe(0);
    expect([...cases]).toEqual([]);
    expect(drained.records).toBe(kept.records);
    expect(drained.report.metrics).toEqual(kept.report.metrics);
    expect(drained.report.cases).toEqual(kept.report.cases);
    // run.json's case hashes, written as they are made, are those a resumed run compares.
    const endpoint = { id: "baseline", model: "baseline" } as Endpoint;
    const meta = buildRunMeta("r", config, made, endpoint, new Date());
    expect(Object.keys(drained.hashes)).toHaveLength(made.length);
    expect(drained.hashes).toEqual(meta.inputs?.cases);
    expect(kept.hashes).toEqual(meta.inputs?.cases);
  });

  it("writes run.json's case hashes as the object of them would be written, a million or a few", () => {
    const given = loadCases(config);
    // 70,000 cases (two runs of the sort), ids repeated and some array-index keys: an object
    // keeps a repeated key once, in its place, with the value set last.
    const many = Array.from({ length: 70_000 }, (_, i) => {
      const n = (i * 7919) % 50_000;
      return { ...given[i % given.length], id: i % 9 === 0 ? String(n) : `turn-${n}` };
    });
    const endpoint = { id: "baseline", model: "baseline" } as Endpoint;
    const object = buildRunMeta("r", config, many, endpoint, new Date()).inputs?.cases;
    const streamed = [...canonicalJsonPieces({ cases: caseHashes(many) })].join("");
    expect(streamed).toBe(canonicalJson({ cases: object }, 2));
    expect(Object.keys(object ?? {}).length).toBeLessThan(many.length);
  });
});
