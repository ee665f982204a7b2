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
    expect(pairedTest(2, 10, 40)).toEqual({ up: 2, down: 10, pairs: 40, p_value: exactMcNemar(2, 10) });
  });
});
