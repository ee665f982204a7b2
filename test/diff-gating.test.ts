import { formatP } from "../src/render/format.js";
import { describe, expect, it } from "vitest";
import { compareRuns, type CompareOptions } from "../src/diff/compare-runs.js";
import {
  applyDiffGates,
  evaluateDiffGates,
  parseDropRule,
  type GateOptions,
} from "../src/gates/regression-gates.js";
import { InputError } from "../src/errors.js";
import { trialsNeeded } from "../src/diff/case-noise.js";
import { isQuarantinable } from "../src/diff/quarantine.js";
import { buildRecords, makeInput } from "./fixtures/diff-records.js";

const OPTIONS: CompareOptions & GateOptions = {
  force: false,
  alpha: 0.05,
  maxDrops: [],
  failOnRegressedCase: false,
  significantOnly: false,
};

/** 20 cases, one trial each: BASE 18 correct; CURRENT loses `lost` of them. */
function dropDiff(lost: number, options: Partial<CompareOptions & GateOptions> = {}) {
  const base: Record<string, string> = {};
  const current: Record<string, string> = {};
  for (let i = 0; i < 20; i++) {
    const id = `c${String(i).padStart(2, "0")}`;
    base[id] = i < 18 ? "P" : "F";
    current[id] = i < 18 - lost ? "P" : "F";
  }
  return applyDiffGates(
    compareRuns(
      makeInput("base", buildRecords(base)),
      makeInput("current", buildRecords(current)),
      { ...OPTIONS, ...options },
    ),
    { ...OPTIONS, ...options },
  );
}

describe("parseDropRule", () => {
  it("defaults to selection accuracy and accepts METRIC=TOLERANCE", () => {
    expect(parseDropRule("0.02")).toEqual({ metric: "selection_accuracy", tolerance: 0.02 });
    expect(parseDropRule("end_to_end_accuracy=0.05")).toEqual({
      metric: "end_to_end_accuracy",
      tolerance: 0.05,
    });
    expect(parseDropRule("pass_hat_k.3=0")).toEqual({ metric: "pass_hat_k.3", tolerance: 0 });
    expect(parseDropRule("tool_recall_at_k.8=0.1")).toEqual({
      metric: "tool_recall_at_k.8",
      tolerance: 0.1,
    });
    expect(parseDropRule("violation_rate=0")).toEqual({ metric: "violation_rate", tolerance: 0 });
  });

  it("rejects bad tolerances, unknown metrics and metrics without a better direction", () => {
    expect(() => parseDropRule("2")).toThrow(/--max-drop 2: expected a tolerance between 0 and 1/);
    expect(() => parseDropRule("selection_accuracy=")).toThrow(InputError);
    expect(() => parseDropRule("accuracy=0.1")).toThrow(
      /unknown metric "accuracy"; gateable metrics: capability_coverage/,
    );
    expect(() => parseDropRule("abstention_rate=0.1")).toThrow(
      /"abstention_rate" has no better direction/,
    );
    expect(() => parseDropRule("mean_visible=0.1")).toThrow(/no better direction/);
  });
});

