import { describe, expect, it } from "vitest";
import { checkComparability } from "../src/diff/comparability.js";
import { compareRuns, type CompareOptions } from "../src/diff/compare-runs.js";
import { applyDiffGates, type GateOptions } from "../src/gates/regression-gates.js";
import type { Diff, MetricDelta } from "../src/types/diff.js";
import { exactMcNemar } from "../src/diff/mcnemar.js";
import { buildMeta, buildRecords, makeInput, NAMES } from "./fixtures/diff-records.js";

const OPTIONS: CompareOptions & GateOptions = {
  force: false,
  alpha: 0.05,
  maxDrops: [],
  failOnRegressedCase: false,
  significantOnly: false,
};

/** Six cases × 3 trials, built so that every flip kind and class change of interest occurs. */
const BASE = {
  errors: "PPP",
  recovers: "FPF",
  slips: "PPP",
  steady: "PPP",
  ties: "FPP",
  wobbles: "FFF",
};
const CURRENT = {
  errors: "EEE",
  recovers: "PPP",
  slips: "PFP",
  steady: "PPP",
  ties: "PPF",
  wobbles: "FFP",
};

function diffOf(
  base: Record<string, string>,
  current: Record<string, string>,
  options: Partial<CompareOptions & GateOptions> = {},
): Diff {
  return applyDiffGates(
    compareRuns(
      makeInput("base", buildRecords(base)),
      makeInput("current", buildRecords(current)),
      { ...OPTIONS, ...options },
    ),
    { ...OPTIONS, ...options },
  );
}

function metric(diff: Diff, name: string): MetricDelta {
  const row = diff.metrics.find((m) => m.metric === name);
  if (row === undefined) throw new Error(`no metric ${name}`);
  return row;
}

describe("compareRuns: flips and reliability classes", () => {
  const diff = diffOf(BASE, CURRENT);

  it("classifies every case: regressed, fixed, still failing, errored, still passing", () => {
    expect(diff.flips.map((f) => [f.case_id, f.kind])).toEqual([
      ["slips", "regressed"],
      ["recovers", "fixed"],
      ["ties", "still_failing"],
      ["wobbles", "still_failing"],
      ["errors", "errored"],
      ["steady", "still_passing"],
    ]);
    const slips = diff.flips[0];
    expect(slips.base).toMatchObject({
      passed: true,
      stage: "correct",
      correct: 3,
      scored: 3,
      selections: { get_order: 3 },
    });
    expect(slips.current).toMatchObject({
      passed: false,
      stage: "selection",
      correct: 2,
      selections: { get_order: 2, search_orders: 1 },
    });
  });

  it("counts classes in each run and lists the shared cases whose class changed", () => {
    expect(diff.reliability.base).toEqual({ always_pass: 3, flaky: 2, always_fail: 1, errored: 0 });
    expect(diff.reliability.current).toEqual({
      always_pass: 2,
      flaky: 3,
      always_fail: 0,
      errored: 1,
    });
    expect(diff.reliability.changed).toEqual([
      { case_id: "errors", base: "always_pass", current: "errored" },
      { case_id: "recovers", base: "flaky", current: "always_pass" },
      { case_id: "slips", base: "always_pass", current: "flaky" },
      { case_id: "wobbles", base: "always_fail", current: "flaky" },
    ]);
  });

  it("tests case pass/fail flips and trial pairs with exact McNemar", () => {
    expect(diff.outcome.cases).toEqual({ up: 1, down: 1, pairs: 5, p_value: 1 });
    // Trial pairs (errored ones excluded): F→P in recovers ×2, wobbles ×1, ties ×1; P→F in slips ×1, ties ×1.
    expect(diff.outcome.trials).toEqual({ up: 4, down: 2, pairs: 15, p_value: exactMcNemar(4, 2) });
    expect(diff.outcome.trials?.p_value).toBeCloseTo(44 / 64, 12);
    expect(diff.scope.trial_pairs).toBe(15);
  });

  it("computes metric deltas with a per-case sign test and a per-trial test", () => {
    const e2e = metric(diff, "end_to_end_accuracy");
    expect(e2e.base).toEqual({ value: 12 / 18, numerator: 12, denominator: 18 });
    expect(e2e.current).toEqual({ value: 11 / 15, numerator: 11, denominator: 15 });
    expect(e2e.delta).toBeCloseTo(11 / 15 - 12 / 18, 12);
    expect(e2e.change).toBe("improved");
    // Per case: recovers and wobbles rose, slips fell, steady and ties held; errors has no current value.
    expect(e2e.cases).toEqual({ up: 2, down: 1, pairs: 5, p_value: 1 });
    expect(e2e.trials).toEqual(diff.outcome.trials);
    const pass3 = metric(diff, "pass_hat_k.3");
    expect(pass3.base.value).toBeCloseTo(3 / 6, 12);
    expect(pass3.cases).toMatchObject({ up: 1, down: 1 });
    expect(pass3.trials).toBeNull();
  });

  it("records the confusion cells that moved", () => {
    expect(diff.confusions).toEqual(
      [
        {
          acceptable: "get_order",
          selected: "get_order",
          correct: true,
          base: 12,
          current: 11,
          delta: -1,
        },
        {
          acceptable: "get_order",
          selected: "search_orders",
          correct: false,
          base: 6,
          current: 4,
          delta: -2,
        },
      ].sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta)),
    );
  });
});

