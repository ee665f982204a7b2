import { describe, expect, it } from "vitest";
import { findThreshold } from "../src/sweep/thresholds.js";
import { percentile, thresholdsOf } from "../src/sweep/summarise-point.js";
import type { SweepPoint } from "../src/types/sweep.js";

describe("N90 / N50", () => {
  it("interpolates linearly between the last point at or above and the first point below", () => {
    const curve = [
      { x: 5, y: 0.96 },
      { x: 10, y: 0.92 },
      { x: 20, y: 0.8 },
      { x: 40, y: 0.4 },
    ];
    // 0.9 lies between (10, 0.92) and (20, 0.80): 10 + (0.92 − 0.9)·(20 − 10)/(0.92 − 0.80) = 11.666…
    expect(findThreshold(curve, 0.9).status).toBe("interpolated");
    expect(findThreshold(curve, 0.9).size).toBeCloseTo(10 + 0.2 / 0.12, 10);
    // 0.5 lies between (20, 0.80) and (40, 0.40): 20 + 0.3·20/0.4 = 35
    expect(findThreshold(curve, 0.5).size).toBeCloseTo(35, 10);
  });

  it("takes the first crossing, sorts by size and skips points without a measurement", () => {
    const curve = [
      { x: 40, y: 0.95 },
      { x: 10, y: 0.85 },
      { x: 5, y: 0.95 },
      { x: 20, y: null },
    ];
    const found = findThreshold(curve, 0.9);
    expect(found.status).toBe("interpolated");
    expect(found.size).toBeCloseTo(7.5, 10); // between (5, 0.95) and (10, 0.85); (40, 0.95) comes later
  });

  it("says 'not reached' when accuracy never falls below, and 'below at smallest' when it starts below", () => {
    expect(
      findThreshold(
        [
          { x: 5, y: 1 },
          { x: 40, y: 0.9 },
        ],
        0.9,
      ),
    ).toEqual({ threshold: 0.9, size: null, status: "not_reached" });
    expect(
      findThreshold(
        [
          { x: 5, y: 0.7 },
          { x: 40, y: 0.4 },
        ],
        0.9,
      ),
    ).toEqual({ threshold: 0.9, size: null, status: "below_at_smallest" });
    expect(findThreshold([], 0.5).status).toBe("not_reached");
  });

  it("treats a point exactly at the threshold as not below it", () => {
    expect(
      findThreshold(
        [
          { x: 5, y: 0.5 },
          { x: 10, y: 0.5 },
        ],
        0.5,
      ).status,
    ).toBe("not_reached");
    expect(
      findThreshold(
        [
          { x: 5, y: 0.5 },
          { x: 10, y: 0.25 },
        ],
        0.5,
      ).size,
    ).toBe(5);
  });
});

describe("latency percentiles (nearest rank)", () => {
  it("picks the ceil(p·n)-th smallest value", () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 0.5)).toBe(5);
    expect(percentile(sorted, 0.95)).toBe(10);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.5)).toBeNull();
  });
});

describe("N90 / N50 case-bootstrap intervals", () => {
  /** 40 cases over sizes 5..40, each case right at every size below its own breaking size. */
  function points() {
    const sizes = [5, 10, 20, 40];
    const breaks = Array.from({ length: 40 }, (_, i) =>
      i < 2 ? 5 : i < 4 ? 10 : i < 16 ? 20 : i < 32 ? 40 : 80,
    );
    return sizes.map((size) => {
      const byCase = Object.fromEntries(
        breaks.map((b, i) => [`c${i}`, [size < b ? 1 : 0, 1] as [number, number]]),
      );
      const correct = Object.values(byCase).reduce((sum, [s]) => sum + s, 0);
      return {
        value: size,
        visible: { mean: size },
        selection_accuracy: { value: correct / 40 },
        selection_by_case: byCase,
      } as unknown as SweepPoint;
    });
  }

  it("brackets the point estimate, is the same every time, and counts how the resamples ended", () => {
    const first = thresholdsOf("size", points());
    expect(first).toEqual(thresholdsOf("size", points()));
    const n90 = first?.n90;
    // Accuracy 38/40, 36/40, 24/40, 8/40 at 5, 10, 20, 40: N90 is at 10 (0.9, not below; 0.6 at 20).
    expect(n90?.status).toBe("interpolated");
    expect(n90?.size).toBeCloseTo(10, 10);
    const [low, high] = n90?.ci ?? [];
    expect(typeof low === "number" ? low : -1).toBeLessThanOrEqual(n90?.size ?? 0);
    expect(high === "above" || (typeof high === "number" && high >= (n90?.size ?? 0))).toBe(true);
    const r = n90?.resamples;
    expect((r?.interpolated ?? 0) + (r?.not_reached ?? 0) + (r?.below_at_smallest ?? 0)).toBe(1000);
    // Resamples with fewer early breakers cross later, with more earlier: the interval is not a point.
    expect(low).not.toEqual(high);
  });
});
