/**
 * computeMetrics counts the funnel's and signals' rates in one pass over per-trial facts. This
 * checks every one of them against its definition written out the plain way — filter the
 * population, tally per case, sum in case order — over many random records, exactly (numerator,
 * denominator, value, interval, cases, effective n), and the breakdowns' slices too.
 */
import { isRightCall, isCovered, isExposed, isRetrieved } from "../src/metrics/trial-facts.js";
import { describe, expect, it } from "vitest";
import { computeBreakdowns } from "../src/metrics/breakdowns.js";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import { tallyCases } from "../src/metrics/record-tally.js";
import { scoreRecords } from "../src/metrics/scored-trials.js";
import { clusterRate, type ClusterTally } from "../src/metrics/wilson.js";
import { seededRandom } from "../src/text/seeded-random.js";
import { isControl, type Metrics, type Rate, type TrialRecord } from "../src/types.js";
import { classified } from "./support/records.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];
const TOOLS = ["get_order", "find_orders", "cancel_order", "refund_order", "track_parcel"];

/** Seeded, so a failure is reproducible. */
function seeded(seed: number) {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const some = <T>(items: readonly T[], p: number): T[] => items.filter(() => rand() < p);
  return { rand, pick, some };
}

function randomRecords(count: number, seed: number): TrialRecord[] {
  const { rand, pick, some } = seeded(seed);
  return Array.from({ length: count }, (_, i): TrialRecord => {
    const registry = [...CONTROLS, ...some(TOOLS, 0.85)];
    const exposed = [...CONTROLS, ...registry.slice(3).filter(() => rand() < 0.8)];
    const visible = [...CONTROLS, ...exposed.slice(3).filter(() => rand() < 0.7)].sort(
      () => rand() - 0.5,
    );
    const acceptable =
      rand() < 0.15 ? [pick(CONTROLS)] : [pick(TOOLS), ...(rand() < 0.2 ? [pick(TOOLS)] : [])];
    const selected =
      rand() < 0.1 ? null : rand() < 0.1 ? "made_up_tool" : pick([...visible, ...TOOLS]);
    const k = rand() < 0.5 ? null : pick([2, 3]);
    return classified({
      case_id: `case-${Math.floor(rand() * 12)}`,
      trial: i,
      phase: pick([null, "desk", "ops"]),
      family: pick([null, "orders", "parcels"]),
      tags: some(["read", "write", "read"], 0.5),
      acceptable,
      forbidden: some(TOOLS, 0.2),
      registry_names: registry,
      exposed_names: exposed,
      retrieved_names: visible,
      visible_order: visible,
      retrieval_k: k,
      retrieval:
        k === null
          ? null
          : {
              candidates: exposed.length - 3,
              top: [],
              acceptable: acceptable
                .filter((n) => !isControl(n))
                .map((name, r) => ({ name, rank: 1 + r + Math.floor(rand() * 4), score: 1 })),
            },
      must_see: [],
      must_not_see: [],
      selected,
      arguments: {},
      argument_errors: rand() < 0.3 ? null : rand() < 0.7 ? [] : ["/order_id: must be string"],
      argument_match: pick([null, true, false]),
      failed_stage: null,
      selection_error: null,
      violated: false,
      response_text: null,
      tool_calls: pick([0, 1, 1, 2]),
      usage: { input_tokens: 10, output_tokens: 2 },
      latency_ms: 5,
      endpoint: "test",
      model: "test",
      request_hash: "h",
      error: rand() < 0.05 ? "HTTP 500" : null,
    });
  });
}

/** A rate by its definition: the population's trials tallied per case, summed in case order. */
function plainRate(population: TrialRecord[], success: (t: TrialRecord) => boolean): Rate {
  const byCase = new Map<string, ClusterTally>();
  for (const t of population) {
    const tally = byCase.get(t.case_id) ?? { n: 0, s: 0 };
    byCase.set(t.case_id, tally);
    tally.n += 1;
    if (success(t)) tally.s += 1;
  }
  return clusterRate([...byCase.keys()].sort().map((key) => byCase.get(key)!));
}

function plainRates(records: TrialRecord[]): Partial<Metrics> {
  const scored = scoreRecords(records);
  const picked = (t: TrialRecord) => t.selected !== null && t.acceptable.includes(t.selected);
  return {
    capability_coverage: plainRate(scored, isCovered),
    exposure_recall: plainRate(scored.filter(isCovered), isExposed),
    discovery_recall: plainRate(scored.filter(isExposed), isRetrieved),
    selection_accuracy: plainRate(scored.filter(isRetrieved), picked),
    end_to_end_accuracy: plainRate(scored, (t) => t.failed_stage === null),
    abstention_accuracy: plainRate(
      scored.filter((t) => t.acceptable.includes("no_applicable_tool")),
      (t) => t.selected === "no_applicable_tool",
    ),
    violation_rate: plainRate(scored, (t) => t.violated),
    argument_validity: plainRate(
      scored.filter((t) => t.argument_errors !== null && !isControl(t.selected ?? "")),
      (t) => t.argument_errors?.length === 0,
    ),
    argument_match: plainRate(
      scored.filter((t) => t.argument_match !== null),
      (t) => t.argument_match === true,
    ),
    call_accuracy: plainRate(scored.filter(isRetrieved), isRightCall),
    clarification_rate: plainRate(scored, (t) => t.selected === "ask_user"),
    abstention_rate: plainRate(scored, (t) => t.selected === "no_applicable_tool"),
    phantom_rate: plainRate(
      scored,
      (t) => t.selected !== null && !t.visible_order.includes(t.selected),
    ),
    no_call_rate: plainRate(scored, (t) => t.selected === null),
    extra_call_rate: plainRate(scored, (t) => t.tool_calls > 1),
    mean_visible:
      scored.length === 0
        ? null
        : scored.reduce((sum, t) => sum + t.visible_order.filter((n) => !isControl(n)).length, 0) /
          scored.length,
  };
}

describe("the one-pass rates", () => {
  it("equal their plain definitions on random runs, for the run and for every breakdown slice", () => {
    for (const seed of [1, 2, 3]) {
      const records = randomRecords(600, seed);
      const whole = computeMetrics(records);
      const expected = plainRates(records);
      expect(whole).toMatchObject(expected);
      // The populations differ, so no rate is trivially equal to another.
      const denominators = Object.values(expected).flatMap((r) =>
        r !== null && typeof r === "object" && "denominator" in r ? [r.denominator] : [],
      );
      expect(new Set(denominators).size).toBeGreaterThan(4);
      const breakdowns = computeBreakdowns(() => records, tallyCases(records), "selection", whole);
      for (const [kind, keyOf] of [
        ["family", (t: TrialRecord) => [t.family ?? "(none)"]],
        ["phase", (t: TrialRecord) => [t.phase ?? "(none)"]],
        ["tag", (t: TrialRecord) => t.tags],
      ] as const) {
        const slices = breakdowns[kind];
        expect(Object.keys(slices).length).toBeGreaterThan(1);
        for (const [key, metrics] of Object.entries(slices)) {
          const slice = records.filter((t) => keyOf(t).includes(key));
          expect(metrics.trials, `${kind} ${key}`).toBe(slice.length);
          expect(metrics, `${kind} ${key}`).toMatchObject(plainRates(slice));
        }
      }
    }
  });
});
