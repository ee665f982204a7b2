/**
 * N90 and N50: the visible size at which selection accuracy falls below 0.9 and 0.5, linearly
 * interpolated between the last point at or above the threshold and the first point below it.
 */
import type { Threshold } from "../types/sweep.js";

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
