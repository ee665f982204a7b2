/**
 * Ablation verdicts: Holm-adjusted across the experiment's comparisons, named in the reason; a
 * variant with no scored trial is "unmeasured" and fails --fail-if-worse; the deltas are on the
 * pair's common trials.
 */
import { describe, expect, it } from "vitest";
import {
  adjustVerdicts,
  compareVariant,
  deltaOf,
  type VariantRun,
} from "../src/ablate/compare-variants.js";
import { evaluateVariantGates } from "../src/gates/variant-gates.js";
import type { Experiment } from "../src/types/ablate.js";
import { buildRecords, makeInput } from "./fixtures/diff-records.js";

function variant(name: string, cases: Record<string, string>): VariantRun {
  const input = makeInput(name, buildRecords(cases));
  return { name, label: name, report: input.report, records: input.records ?? [] };
}

/** 12 cases, one trial each. */
function cases(pass: number, outcome = "P"): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: 12 }, (_, i) => [
      `c${String(i).padStart(2, "0")}`,
      i < pass ? outcome : "F",
    ]),
  );
}

describe("ablation verdicts", () => {
  it("Holm-adjusts the sign tests across the comparisons and says so", () => {
    const base = variant("base", cases(2));
    const better = variant("better", cases(9)); // 7 up, 0 down: p = 2/128 = 0.0156
    const same = variant("same", cases(2));
    const comparisons = [compareVariant(base, better), compareVariant(better, same)];
    expect(comparisons[0].verdict).toBe("helped");
    adjustVerdicts(comparisons, () => 12);
    // Holm: 0.0156 × 2 = 0.03125 < 0.05, still helped; 7 down of 12: 0.0156 × 1.
    expect(comparisons[0].p_holm).toBeCloseTo(2 * (2 / 128), 12);
    expect(comparisons[0].because).toBe(
      "7 cases up, 0 down of 12 (sign test over cases, Holm-adjusted across 2 comparisons, Holm p = 0.0313)",
    );
    expect(comparisons[1].verdict).toBe("hurt");

    // Three comparisons of 6 up, 0 down (p = 0.03125 each): alone each would be "helped"; Holm says no.
    const six = [
      variant("v0", cases(0)),
      variant("v1", cases(6)),
      variant("v2", cases(0)),
      variant("v3", cases(6)),
    ];
    const family = [
      compareVariant(six[0], six[1]),
      compareVariant(six[2], six[3]),
      compareVariant(six[0], six[3]),
    ];
    expect(family.map((c) => c.verdict)).toEqual(["helped", "helped", "helped"]);
    adjustVerdicts(family, () => 12);
    expect(family.map((c) => c.verdict)).toEqual([
      "no detectable change",
      "no detectable change",
      "no detectable change",
    ]);
  });

  it("a variant that scored nothing is unmeasured, and --fail-if-worse fails it", () => {
    const base = variant("base", cases(6));
    const all = Object.fromEntries(Object.keys(cases(0)).map((id) => [id, "E"]));
    const errored = variant("errored", all);
    const comparisons = [compareVariant(base, errored)];
    adjustVerdicts(comparisons, (name) => (name === "errored" ? 0 : 12));
    expect(comparisons[0].verdict).toBe("unmeasured");
    const experiment = {
      comparisons,
      variants: [
        { name: "base", dir: "variants/base" },
        { name: "errored", dir: "variants/errored" },
      ],
      metrics: [],
    } as unknown as Experiment;
    expect(evaluateVariantGates(experiment, [], ["errored"])).toEqual([
      {
        variant: "errored",
        rule: "--fail-if-worse errored",
        passed: false,
        reason:
          "against base: unmeasured (the variant scored no trial (every one errored, or none ran): nothing to judge)",
      },
    ]);
  });

  it("the delta of a conditional rate is on the pair's common trials: no case moved, no points moved", () => {
    // Both runs: c00-c05 correct; in the variant c06-c08 fail earlier (errored here), so selection's population shrinks.
    const reference = variant("reference", { ...cases(6), c06: "F", c07: "F", c08: "F" });
    const shrunk = variant("shrunk", { ...cases(6), c06: "E", c07: "E", c08: "E" });
    const c = compareVariant(reference, shrunk);
    // Own populations: 6/12 → 6/9 (+16.7 pts); on the 9 common trials nothing moved.
    expect(c.metrics.find((m) => m.metric === "selection_accuracy")?.delta).toBeCloseTo(
      6 / 9 - 6 / 12,
      12,
    );
    expect(deltaOf(c, "selection_accuracy")).toBe("0.0 pts (9 paired)");
  });
});
