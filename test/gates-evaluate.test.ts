import { describe, expect, it } from "vitest";
import { InputError } from "../src/errors.js";
import { evaluateGates } from "../src/gates/evaluate-gates.js";
import type { GateSpec } from "../src/types.js";
import { buildFixtureReport, makeMetrics, rate } from "./fixtures/report-fixture.js";

// Fixture: selection_accuracy 4/6, violation_rate 2/11, argument_match 4/4, abstention_accuracy 0/0,
// mean_visible 7, consistency 11/12, pass_hat_k {1: 1/3, 2: 1/4, 3: 1/3}, pass_at_k {2: 5/12}.
const metrics = buildFixtureReport().metrics;

function gate(name: string, spec: GateSpec) {
  const results = evaluateGates(metrics, { [name]: spec });
  expect(results).toHaveLength(1);
  return results[0];
}

function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    if (error instanceof InputError) return error;
  }
  throw new Error("expected an InputError");
}

describe("evaluateGates: operators on rates", () => {
  it.each([
    ["selection_accuracy", ">= 0.6", true, "selection_accuracy 0.667 (4/6) is at least 0.6"],
    ["selection_accuracy", ">= 0.9", false, "selection_accuracy 0.667 (4/6) is below 0.9"],
    ["selection_accuracy", "<= 0.7", true, "selection_accuracy 0.667 (4/6) is at most 0.7"],
    ["selection_accuracy", "<= 0.5", false, "selection_accuracy 0.667 (4/6) is above 0.5"],
    ["selection_accuracy", "> 0.6", true, "selection_accuracy 0.667 (4/6) is above 0.6"],
    ["selection_accuracy", "> 0.6667", false, "selection_accuracy 0.667 (4/6) is not above 0.6667"],
    ["selection_accuracy", "< 0.7", true, "selection_accuracy 0.667 (4/6) is below 0.7"],
    ["selection_accuracy", "< 0.5", false, "selection_accuracy 0.667 (4/6) is not below 0.5"],
    ["violation_rate", "== 0", false, "violation_rate 0.182 (2/11) is not 0"],
    ["violation_rate", "!= 0", true, "violation_rate 0.182 (2/11) is not 0"],
    ["argument_match", "== 1", true, "argument_match 1 (4/4) equals 1"],
    ["argument_match", "!= 1", false, "argument_match 1 (4/4) equals 1"],
  ])("%s %s → %s", (name, spec, passed, reason) => {
    const result = gate(name, spec);
    const actual = { selection_accuracy: 4 / 6, violation_rate: 2 / 11, argument_match: 1 }[name];
    expect(result).toEqual({ name, threshold: spec, value: actual, passed, reason });
  });

  it(">= holds at equality and > does not", () => {
    expect(gate("argument_match", ">= 1").passed).toBe(true);
    expect(gate("argument_match", "> 1").passed).toBe(false);
    expect(gate("argument_match", "<= 1").passed).toBe(true);
    expect(gate("argument_match", "< 1").passed).toBe(false);
  });

  it("normalises the spec text", () => {
    expect(gate("selection_accuracy", "  >=0.60 ").threshold).toBe(">= 0.6");
  });
});

