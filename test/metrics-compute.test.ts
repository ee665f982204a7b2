import { wilson } from "../src/metrics/wilson.js";
import { describe, it, expect } from "vitest";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import type { Rate, TrialRecord } from "../src/types.js";
import { classified } from "./support/records.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];
const ALL = [...CONTROLS, "get_order", "find_orders", "cancel_order"];

/**
 * A record whose sets default to "everything visible, get_order acceptable, get_order chosen".
 * Its stored classification is left at "correct, not violated" on purpose: metrics must recompute it.
 */
function record(over: Partial<TrialRecord>): TrialRecord {
  return classified({
    case_id: "a",
    trial: 0,
    phase: null,
    family: null,
    tags: [],
    acceptable: ["get_order"],
    forbidden: [],
    registry_names: ALL,
    exposed_names: ALL,
    retrieved_names: ALL,
    visible_order: ALL,
    retrieval_k: null,
    retrieval: null,
    must_see: [],
    must_not_see: [],
    selected: "get_order",
    arguments: {},
    argument_errors: null,
    argument_match: null,
    failed_stage: null,
    selection_error: null,
    violated: false,
    response_text: null,
    tool_calls: 1,
    usage: { input_tokens: 10, output_tokens: 2 },
    latency_ms: 5,
    endpoint: "test",
    model: "test",
    request_hash: "h",
    error: null,
    ...over,
  });
}

const withVisible = (names: string[]): Partial<TrialRecord> => ({
  retrieved_names: names,
  visible_order: names,
});

/** Twelve scored trials and one errored trial, one per rung and selection-error type. */
const RECORDS: TrialRecord[] = [
  record({ trial: 0, argument_errors: [], argument_match: true, failed_stage: "coverage" }),
  record({ trial: 1, selected: "find_orders", argument_errors: [] }),
  record({
    trial: 2,
    selected: "cancel_order",
    forbidden: ["cancel_order"],
    argument_errors: ["/order_id: must be string"],
  }),
  record({ trial: 3, selected: "find_orders" }),
  record({
    case_id: "b",
    acceptable: ["refund_order"],
    forbidden: ["cancel_order"],
    selected: "cancel_order",
  }),
  record({
    case_id: "b",
    trial: 1,
    acceptable: ["refund_order"],
    selected: "cancel_order",
    forbidden: ["cancel_order"],
    error: "HTTP 500",
    failed_stage: "selection",
    violated: true,
  }),
  record({
    case_id: "c",
    acceptable: ["find_orders"],
    selected: null,
    exposed_names: [...CONTROLS, "get_order", "cancel_order"],
    ...withVisible([...CONTROLS, "get_order", "cancel_order"]),
  }),
  record({
    case_id: "d",
    retrieval_k: 1,
    selected: "find_orders",
    ...withVisible([...CONTROLS, "find_orders"]),
  }),
  record({
    case_id: "d",
    trial: 1,
    retrieval_k: 1,
    argument_match: false,
    ...withVisible([...CONTROLS, "get_order"]),
  }),
  record({
    case_id: "e",
    acceptable: ["no_applicable_tool"],
    retrieval_k: 2,
    selected: "no_applicable_tool",
    ...withVisible([...CONTROLS, "get_order", "find_orders"]),
  }),
  record({
    case_id: "e",
    trial: 1,
    acceptable: ["no_applicable_tool"],
    retrieval_k: 2,
    selected: "ask_user",
    ...withVisible([...CONTROLS, "get_order", "find_orders"]),
  }),
  record({ case_id: "f", selected: "delete_everything" }),
  record({ case_id: "g", acceptable: ["get_order", "find_orders"], selected: null }),
];

function expectRate(actual: Rate, numerator: number, denominator: number): void {
  expect(actual.numerator).toBeCloseTo(numerator, 12);
  expect(actual.denominator).toBe(denominator);
  expect(actual.value).toBeCloseTo(numerator / denominator, 12);
  expect(actual.ci).not.toBeNull();
}

