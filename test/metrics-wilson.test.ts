import { describe, it, expect } from "vitest";
import { rate, wilson } from "../src/metrics/wilson.js";

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
