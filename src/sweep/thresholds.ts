/**
 * N90 and N50: the visible size at which selection accuracy falls below 0.9 and 0.5, linearly
 * interpolated between the last point at or above the threshold and the first point below it;
 * and their case-bootstrap intervals.
 */
import { deriveSeed, seededRandom } from "../text/seeded-random.js";
import type { SweepPoint, Threshold, ThresholdBound } from "../types/sweep.js";

export interface CurvePoint {
  /** The true (mean) visible size of the point. */
  x: number;
  /** Selection accuracy; null when the point had no trial to measure it (skipped). */
  y: number | null;
}

/** The first crossing below `threshold`, walking the points by increasing x. */
export function findThreshold(points: CurvePoint[], threshold: number): Threshold {
  const curve = points
    .filter((p): p is { x: number; y: number } => p.y !== null)
    .sort((a, b) => a.x - b.x);
  for (let i = 0; i < curve.length; i++) {
    const { x, y } = curve[i];
    if (y >= threshold) continue;
    if (i === 0) return { threshold, size: null, status: "below_at_smallest" };
    const prev = curve[i - 1];
    const size = prev.x + ((prev.y - threshold) * (x - prev.x)) / (prev.y - y);
    return { threshold, size, status: "interpolated" };
  }
  return { threshold, size: null, status: "not_reached" };
}

/** Bootstrap resamples of the cases. */
const RESAMPLES = 1000;

/**
 * The threshold's 95% case-bootstrap interval: the cases resampled with replacement (the same
 * draw at every point, so the curve keeps its shape), each resample's curve crossed again. A
 * resample that never crosses counts as +∞, one already below at the smallest size as −∞; a
 * bound that falls there is open (null). Seeded: the same sweep gives the same interval.
 */
export function withInterval(threshold: Threshold, points: SweepPoint[], seed: number): Threshold {
  const tallies = points.map((p) => p.selection_by_case ?? {});
  const cases = [...new Set(tallies.flatMap((t) => Object.keys(t)))].sort();
  if (cases.length === 0) return threshold;
  const random = seededRandom(deriveSeed("sweep-threshold", seed, threshold.threshold));
  const sizes: number[] = [];
  const ends = { count: RESAMPLES, interpolated: 0, not_reached: 0, below_at_smallest: 0 };
  for (let b = 0; b < RESAMPLES; b++) {
    const draw = cases.map(() => cases[Math.floor(random() * cases.length)]);
    const curve = points.map((p, i) => {
      let s = 0;
      let n = 0;
      for (const id of draw) {
        const [correct, population] = tallies[i][id] ?? [0, 0];
        s += correct;
        n += population;
      }
      return { x: p.visible.mean ?? p.value, y: n === 0 ? null : s / n };
    });
    const found = findThreshold(curve, threshold.threshold);
    ends[found.status] += 1;
    sizes.push(
      found.status === "interpolated"
        ? (found.size ?? 0)
        : found.status === "not_reached"
          ? Infinity
          : -Infinity,
    );
  }
  sizes.sort((a, b) => a - b);
  const at = (q: number) => {
    const value = sizes[Math.min(sizes.length - 1, Math.max(0, Math.ceil(q * sizes.length) - 1))];
    return Number.isFinite(value) ? value : value > 0 ? "above" : "below";
  };
  const ci: [ThresholdBound, ThresholdBound] = [at(0.025), at(0.975)];
  return { ...threshold, ci, resamples: ends };
}