describe("computeMetrics on a hand-built run", () => {
  const m = computeMetrics(RECORDS);

  it("counts trials and excludes the errored one", () => {
    expect([m.trials, m.errored, m.scored]).toEqual([13, 1, 12]);
  });

  it("computes each funnel rate over its own population", () => {
    expectRate(m.capability_coverage, 11, 12);
    expectRate(m.exposure_recall, 10, 11);
    expectRate(m.discovery_recall, 9, 10);
    expectRate(m.selection_accuracy, 3, 9);
    expectRate(m.end_to_end_accuracy, 3, 12);
    expectRate(m.abstention_accuracy, 1, 2);
    expectRate(m.violation_rate, 2, 12);
    expectRate(m.argument_validity, 2, 3);
    expectRate(m.argument_match, 1, 2);
  });

  it('keys tool recall by k, numeric keys first and trials without a retriever under "all"', () => {
    expect(Object.keys(m.tool_recall_at_k)).toEqual(["1", "2", "all"]);
    expectRate(m.tool_recall_at_k["1"], 1, 2);
    expectRate(m.tool_recall_at_k["2"], 2, 2);
    expectRate(m.tool_recall_at_k.all, 6, 6);
  });

  it("computes the operational signals", () => {
    expectRate(m.clarification_rate, 1, 12);
    expectRate(m.abstention_rate, 1, 12);
    expectRate(m.phantom_rate, 1, 12);
    expectRate(m.no_call_rate, 2, 12);
    expect(m.mean_visible).toBeCloseTo(29 / 12, 12); // 65 visible names over 12 trials, less 3 controls in each
  });

  it("profiles failures by stage and selection errors by type, zeros included", () => {
    expect(m.failure_profile).toEqual({ coverage: 1, exposure: 1, discovery: 1, selection: 6 });
    expect(m.selection_errors).toEqual({
      wrong_tool: 3,
      phantom_tool: 1,
      no_call: 1,
      abstained: 0,
      asked: 1,
      malformed: 0,
    });
  });

  it("lists selection confusions, most frequent first, then by label", () => {
    expect(m.selection_confusions).toEqual([
      { acceptable: "get_order", selected: "find_orders", count: 2 },
      { acceptable: "find_orders|get_order", selected: "(no call)", count: 1 },
      { acceptable: "get_order", selected: "cancel_order", count: 1 },
      { acceptable: "get_order", selected: "delete_everything", count: 1 },
      { acceptable: "no_applicable_tool", selected: "ask_user", count: 1 },
    ]);
  });

  it("builds the full confusion matrix over every scored trial", () => {
    expect(m.confusion_matrix).toEqual([
      { acceptable: "get_order", selected: "find_orders", count: 3, correct: 0 },
      { acceptable: "get_order", selected: "get_order", count: 2, correct: 2 },
      { acceptable: "find_orders", selected: "(no call)", count: 1, correct: 0 },
      { acceptable: "find_orders|get_order", selected: "(no call)", count: 1, correct: 0 },
      { acceptable: "get_order", selected: "cancel_order", count: 1, correct: 0 },
      { acceptable: "get_order", selected: "delete_everything", count: 1, correct: 0 },
      { acceptable: "no_applicable_tool", selected: "ask_user", count: 1, correct: 0 },
      { acceptable: "no_applicable_tool", selected: "no_applicable_tool", count: 1, correct: 1 },
      { acceptable: "refund_order", selected: "cancel_order", count: 1, correct: 0 },
    ]);
  });

  it("names each expected label's rival out of the trials that reached selection", () => {
    expect(m.rivals).toEqual([
      { expected: "get_order", rival: "find_orders", count: 2, of: 6 },
      { expected: "find_orders|get_order", rival: "(no call)", count: 1, of: 1 },
      { expected: "no_applicable_tool", rival: "ask_user", count: 1, of: 2 },
    ]);
  });

  it("computes pass^k and pass@k per case over non-errored trials", () => {
    // cases (n, c): a (4,1) b (1,0) c (1,0) d (2,1) e (2,1) f (1,0) g (1,0)
    // k = 1..(the fewest scored trials of any case) = 1, over all 7 cases
    expect(Object.keys(m.pass_hat_k)).toEqual(["1"]);
    expectRate(m.pass_hat_k["1"], 1.25, 7);
    expectRate(m.pass_at_k["1"], 1.25, 7);
    expect(m.pass_k_short_cases).toEqual([
      { case_id: "b", scored: 1 },
      { case_id: "c", scored: 1 },
      { case_id: "f", scored: 1 },
      { case_id: "g", scored: 1 },
      { case_id: "d", scored: 2 },
      { case_id: "e", scored: 2 },
    ]);
  });

  it("computes consistency and lists the unstable cases, ties going to the first name", () => {
    // Over the cases with at least 2 scored trials (a 2/4, d 1/2, e 1/2); b, c, f, g have one each.
    expect(m.consistency).toBeCloseTo(1.5 / 3, 12);
    expect(m.consistency_rate).toMatchObject({ numerator: 1.5, denominator: 3, cases: 3 });
    expect(m.consistency_rate?.ci).toEqual(wilson(1.5, 3));
    expect(m.unstable_cases).toEqual([
      {
        case_id: "a",
        modal: "find_orders",
        modal_count: 2,
        n: 4,
        selections: { cancel_order: 1, find_orders: 2, get_order: 1 },
      },
      {
        case_id: "d",
        modal: "find_orders",
        modal_count: 1,
        n: 2,
        selections: { find_orders: 1, get_order: 1 },
      },
      {
        case_id: "e",
        modal: "ask_user",
        modal_count: 1,
        n: 2,
        selections: { ask_user: 1, no_applicable_tool: 1 },
      },
    ]);
  });

  it("does not depend on record order", () => {
    expect(computeMetrics([...RECORDS].reverse())).toEqual(m);
  });
});

