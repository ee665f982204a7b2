import { readRecords } from "../src/run-files/records-io.js";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { shuffleVisible } from "../src/discovery/shuffle-visible.js";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import { positionThird } from "../src/metrics/position.js";
import { classified } from "./support/records.js";
import { renderTerminal } from "../src/report/render-terminal.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { TrialRecord } from "../src/types.js";
import { liveConfig, removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const NAMES = Array.from({ length: 12 }, (_, i) => `tool_${i}`);

/** A scored trial that was shown `visible_order` (every tool of the registry, exposed and retrieved). */
function shown(
  over: Pick<TrialRecord, "trial" | "acceptable" | "visible_order" | "selected">,
): TrialRecord {
  const names = over.visible_order;
  return classified({
    case_id: "a",
    phase: null,
    family: null,
    tags: [],
    forbidden: [],
    registry_names: names,
    exposed_names: names,
    retrieved_names: names,
    retrieval_k: null,
    retrieval: null,
    must_see: [],
    must_not_see: [],
    arguments: {},
    argument_errors: null,
    argument_match: null,
    failed_stage: null,
    selection_error: null,
    violated: false,
    response_text: null,
    tool_calls: 1,
    usage: { input_tokens: null, output_tokens: null },
    latency_ms: 1,
    endpoint: "t",
    model: "t",
    request_hash: "h",
    error: null,
    ...over,
  });
}

function recordsOf(runDir: string): TrialRecord[] {
  return readRecords(join(runDir, "records.jsonl"));
}

describe("shuffleVisible", () => {
  it("is a permutation, the same for the same (seed, case, trial), different across trials and seeds", () => {
    const a = shuffleVisible(NAMES, 1, "case-a", 0);
    expect([...a].sort()).toEqual([...NAMES].sort());
    expect(shuffleVisible(NAMES, 1, "case-a", 0)).toEqual(a);
    expect(shuffleVisible(NAMES, 1, "case-a", 1)).not.toEqual(a);
    expect(shuffleVisible(NAMES, 2, "case-a", 0)).not.toEqual(a);
    expect(shuffleVisible(NAMES, 1, "case-b", 0)).not.toEqual(a);
  });

  it("puts every tool in every position about equally often", () => {
    const firsts = new Map<string, number>();
    for (let trial = 0; trial < 1200; trial++) {
      const first = shuffleVisible(NAMES, 7, "case", trial)[0];
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    expect(firsts.size).toBe(12);
    for (const count of firsts.values()) expect(count).toBeGreaterThan(60);
  });
});

describe("selection accuracy by position", () => {
  it("places a slot in the third that holds its centre", () => {
    expect([0, 1, 2].map((i) => positionThird(i, 3))).toEqual(["first", "middle", "last"]);
    expect([0, 1].map((i) => positionThird(i, 2))).toEqual(["first", "last"]);
    expect([0, 1, 2, 3, 4, 5].map((i) => positionThird(i, 6))).toEqual([
      "first",
      "first",
      "middle",
      "middle",
      "last",
      "last",
    ]);
  });

  it("splits the selection population by the third of the first acceptable tool shown", () => {
    const base = { acceptable: ["b"], visible_order: ["a", "b", "c"], selected: "b" };
    const trials = [
      { ...base, visible_order: ["b", "a", "c"] },
      { ...base, visible_order: ["b", "a", "c"], selected: "a" },
      { ...base },
      { ...base, acceptable: ["c", "b"], selected: "c" },
      { ...base, visible_order: ["a", "c", "b"], selected: null },
      { ...base, visible_order: ["a", "c", "d"] },
    ].map((over, trial) => shown({ ...over, trial }));
    const byPosition =
      computeMetrics(trials).selection_by_position ?? expect.fail("no selection_by_position");
    expect(byPosition.first).toMatchObject({ numerator: 1, denominator: 2 });
    expect(byPosition.middle).toMatchObject({ numerator: 2, denominator: 2 });
    expect(byPosition.last).toMatchObject({ numerator: 0, denominator: 1 });
  });
});

describe("--shuffle-tools in a run", () => {
  it("records the shown order and the acceptable positions, reproducibly, and the report shows accuracy by position", async () => {
    const dir = writeProject();
    const config = liveConfig(dir, { shuffle_tools: true, trials: 4 });
    const first = await runEvaluation(config, { env: {}, now: () => new Date() });
    const second = await runEvaluation(config, { env: {}, now: () => new Date() });
    const records = recordsOf(first.runDir);
    const orders = (rs: TrialRecord[]) =>
      rs.map((r) => `${r.case_id}#${r.trial}:${r.visible_order.join(",")}`).sort();
    expect(orders(recordsOf(second.runDir))).toEqual(orders(records));
    for (const record of records) {
      expect(record.tools_shuffled).toBe(true);
      expect([...record.visible_order].sort()).toEqual([...record.retrieved_names].sort());
      expect(record.acceptable_positions).toEqual(
        record.visible_order.flatMap((name, i) => (record.acceptable.includes(name) ? [i] : [])),
      );
    }
    expect(
      new Set(
        records
          .filter((r) => r.case_id === "refund-after-lookup")
          .map((r) => r.visible_order.join(",")),
      ).size,
    ).toBeGreaterThan(1);
    const byPosition = first.report.metrics.selection_by_position;
    expect(byPosition).toBeDefined();
    const total = ["first", "middle", "last"].reduce(
      (sum, third) => sum + (byPosition?.[third as "first"].denominator ?? 0),
      0,
    );
    expect(total).toBe(first.report.metrics.selection_accuracy.denominator);
    const text = renderTerminal(first.report, { color: false });
    expect(text).toContain("Selection by tool position");
    expect(text).toContain("tools shuffled per trial (seeded)");
  });

  it("keeps registry order without the flag and says position and tool are confounded", async () => {
    const { runDir, report } = await runEvaluation(liveConfig(writeProject(), {}), {
      env: {},
      now: () => new Date(),
    });
    expect(recordsOf(runDir).every((r) => r.tools_shuffled === false)).toBe(true);
    expect(renderTerminal(report, { color: false })).toContain("position and tool are confounded");
  });
});
