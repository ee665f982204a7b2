import { describe, it, expect } from "vitest";
import { computePassK, passAtK, passHatK, TALLY_FIELDS } from "../src/metrics/pass-k.js";

describe("passHatK and passAtK", () => {
  it("match hand-computed values for n=3, c=2", () => {
    expect(passHatK(2, 3, 1)).toBeCloseTo(2 / 3, 12);
    expect(passHatK(2, 3, 2)).toBeCloseTo(1 / 3, 12);
    expect(passHatK(2, 3, 3)).toBe(0);
    expect(passAtK(2, 3, 1)).toBeCloseTo(2 / 3, 12);
    expect(passAtK(2, 3, 2)).toBe(1);
    expect(passAtK(2, 3, 3)).toBe(1);
  });

  it("match C(c,k)/C(n,k) and 1 − C(n−c,k)/C(n,k) for n=5, c=3, k=2", () => {
    expect(passHatK(3, 5, 2)).toBeCloseTo(3 / 10, 12);
    expect(passAtK(3, 5, 2)).toBeCloseTo(9 / 10, 12);
  });

  it("handle all-correct and all-wrong cases", () => {
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passAtK(0, 4, 4)).toBe(0);
    expect(passHatK(0, 4, 1)).toBe(0);
  });

  it("do not overflow where the binomials would", () => {
    expect(passAtK(1, 1000, 500)).toBeCloseTo(0.5, 12);
    expect(passHatK(999, 1000, 500)).toBeCloseTo(0.5, 12);
    const tiny = passHatK(100, 200, 100);
    expect(tiny).toBeGreaterThan(0);
    expect(tiny).toBeLessThan(1e-50);
  });

  it("reject k outside 1..n", () => {
    expect(() => passHatK(1, 3, 4)).toThrow(RangeError);
    expect(() => passAtK(1, 3, 0)).toThrow(RangeError);
  });
});

describe("computePassK", () => {
  it("is measured for k = 1..the fewest scored trials of any case, over the same cases at every k", () => {
    const { pass_hat_k, pass_at_k } = computePassK(
      [
        { n: 3, c: 2 },
        { n: 2, c: 2 },
        { n: 3, c: 0 },
      ],
      TALLY_FIELDS,
    );
    expect(Object.keys(pass_hat_k)).toEqual(["1", "2"]);
    expect(pass_hat_k["1"].value).toBeCloseTo(5 / 9, 12);
    expect(pass_hat_k["1"].numerator).toBeCloseTo(5 / 3, 12);
    expect(pass_hat_k["1"].denominator).toBe(3);
    expect(pass_hat_k["2"].value).toBeCloseTo(4 / 9, 12);
    expect(pass_hat_k["2"].denominator).toBe(3);
    expect(pass_hat_k["3"]).toBeUndefined();
    expect(pass_at_k["2"].value).toBeCloseTo(2 / 3, 12);
    expect(pass_at_k["2"].ci?.[0]).toBeCloseTo(0.2077, 4);
  });

  it("is empty without cases", () => {
    expect(computePassK([], TALLY_FIELDS)).toEqual({ pass_hat_k: {}, pass_at_k: {} });
  });
});
