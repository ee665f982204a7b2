import { RATE_NAMES } from "../src/types/rates.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { outcomesOf, tallyRecords, tallyRow } from "../src/diff/trial-outcomes.js";
import { scoreRecords } from "../src/metrics/scored-trials.js";
import { readRecords } from "../src/run-files/records-io.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { Report, TrialRecord } from "../src/types.js";
import { buildRecords, trialRecord } from "./fixtures/diff-records.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Sum the per-trial outcomes of every metric over the records. */
function sumOutcomes(records: TrialRecord[]): Map<string, { s: number; n: number }> {
  const sums = new Map<string, { s: number; n: number }>();
  for (const t of scoreRecords(records)) {
    for (const [metric, success] of outcomesOf(t)) {
      const sum = sums.get(metric) ?? { s: 0, n: 0 };
      sums.set(metric, { s: sum.s + (success ? 1 : 0), n: sum.n + 1 });
    }
  }
  return sums;
}

describe("per-trial outcomes agree with compute-metrics", () => {
  let dir = "";
  let report: Report;
  let records: TrialRecord[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "route-eval-outcomes-"));
    const config = loadConfig(null, { out_dir: dir, trials: 1, retriever: "bm25", k: 6 }, ROOT);
    const run = await runEvaluation(config, {
      place: { kind: "new", id: "example" },
      env: {},
      now: () => new Date(),
    });
    report = run.report;
    records = readRecords(join(run.runDir, "records.jsonl"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("sums to every rate's numerator and denominator on the bundled example (bm25, k = 6)", () => {
    const sums = sumOutcomes(records);
    for (const field of RATE_NAMES) {
      const rate = report.metrics[field];
      expect(sums.get(field) ?? { s: 0, n: 0 }, field).toEqual({
        s: rate.numerator,
        n: rate.denominator,
      });
    }
    for (const [k, rate] of Object.entries(report.metrics.tool_recall_at_k)) {
      expect(sums.get(`tool_recall_at_k.${k}`), k).toEqual({
        s: rate.numerator,
        n: rate.denominator,
      });
    }
    expect(report.metrics.failure_profile.discovery).toBeGreaterThan(0);
  });

  it("gives, from case rows alone, the same per-case tallies as the records for the rates rows carry", () => {
    const byRecords = tallyRecords(scoreRecords(records));
    const recall = Object.keys(report.metrics.tool_recall_at_k).map((k) => `tool_recall_at_k.${k}`);
    for (const row of report.cases) {
      const fromRecords = byRecords.get(row.case_id);
      for (const [metric, tally] of tallyRow(row, recall)) {
        const expected = fromRecords?.get(metric) ?? { s: 0, n: 0 };
        expect(tally, `${row.case_id} ${metric}`).toEqual(expected);
      }
    }
  });
});

describe("outcomesOf", () => {
  it("puts a trial only in the populations it belongs to", () => {
    const [hidden] = buildRecords(
      { a: "F" },
      {
        exposed_names: ["ask_user"],
        retrieved_names: ["ask_user"],
        visible_order: ["ask_user"],
        selected: "ask_user",
      },
    );
    const outcomes = outcomesOf(scoreRecords([hidden])[0]);
    expect(outcomes.get("exposure_recall")).toBe(false);
    expect(outcomes.has("discovery_recall")).toBe(false);
    expect(outcomes.has("selection_accuracy")).toBe(false);
    expect(outcomes.get("clarification_rate")).toBe(true);
    expect(outcomes.get("phantom_rate")).toBe(false);
  });

  it("marks phantom selections and argument checks", () => {
    const t = trialRecord("a", 0, "F", {
      selected: "delete_all",
      argument_errors: ["/x: must be string"],
      argument_match: false,
    });
    const outcomes = outcomesOf(scoreRecords([t])[0]);
    expect(outcomes.get("phantom_rate")).toBe(true);
    expect(outcomes.get("argument_validity")).toBe(false);
    expect(outcomes.get("argument_match")).toBe(false);
    expect(outcomes.get("selection_accuracy")).toBe(false);
  });
});
