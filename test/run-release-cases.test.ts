/**
 * A run given its cases to keep (`sweep: {cases, release: true}`, as shadow gives a million traced
 * turns) lets each go once its trials are made: the list it was given is empty at the end, and the
 * run's records and report are those of the same cases kept to the end.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCases } from "../src/cases/load-cases.js";
import { loadConfig } from "../src/config/load-config.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { Case } from "../src/types.js";

const out = mkdtempSync(join(tmpdir(), "route-eval-release-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const config = loadConfig(
  resolve("test/fixtures/sweep/route-eval.yaml"),
  { out_dir: out, trials: 3 },
  process.cwd(),
);

async function run(id: string, cases: Case[], release: boolean) {
  const seen: number[] = [];
  const { runDir, report } = await runEvaluation(config, {
    place: { kind: "new", id },
    env: {},
    now: () => new Date("2026-12-05T09:00:00.000Z"),
    sweep: { cases, release },
    // Cases left in the list (not yet let go) as each record is kept.
    onRecord: () => void seen.push(cases.filter((c) => c !== null).length),
  });
  const records = readFileSync(join(runDir, "records.jsonl"), "utf8")
    .replace(/"(latency_ms|recorded_latency_ms)":[0-9.e-]+/g, "")
    .replace(/"run_id":"[^"]*"/g, "");
  return { records, report, seen };
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
});