describe("compareRuns: statistics edge cases", () => {
  it("gives p ≈ 0.0386 when 10 cases are fixed and 2 regressed, and marks no case-level power shortfall", () => {
    const base: Record<string, string> = {};
    const current: Record<string, string> = {};
    for (let i = 0; i < 10; i++) [base[`fixed-${i}`], current[`fixed-${i}`]] = ["F", "P"];
    for (let i = 0; i < 2; i++) [base[`regressed-${i}`], current[`regressed-${i}`]] = ["P", "F"];
    for (let i = 0; i < 8; i++) [base[`same-${i}`], current[`same-${i}`]] = ["P", "P"];
    const diff = diffOf(base, current);
    expect(diff.outcome.cases.up).toBe(10);
    expect(diff.outcome.cases.down).toBe(2);
    expect(diff.outcome.cases.p_value.toFixed(4)).toBe("0.0386");
    expect(metric(diff, "selection_accuracy").trials?.p_value).toBeCloseTo(158 / 4096, 12);
    expect(diff.power).toEqual({
      alpha: 0.05,
      min_discordant: 6,
      cases: 20,
      min_case_change: 0.3,
      trial_pairs: 20,
      min_trial_change: 0.3,
    });
  });

  it("gives p = 1 and no change when nothing moved", () => {
    const diff = diffOf(BASE, BASE);
    expect(diff.outcome.cases).toEqual({ up: 0, down: 0, pairs: 6, p_value: 1 });
    expect(diff.metrics.every((m) => m.change === "unchanged" || m.change === "unmeasured")).toBe(
      true,
    );
    expect(
      diff.metrics.every((m) => (m.cases?.p_value ?? 1) === 1 && (m.trials?.p_value ?? 1) === 1),
    ).toBe(true);
    expect(diff.confusions).toEqual([]);
    expect(
      diff.flips.filter((f) => f.kind !== "still_passing" && f.kind !== "still_failing"),
    ).toEqual([]);
  });

  it("handles runs with no case in common: every case new or removed, nothing measured, p = 1", () => {
    const diff = diffOf({ a: "PP", b: "FF" }, { c: "PP", d: "PF" }, { force: true });
    expect(diff.comparability.comparable).toBe(false);
    expect(diff.flips.map((f) => [f.case_id, f.kind])).toEqual([
      ["c", "new"],
      ["d", "new"],
      ["a", "removed"],
      ["b", "removed"],
    ]);
    expect(diff.scope).toMatchObject({
      shared_cases: 0,
      only_base: ["a", "b"],
      only_current: ["c", "d"],
      metrics_over: "shared_cases",
      trial_pairs: 0,
    });
    expect(diff.outcome.cases).toEqual({ up: 0, down: 0, pairs: 0, p_value: 1 });
    expect(metric(diff, "selection_accuracy")).toMatchObject({ delta: null, change: "unmeasured" });
    expect(diff.power.min_case_change).toBeNull();
    expect(diff.reliability.changed).toEqual([]);
  });

  it("recomputes metrics over the shared cases when forced past different case sets", () => {
    const diff = diffOf(
      { a: "P", b: "F", gone: "F" },
      { a: "P", b: "P", added: "F" },
      { force: true },
    );
    expect(metric(diff, "end_to_end_accuracy").base).toMatchObject({
      numerator: 1,
      denominator: 2,
    });
    expect(metric(diff, "end_to_end_accuracy").current).toMatchObject({
      numerator: 2,
      denominator: 2,
    });
    expect(diff.scope.notes).toContain("metrics recomputed over the 2 shared cases");
  });
});

describe("compareRuns: a report without records", () => {
  const base = makeInput("base.json", buildRecords(BASE), undefined, false);
  const current = makeInput("current", buildRecords(CURRENT));
  const diff = compareRuns(base, current, OPTIONS);

  it("says so, and pairs only what the case rows allow", () => {
    expect(diff.base.source).toBe("report");
    expect(diff.scope.trial_pairs).toBeNull();
    expect(diff.scope.notes[0]).toMatch(
      /^BASE is a report.json without records.jsonl: no per-trial tests/,
    );
    expect(diff.outcome.trials).toBeNull();
    expect(metric(diff, "end_to_end_accuracy").cases).toEqual({
      up: 2,
      down: 1,
      pairs: 5,
      p_value: 1,
    });
    expect(metric(diff, "end_to_end_accuracy").trials).toBeNull();
    expect(metric(diff, "argument_validity").cases).toBeNull();
  });

  it("falls back to case rows for the blast radius", () => {
    const withChange = makeInput(
      "b.json",
      buildRecords(BASE),
      buildMeta("b", buildRecords(BASE), {
        definitions: {
          get_order: {
            family: "orders",
            effect: "read_only",
            open_world: false,
            hash: "zzzz",
            description: "Get it.",
          },
        },
      }),
      false,
    );
    const changes = compareRuns(withChange, current, OPTIONS).definitions.changes;
    expect(changes.find((c) => c.tool === "get_order")?.blast_radius.basis).toBe("case_rows");
  });
});

