import { describe, expect, it } from "vitest";
import { exactMcNemar, minDiscordantPairs, pairedTest } from "../src/diff/mcnemar.js";

/** The textbook sum, with exact binomials (fine for small n). */
function bySum(b: number, c: number): number {
  const n = b + c;
  let tail = 0;
  let choose = 1;
  for (let i = 0; i <= Math.min(b, c); i++) {
    tail += choose;
    choose = (choose * (n - i)) / (i + 1);
  }
  return Math.min(1, (2 * tail) / 2 ** n);
}

describe("exactMcNemar", () => {
  it("gives p ≈ 0.0386 for 10 against 2 discordant pairs (2·(1 + 12 + 66)/4096)", () => {
    expect(exactMcNemar(10, 2)).toBeCloseTo(158 / 4096, 12);
    expect(exactMcNemar(10, 2).toFixed(4)).toBe("0.0386");
  });

  it("is symmetric in its two counts", () => {
    expect(exactMcNemar(2, 10)).toBe(exactMcNemar(10, 2));
    expect(exactMcNemar(3, 7)).toBeCloseTo(352 / 1024, 12);
  });

  it("is 1 without discordant pairs, and capped at 1 when the split is even", () => {
    expect(exactMcNemar(0, 0)).toBe(1);
    expect(exactMcNemar(4, 4)).toBe(1);
    expect(exactMcNemar(1, 0)).toBe(1);
  });

  it("matches the textbook sum for every split up to 30 pairs", () => {
    for (let n = 0; n <= 30; n++) {
      for (let b = 0; b <= n; b++) expect(exactMcNemar(b, n - b)).toBeCloseTo(bySum(b, n - b), 12);
    }
  });

  it("stays finite and ordered for thousands of pairs (summed in log space)", () => {
    const p = exactMcNemar(2600, 2400);
    expect(p).toBeGreaterThan(0.004);
    expect(p).toBeLessThan(0.006);
    expect(exactMcNemar(3000, 3000)).toBe(1);
    expect(exactMcNemar(1000, 0)).toBeGreaterThan(0);
  });

  it("rejects counts that are not whole numbers", () => {
    expect(() => exactMcNemar(-1, 2)).toThrow(RangeError);
    expect(() => exactMcNemar(1.5, 2)).toThrow(RangeError);
  });
});

describe("minDiscordantPairs", () => {
  it("needs 6 one-way pairs at alpha 0.05 (p = 1/32) and 8 at 0.01", () => {
    expect(minDiscordantPairs(0.05)).toBe(6);
    expect(exactMcNemar(6, 0)).toBeCloseTo(0.03125, 12);
    expect(exactMcNemar(5, 0)).toBeCloseTo(0.0625, 12);
    expect(minDiscordantPairs(0.01)).toBe(8);
    expect(minDiscordantPairs(0)).toBeNull();
  });
});

describe("pairedTest", () => {
  it("keeps the counts beside the p-value", () => {
    expect(pairedTest(2, 10, 40)).toEqual({
      up: 2,
      down: 10,
      pairs: 40,
      p_value: exactMcNemar(2, 10),
    });
  });
});

describe("the per-case noise test", () => {
  it("Fisher's one-sided exact drop test matches hand-computed hypergeometric tails", async () => {
    const { fisherDrop, smallestDropP } = await import("../src/diff/case-noise.js");
    // 10/10 → 2/10: only X = 2 is possible at or below: C(12,2)·C(8,8)/C(20,10).
    expect(fisherDrop(10, 10, 2, 10)).toBeCloseTo(66 / 184756, 15);
    // 5/5 → 4/5: P(X ≤ 4) with K = 9 of 10 = 1 − P(X = 5) = 1 − C(9,5)/C(10,5) = 1 − 126/252.
    expect(fisherDrop(5, 5, 4, 5)).toBeCloseTo(0.5, 12);
    // No drop: p = 1.
    expect(fisherDrop(2, 5, 4, 5)).toBeGreaterThan(0.95);

    expect(smallestDropP(1, 1)).toBe(0.5);
    expect(smallestDropP(3, 3)).toBeCloseTo(1 / 20, 12);
    expect(() => fisherDrop(3, 2, 0, 1)).toThrow(RangeError);
  });

  it("Holm's adjustment is step-down, monotone and capped at 1", async () => {
    const { holm } = await import("../src/diff/case-noise.js");
    expect(holm([0.01, 0.04, 0.03])).toEqual([0.03, 0.06, 0.06]);
    expect(holm([0.5, 0.5])).toEqual([1, 1]);
    expect(holm([])).toEqual([]);
  });
});