describe("evaluateGates: other metrics", () => {
  it("fails a metric whose population is empty, whatever the threshold", () => {
    for (const spec of [">= 0.5", "<= 1", "!= 0.5"]) {
      const result = gate("abstention_accuracy", spec);
      expect(result.passed).toBe(false);
      expect(result.value).toBeNull();
      expect(result.reason).toContain("no trials in its population");
    }
    const empty = evaluateGates(makeMetrics({}), { consistency: ">= 0", mean_visible: ">= 0" });
    expect(empty.map((r) => [r.passed, r.reason])).toEqual([
      [false, "consistency: no trials in its population"],
      [false, "mean_visible: no trials in its population"],
    ]);
  });

  it("gates plain numbers: consistency and mean_visible", () => {
    expect(gate("consistency", "> 0.9")).toMatchObject({
      passed: true,
      reason: "consistency 0.917 is above 0.9",
    });
    expect(gate("mean_visible", "<= 5")).toMatchObject({
      passed: false,
      value: 7,
      reason: "mean_visible 7 is above 5",
    });
  });

  it("gates pass^k and pass@k with {k, min}", () => {
    expect(gate("pass_hat_k", { k: 3, min: 0.3 })).toEqual({
      name: "pass_hat_k",
      threshold: ">= 0.3 at k=3",
      value: 1 / 3,
      passed: true,
      reason: "pass_hat_k at k=3 0.333 (mean over 3 cases) is at least 0.3",
    });
    expect(gate("pass_hat_k", { k: 2, min: 0.3 })).toMatchObject({
      passed: false,
      value: 0.25,
      reason: "pass_hat_k at k=2 0.25 (mean over 4 cases) is below 0.3",
    });
    expect(gate("pass_at_k", { k: 2, min: 0.4 })).toMatchObject({ passed: true, value: 5 / 12 });
    const beyond = gate("pass_hat_k", { k: 5, min: 0 });
    expect(beyond).toMatchObject({ passed: false, value: null });
    expect(beyond.reason).toContain("no trials in its population");
  });

  it("gates a named k: pass_hat_k.<k> and tool_recall_at_k.<k>", () => {
    expect(gate("pass_hat_k.2", ">= 0.25")).toMatchObject({ passed: true, value: 0.25 });
    expect(gate("tool_recall_at_k.all", ">= 0.95")).toMatchObject({
      passed: true,
      reason: "tool_recall_at_k.all 1 (6/6) is at least 0.95",
    });
    const other = evaluateGates(makeMetrics({ tool_recall_at_k: { "5": rate(3, 4) } }), {
      "tool_recall_at_k.5": "> 0.8",
    });
    expect(other[0]).toMatchObject({
      passed: false,
      reason: "tool_recall_at_k.5 0.75 (3/4) is not above 0.8",
    });
    const missing = gate("tool_recall_at_k.5", ">= 0.5");
    expect(missing).toMatchObject({ passed: false, value: null });
    expect(missing.reason).toContain("no trials in its population");
  });

  it("returns results sorted by metric name", () => {
    const results = evaluateGates(metrics, {
      violation_rate: "<= 0.5",
      consistency: ">= 0.5",
      argument_match: ">= 0.5",
      pass_at_k: { k: 1, min: 0 },
    });
    expect(results.map((r) => r.name)).toEqual([
      "argument_match",
      "consistency",
      "pass_at_k",
      "violation_rate",
    ]);
  });
});

describe("evaluateGates: bad gates are input errors", () => {
  it("rejects an unknown metric, listing the known names", () => {
    const error = inputError(() => evaluateGates(metrics, { selection_acuracy: ">= 0.9" }));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('unknown metric "selection_acuracy"');
    for (const known of [
      "selection_accuracy",
      "violation_rate",
      "consistency",
      "mean_visible",
      "tool_recall_at_k.<k>",
      "pass_hat_k",
      "pass_at_k",
    ]) {
      expect(error.message).toContain(known);
    }
    inputError(() => evaluateGates(metrics, { failure_profile: ">= 0" }));
    inputError(() => evaluateGates(metrics, { "pass_hat_k.all": ">= 0" }));
  });

  it("rejects a malformed spec or a spec of the wrong shape", () => {
    for (const spec of ["about 0.9", "=> 0.9", ">= ", ">= 0.9x", "0.9"]) {
      expect(
        inputError(() => evaluateGates(metrics, { selection_accuracy: spec })).message,
      ).toContain('"OP NUMBER"');
    }
    expect(
      inputError(() => evaluateGates(metrics, { selection_accuracy: { k: 1, min: 0.5 } })).message,
    ).toContain("pass_hat_k");
    expect(inputError(() => evaluateGates(metrics, { pass_hat_k: ">= 0.5" })).message).toContain(
      "{k, min}",
    );
    expect(
      inputError(() => evaluateGates(metrics, { pass_at_k: { k: 0, min: 0.5 } })).message,
    ).toContain("positive integer");
  });
});
