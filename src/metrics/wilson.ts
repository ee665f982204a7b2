/**
 * Rates with their evidence: numerator, denominator and a 95% Wilson score interval.
 * Nothing is rounded here; renderers round.
 */
import type { Rate } from "../types.js";

/** The two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/**
 * Wilson score interval for `successes` out of `n`; null when n is 0. `successes` may be
 * fractional (a sum of per-case estimates), which the formula accepts unchanged.
 */
export function wilson(successes: number, n: number, z = Z_95): [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 and n successes the bounds are exactly 0 and 1; floating point would leave a residue.
  const low = successes <= 0 ? 0 : Math.max(0, centre - half);
  const high = successes >= n ? 1 : Math.min(1, centre + half);
  return [low, high];
}

/** A rate; value and ci are null when the denominator is 0. */
export function rate(numerator: number, denominator: number): Rate {
  return {
    numerator,
    denominator,
    value: denominator === 0 ? null : numerator / denominator,
    ci: wilson(numerator, denominator),
  };
}
