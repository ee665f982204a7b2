import { describe, it, expect } from "vitest";
import { ClusterMoments } from "../src/metrics/cluster-moments.js";
import { clusterMeanOf, clusterRate, rate, wilson } from "../src/metrics/wilson.js";
import { seededRandom } from "../src/text/seeded-random.js";

function expectInterval(actual: [number, number] | null, expected: [number, number]): void {
  expect(actual).not.toBeNull();
  expect(actual?.[0]).toBeCloseTo(expected[0], 4);
  expect(actual?.[1]).toBeCloseTo(expected[1], 4);
}

describe("wilson", () => {
  it("matches published 95% intervals", () => {
    expectInterval(wilson(8, 10), [0.4902, 0.9433]);
    expectInterval(wilson(5, 10), [0.2366, 0.7634]);
    expectInterval(wilson(0, 10), [0, 0.2775]);
    expectInterval(wilson(10, 10), [0.7225, 1]);
    expectInterval(wilson(1, 1), [0.2065, 1]);
  });

  it("stays within [0, 1] at the edges", () => {
    const [low, high] = wilson(0, 1000) ?? [NaN, NaN];
    expect(low).toBe(0);
    expect(high).toBeGreaterThan(0);
    expect(wilson(1000, 1000)?.[1]).toBe(1);
  });

  it("is null for an empty population and narrows with another z", () => {
    expect(wilson(0, 0)).toBeNull();
    const [low90] = wilson(8, 10, 1.6448536269514722) ?? [NaN];
    expect(low90).toBeCloseTo(0.5408, 4);
  });
});

describe("rate", () => {
  it("keeps numerator, denominator, unrounded value and interval", () => {
    const r = rate(2, 3);
    expect(r.numerator).toBe(2);
    expect(r.denominator).toBe(3);
    expect(r.value).toBe(2 / 3);
    expectInterval(r.ci, [0.2077, 0.9385]);
  });

  it("has null value and ci when the denominator is 0", () => {
    expect(rate(0, 0)).toEqual({ numerator: 0, denominator: 0, value: null, ci: null });
  });
});

describe("clusterRate is monotone in the count", () => {
  it("1 of 70 is never narrower on top than 0 of 70, nor 69 of 70 below 70 of 70 (14 cases of 5 trials)", () => {
    const spread = (s: number) =>
      Array.from({ length: 14 }, (_, i) => ({
        n: 5,
        s: Math.floor(s / 14) + (i < s % 14 ? 1 : 0),
      }));
    const upper = (s: number) => clusterRate(spread(s)).ci?.[1] ?? NaN;
    const lower = (s: number) => clusterRate(spread(s)).ci?.[0] ?? NaN;
    expect(clusterRate(spread(0)).effective_n).toBe(14);
    expect(upper(1)).toBeGreaterThanOrEqual(upper(0));
    expect(lower(69)).toBeLessThanOrEqual(lower(70));
    for (let s = 1; s <= 70; s++) {
      expect(upper(s)).toBeGreaterThanOrEqual(upper(s - 1) - 1e-12);
      expect(lower(s)).toBeGreaterThanOrEqual(lower(s - 1) - 1e-12);
    }
  });

  it("a deterministic endpoint keeps exactly the case-level interval", () => {
    const cases = Array.from({ length: 10 }, (_, i) => ({ n: 3, s: i < 7 ? 3 : 0 }));
    expect(clusterRate(cases).ci).toEqual(wilson(7, 10));
  });
});

describe("ClusterMoments", () => {
  const clusters = (seed: number) => {
    const rand = seededRandom(seed);
    return Array.from({ length: 500 }, () => {
      const n = 1 + Math.floor(rand() * 5);
      return { n, s: Math.floor(rand() * (n + 1)) };
    });
  };

  it("gives clusterRateOf's rate and clusterMeanOf's mean, from sums held as the clusters end", () => {
    for (const seed of [1, 2, 3]) {
      const all = clusters(seed);
      const moments = new ClusterMoments();
      for (const { n, s } of all) moments.add(n, s);
      moments.add(0, 0);
      const expected = clusterRate(all);
      const got = moments.rate();
      expect({ ...got, ci: null, effective_n: 0 }).toEqual({
        ...expected,
        ci: null,
        effective_n: 0,
      });
      expect(got.effective_n).toBeCloseTo(expected.effective_n ?? NaN, 9);
      expectInterval(got.ci, expected.ci ?? [NaN, NaN]);
      const mean = moments.mean();
      const exact = clusterMeanOf(
        all,
        (c) => c.n,
        (c) => c.s,
      );
      expect({ ...mean, ci: null }).toEqual({ ...exact, ci: null });
      expect(mean.ci?.[0]).toBeCloseTo(exact.ci?.[0] ?? NaN, 12);
      expect(mean.ci?.[1]).toBeCloseTo(exact.ci?.[1] ?? NaN, 12);
    }
  });

  it("reads the same to the last digit whatever order the clusters end in", () => {
    const all = clusters(7);
    const forward = new ClusterMoments();
    const backward = new ClusterMoments();
    for (const { n, s } of all) forward.add(n, s);
    for (const { n, s } of [...all].reverse()) backward.add(n, s);
    expect(backward.rate()).toEqual(forward.rate());
    expect(backward.mean()).toEqual(forward.mean());
    // Every cluster at the same share: no spread between clusters, so the cases carry full weight.
    const alike = new ClusterMoments();
    for (let i = 0; i < 1000; i++) alike.add(3, 1);
    expect(alike.rate().effective_n).toBe(3000);
  });
});