describe("evaluateDiffGates", () => {
  it("fails a drop beyond tolerance and says by how much", () => {
    const diff = dropDiff(2, { maxDrops: [parseDropRule("0.02")] });
    expect(diff.verdict).toBe("fail");
    expect(diff.gates).toEqual([
      {
        rule: "max-drop selection_accuracy=0.02",
        passed: false,
        reason:
          "selection_accuracy 90.0% (18/20) → 80.0% (16/20): 10.0 points worse, more than the 2.0 points allowed (p = 0.5)",
      },
    ]);
  });

  it("passes a drop within tolerance, an improvement, and no change", () => {
    expect(dropDiff(1, { maxDrops: [parseDropRule("0.05")] }).gates[0]).toMatchObject({
      passed: true,
      reason:
        "selection_accuracy 90.0% (18/20) → 85.0% (17/20): 5.0 points worse, within the 5.0 points allowed",
    });
    expect(dropDiff(0, { maxDrops: [parseDropRule("0")] }).gates[0]).toMatchObject({
      passed: true,
      reason: "selection_accuracy 90.0% (18/20) → 90.0% (18/20): unchanged",
    });
    expect(dropDiff(-2, { maxDrops: [parseDropRule("0")] }).gates[0]).toMatchObject({
      passed: true,
      reason: "selection_accuracy 90.0% (18/20) → 100.0% (20/20): 10.0 points better",
    });
  });

  it("reads 'worse' in the metric's direction: a rise in violations is a drop", () => {
    const base = makeInput("base", buildRecords({ a: "P", b: "P" }));
    const current = makeInput(
      "current",
      buildRecords({ a: "P", b: "F" }, { forbidden: ["search_orders"] }),
    );
    const options = { ...OPTIONS, maxDrops: [parseDropRule("violation_rate=0")] };
    const diff = applyDiffGates(compareRuns(base, current, options), options);
    expect(diff.gates[0]).toMatchObject({
      passed: false,
      reason:
        "violation_rate 0.0% (0/2) → 50.0% (1/2): 50.0 points worse, more than the 0.0 points allowed (p = 1)",
    });
  });

  it("with significantOnly, lets a non-significant drop pass and fails a significant one", () => {
    const noisy = dropDiff(2, { maxDrops: [parseDropRule("0.02")], significantOnly: true });
    expect(noisy.gates[0].passed).toBe(true);
    expect(noisy.gates[0].reason).toMatch(/but not significant \(p = 0.5 ≥ 0.05\)$/);
    const real = dropDiff(6, { maxDrops: [parseDropRule("0.02")], significantOnly: true });
    expect(real.gates[0]).toMatchObject({ passed: false });
    expect(real.gates[0].reason).toMatch(/\(p = 0.0313\)$/);
  });

  it("fails a gate on a metric neither run measured, rather than passing it silently", () => {
    const diff = dropDiff(0, {
      maxDrops: [parseDropRule("argument_match=0.1"), parseDropRule("pass_hat_k.4=0")],
    });
    expect(diff.gates.map((g) => [g.passed, g.reason])).toEqual([
      [
        false,
        "argument_match: not measured in either run (no trials in its population), so the drop cannot be checked",
      ],
      [
        false,
        "pass_hat_k.4: not measured in either run (no trials in its population), so the drop cannot be checked",
      ],
    ]);
  });

  it("with one trial per case no case can show a regression: the gate is not evaluable (never passed), says what it needs, and names the flips", () => {
    const diff = dropDiff(2, { failOnRegressedCase: true });
    // One case going 1/1 → 0/1 reaches p = 1/2 at best, Holm × 20 cases; 6 trials a side: 20 / C(12, 6) = 0.022 < 0.05, 5: 20 / 252 = 0.079.
    expect(diff.gates).toEqual([
      {
        rule: "fail-on-regressed-case",
        passed: true,
        reason:
          "cannot fail with these trials: the most a case can reach is Holm p = 1 ≥ α 0.05 (exact test per case, Holm across 20 cases, α 0.05) — run more trials, or diff --remeasure-base N; 2 cases went from pass to fail within noise: c16 (1/1 → 0/1, Holm p = 1), c17 (1/1 → 0/1, Holm p = 1)",
        not_evaluable: "needs ≥ 6 trials per case on each side",
      },
    ]);
    expect(trialsNeeded(20, 0.05)).toBe(6);
    expect(trialsNeeded(7, 0.05)).toBe(5);
    expect(
      evaluateDiffGates(dropDiff(0), { ...OPTIONS, failOnRegressedCase: true })[0].not_evaluable,
    ).toBe("needs ≥ 6 trials per case on each side");
  });

  it("--significant-only over too few paired units cannot fail: not evaluable, whatever moved", () => {
    const base = { a: "PP", b: "PP", c: "PP" };
    const current = { a: "FF", b: "FF", c: "FF" };
    const options = {
      ...OPTIONS,
      maxDrops: [{ metric: "selection_accuracy", tolerance: 0.02 }],
      significantOnly: true,
    };
    // Three cases, each 2/2 → 0/2: even all three falling cannot reach α with three paired units.
    const diff = applyDiffGates(
      compareRuns(
        makeInput("base", buildRecords(base)),
        makeInput("current", buildRecords(current)),
        options,
      ),
      options,
    );
    expect(diff.gates[0]).toMatchObject({
      passed: true,
      not_evaluable: expect.stringMatching(/needs ≥ \d+ paired units/),
    });
    expect(diff.verdict).toBe("pass");
  });

  it("fails on a case at 2/10 after 10/10, not on one at 4/5 after 5/5; quarantined cases are reported, never gated", () => {
    const base = {
      steady: "PPPPPPPPPP",
      broken: "PPPPPPPPPP",
      wobbly: "PPPPPFFFFF",
      other: "PPPPPPPPPP",
    };
    const current = {
      steady: "PPPPPPPPPP",
      broken: "PPFFFFFFFF",
      wobbly: "PPPPPPPPPF",
      other: "PPPPPPPPFP",
    };
    const options = { ...OPTIONS, failOnRegressedCase: true };
    const diff = applyDiffGates(
      compareRuns(
        makeInput("base", buildRecords(base)),
        makeInput("current", buildRecords(current)),
        options,
      ),
      options,
    );
    // broken: hypergeometric P(X ≤ 2) = C(12,2)·C(8,8)/C(20,10) = 66/184756; Holm × 4 cases.
    const broken = diff.flips.find((f) => f.case_id === "broken")?.test;
    expect(broken?.p_value).toBeCloseTo(66 / 184756, 12);
    expect(broken?.p_holm).toBeCloseTo((4 * 66) / 184756, 12);
    expect(diff.noise).toMatchObject({
      tested: 4,
      regressed: ["broken"],
      within_noise: ["other"],
      flaky: ["broken", "other", "wobbly"],
    });
    expect(diff.gates[0]).toMatchObject({
      passed: false,
      reason:
        "1 case regressed beyond trial noise (exact test per case, Holm across 4 cases, α 0.05): broken (10/10 → 2/10, Holm p = 0.00143)",
    });
    const held = {
      ...options,
      quarantine: { file: "q.yaml", cases: new Set(["broken", "steady"]) },
    };
    const quarantined = applyDiffGates(
      compareRuns(
        makeInput("base", buildRecords(base)),
        makeInput("current", buildRecords(current)),
        held,
      ),
      held,
    );
    expect(quarantined.verdict).toBe("pass");
    expect(quarantined.noise).toMatchObject({
      regressed: [],
      quarantined: ["broken", "steady"],
      stable_quarantined: ["steady"],
      quarantine_file: "q.yaml",
    });
    // Not gated, but never quiet: the quarantined case that collapsed is named in the gate's reason.
    expect(quarantined.gates[0].reason).toContain(
      "— but 1 quarantined case collapsed beyond trial noise, not gated while quarantined: broken (10/10 → 2/10, Holm p = 0.00143, quarantined)",
    );
  });

  it("quarantines a case only when its minority outcome is at least the threshold in both runs", () => {
    const side = (correct: number, scored: number) => ({ correct, scored });
    const both = (a: [number, number], b: [number, number], threshold = 0.2) =>
      isQuarantinable({ base: side(...a), current: side(...b) }, threshold);
    expect(both([5, 10], [6, 10])).toBe(true); // flaky in both
    expect(both([9, 10], [5, 10])).toBe(false); // one wobble in BASE (10%)
    expect(both([10, 10], [4, 10])).toBe(false); // stable, then changed: a regression, not flakiness
    expect(both([2, 3], [1, 3])).toBe(true); // a third either way
    expect(both([2, 3], [1, 3], 0.4)).toBe(false);
    expect(both([1, 1], [0, 1])).toBe(false); // one trial shows no disagreement
  });

  it("tests the base side with its remeasured trials too", () => {
    const options = { ...OPTIONS, failOnRegressedCase: true };
    const remeasure = { perCase: 10, tallies: new Map([["a", { correct: 10, scored: 10 }]]) };
    const one = (extra: typeof remeasure | null) =>
      applyDiffGates(
        compareRuns(
          makeInput("base", buildRecords({ a: "PPPPP" })),
          makeInput("current", buildRecords({ a: "FFFFF" })),
          { ...options, remeasure: extra },
        ),
        options,
      );
    expect(one(null).noise.regressed).toEqual(["a"]);
    expect(one(null).flips[0].test).toMatchObject({ base: { correct: 5, scored: 5 } });
    expect(one(null).flips[0].test?.p_value).toBeCloseTo(1 / 252, 12);
    expect(one(remeasure).flips[0].test).toMatchObject({
      base: { correct: 15, scored: 15 },
      current: { correct: 0, scored: 5 },
    });
    expect(one(remeasure).noise.remeasured).toBe(10);
  });

  it("passes with no gates set", () => {
    expect(dropDiff(5).verdict).toBe("pass");
  });
});

describe("formatP", () => {
  it("shows three significant digits and floors tiny values", () => {
    expect(formatP(158 / 4096)).toBe("0.0386");
    expect(formatP(1)).toBe("1");
    expect(formatP(0.00001)).toBe("< 0.0001");
  });
});
