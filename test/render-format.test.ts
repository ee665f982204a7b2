import { describe, expect, it } from "vitest";
import {
  compareKeys,
  describeCaseOutcome,
  describeStages,
  formatCi,
  formatCounts,
  formatDecimal,
  formatPercent,
  formatRate,
  truncateLine,
} from "../src/render/format.js";
import type { CaseRow } from "../src/types.js";

function row(fields: Partial<CaseRow>): CaseRow {
  return {
    case_id: "c",
    family: null,
    tags: [],
    phase: null,
    acceptable: ["search_orders"],
    forbidden: [],
    trials: 3,
    errored: 0,
    correct: 0,
    violated: 0,
    stages: {},
    selections: {},
    passed: false,
    ...fields,
  };
}

describe("format", () => {
  it("formats percentages with one decimal, intervals in brackets, and — for null", () => {
    expect(formatPercent(8 / 11)).toBe("72.7%");
    expect(formatPercent(1)).toBe("100.0%");
    expect(formatPercent(0)).toBe("0.0%");
    expect(formatPercent(null)).toBe("—");
    expect(formatCi([0.43435, 0.90254])).toBe("[43.4%, 90.3%]");
    expect(formatCi(null)).toBe("—");
    expect(formatRate({ numerator: 4 / 3, denominator: 4, value: 1 / 3, ci: null })).toBe(
      "33.3% (1.33/4)",
    );
    expect(formatRate({ numerator: 0, denominator: 0, value: null, ci: null })).toBe("— (0/0)");
    expect(formatDecimal(2 / 3)).toBe("0.667");
    expect(formatDecimal(0.9)).toBe("0.9");
  });

  it("formats counts by count descending then name, and truncates lines", () => {
    expect(formatCounts({ b: 1, a: 1, c: 2, z: 0 })).toBe("c ×2, a ×1, b ×1");
    expect(formatCounts({})).toBe("—");
    expect(truncateLine("a\n  b\tc")).toBe("a b c");
    expect(truncateLine("abcdef", 4)).toBe("abc…");
  });

  it("orders integer-like keys numerically before the others", () => {
    expect(["all", "10", "2", "1", "b", "a"].sort(compareKeys)).toEqual([
      "1",
      "2",
      "10",
      "a",
      "all",
      "b",
    ]);
  });

  it("describes a case's trials in ladder order with its non-acceptable selections", () => {
    const mixed = row({
      stages: { correct: 1, selection: 1, discovery: 1 },
      selections: { search_orders: 1, get_order: 1, "(no call)": 1 },
      errored: 1,
      violated: 1,
    });
    expect(describeStages(mixed)).toBe("discovery ×1, selection ×1, correct ×1, errored ×1");
    expect(describeCaseOutcome(mixed)).toBe(
      "discovery ×1, selection ×1 (selected (no call) ×1, get_order ×1), correct ×1, errored ×1, violated ×1",
    );
    expect(
      describeCaseOutcome(row({ stages: { selection: 2 }, selections: { get_order: 2 } })),
    ).toBe("selection ×2 (selected get_order)");
    expect(describeCaseOutcome(row({ errored: 3 }))).toBe("errored ×3");
    expect(describeStages(row({ trials: 0 }))).toBe("no trials");
  });
});