describe("computeMetrics edge cases", () => {
  it("gives null values for empty populations", () => {
    const m = computeMetrics([]);
    expect([m.trials, m.errored, m.scored]).toEqual([0, 0, 0]);
    expect(m.capability_coverage).toEqual({
      numerator: 0,
      denominator: 0,
      value: null,
      ci: null,
      cases: 0,
      effective_n: 0,
    });
    expect(m.end_to_end_accuracy.value).toBeNull();
    expect(m.mean_visible).toBeNull();
    expect(m.consistency).toBeNull();
    expect(m.tool_recall_at_k).toEqual({});
    expect(m.pass_hat_k).toEqual({});
    expect(m.failure_profile).toEqual({ coverage: 0, exposure: 0, discovery: 0, selection: 0 });
    expect(m.confusion_matrix).toEqual([]);
  });

  it("excludes errored trials from every rate and table", () => {
    const m = computeMetrics([
      record({ error: "timeout", selected: "cancel_order", forbidden: ["cancel_order"] }),
      record({ trial: 1, error: "HTTP 503", selected: null }),
    ]);
    expect([m.trials, m.errored, m.scored]).toEqual([2, 2, 0]);
    expect(m.violation_rate.value).toBeNull();
    expect(m.no_call_rate.value).toBeNull();
    expect(m.selection_confusions).toEqual([]);
    expect(m.unstable_cases).toEqual([]);
    expect(m.pass_at_k).toEqual({});
  });

  it("leaves populations that nothing entered at null while others have values", () => {
    const m = computeMetrics([record({})]);
    expect(m.abstention_accuracy.value).toBeNull();
    expect(m.argument_validity.value).toBeNull();
    expect(m.argument_match.value).toBeNull();
    expect(m.end_to_end_accuracy.value).toBe(1);
    // One trial agrees with itself trivially: no consistency to report.
    expect(m.consistency).toBeNull();
    expect(m.consistency_rate).toBeNull();
  });

  it("types unparseable arguments as malformed", () => {
    const m = computeMetrics([
      record({
        selected: "find_orders",
        argument_errors: ["unparseable arguments: Unexpected end of JSON input"],
      }),
    ]);
    expect(m.selection_errors.malformed).toBe(1);
    expect(m.selection_errors.wrong_tool).toBe(0);
    expectRate(m.argument_validity, 0, 1);
  });
});