describe("checkComparability", () => {
  it("names every difference: cases, trials, endpoint, model, temperature, retriever", () => {
    const a = makeInput("a", buildRecords({ x: "PP", y: "PP" })).report;
    const records = buildRecords(
      { x: "PPP", z: "PPP" },
      { endpoint: "openai", model: "gpt-x", retrieval_k: 4 },
    );
    const b = makeInput(
      "b",
      records,
      buildMeta("b", records, {}, { temperature: 0.7, system_prompt: "other" }),
    ).report;
    const result = checkComparability(a, b, false);
    expect(result.comparable).toBe(false);
    expect(result.differences.map((d) => d.message)).toEqual([
      "case sets differ: 1 only in BASE (y), 1 only in CURRENT (z)",
      "trials per case differs: 2 vs 3",
      "endpoint differs: test vs openai",
      "model differs: m1 vs gpt-x",
      "temperature differs: 0 vs 0.7",
      "retriever differs: none vs bm25 k=4",
    ]);
    expect(result.notes).toEqual(["registry shop: revision a → b", "system prompt changed"]);
  });

  it("finds nothing to object to in two runs of the same setup", () => {
    const a = makeInput("a", buildRecords(BASE)).report;
    expect(checkComparability(a, makeInput("a", buildRecords(CURRENT)).report, false)).toEqual({
      comparable: true,
      forced: false,
      differences: [],
      notes: [],
    });
  });
});

describe("changed definitions and blast radius", () => {
  it("diffs the text, infers schema changes from the hash, and counts the cases that saw the tool", () => {
    const baseRecords = buildRecords(BASE);
    const visibleWithout = {
      retrieved_names: ["ask_user", "get_order"],
      visible_order: ["ask_user", "get_order"],
    };
    const currentRecords = [
      ...buildRecords({ ...CURRENT, steady: "" }),
      ...buildRecords({ steady: "PPP" }, visibleWithout),
    ];
    const meta = buildMeta("current", currentRecords, {
      definitions: {
        get_order: {
          family: "orders",
          effect: "read_only",
          open_world: false,
          hash: "cccc",
          description: "Return one order by its exact id.",
        },
        search_orders: {
          family: "orders",
          effect: "mutating",
          open_world: false,
          hash: "dddd",
          description: "Search orders by product name.",
        },
        list_orders: {
          family: "orders",
          effect: "read_only",
          open_world: false,
          hash: "eeee",
          description: "List orders.",
        },
      },
    });
    const diff = compareRuns(
      makeInput("base", baseRecords),
      makeInput("current", currentRecords, meta),
      OPTIONS,
    );
    const changes = diff.definitions.changes;
    expect(changes.map((c) => [c.tool, c.change, c.fields])).toEqual([
      ["get_order", "changed", ["input_schema"]],
      ["list_orders", "added", ["definition"]],
      ["search_orders", "changed", ["description", "effect"]],
    ]);
    const search = changes[2];
    expect(search.words).toEqual([
      { op: "same", text: "Search orders" },
      { op: "added", text: " by product name" },
      { op: "same", text: "." },
    ]);
    // steady's trials in CURRENT did not see search_orders, but its BASE trials did.
    expect(search.blast_radius.basis).toBe("visible_sets");
    expect(search.blast_radius.cases.map((c) => c.case_id)).toEqual([
      "slips",
      "recovers",
      "ties",
      "wobbles",
      "errors",
      "steady",
    ]);
    expect(search.blast_radius.counts).toMatchObject({
      regressed: 1,
      fixed: 1,
      still_failing: 2,
      errored: 1,
      still_passing: 1,
    });
    expect(search.blast_radius.base).toEqual({ correct: 12, scored: 18 });
    expect(changes[1].blast_radius.cases).toEqual([]);
    expect(NAMES).toContain("search_orders");
  });

  it("does not compare definitions when a run recorded none", () => {
    const records = buildRecords(BASE);
    const bare = makeInput("bare", records, buildMeta("bare", records, { definitions: {} }));
    const diff = compareRuns(bare, makeInput("current", buildRecords(CURRENT)), OPTIONS);
    expect(diff.definitions).toMatchObject({
      base_recorded: false,
      current_recorded: true,
      changes: [],
    });
  });
});
