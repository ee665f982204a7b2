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

/** One case's part of a trial-level rate: its trials in the population, and how many succeeded. */
export interface ClusterTally {
  n: number;
  s: number;
}

/**
 * A trial-level rate whose trials come in cases (repeated trials): the value is the pooled share,
 * and the interval is Wilson's on the effective sample size N / deff, where the design effect
 * deff = V_cluster / (p(1 − p) / N) uses the cluster-robust variance of the ratio estimator,
 * V_cluster = Σ (s_i − p·n_i)² / N². So a deterministic endpoint (every trial of a case alike)
 * gets exactly the case-level Wilson interval (N_eff = cases), and independent trials stay close
 * to the trial-level one (N_eff ≈ N). N_eff is at most N; when p is 0 or 1 it is the cases.
 */
export function clusterRate(clusters: ClusterTally[]): Rate {
  const present = clusters.filter((c) => c.n > 0);
  const total = present.reduce((sum, c) => sum + c.n, 0);
  const successes = present.reduce((sum, c) => sum + c.s, 0);
  if (total === 0) return { ...rate(0, 0), cases: 0, effective_n: 0 };
  const p = successes / total;
  const variance = present.reduce((sum, c) => sum + (c.s - p * c.n) ** 2, 0) / (total * total);
  const effective = p <= 0 || p >= 1 || variance <= 0 ? present.length : Math.min(total, (p * (1 - p)) / variance);
  return { numerator: successes, denominator: total, value: p, ci: wilson(p * effective, effective), cases: present.length, effective_n: effective };
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
