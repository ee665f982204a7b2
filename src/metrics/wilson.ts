/**
 * Rates with their evidence: numerator, denominator and a 95% Wilson score interval.
 * Nothing is rounded here; renderers round.
 */
import type { MeanEstimate, Rate, TrialRecord } from "../types.js";
import { compareText } from "../text/compare-text.js";
import type { CaseTally } from "./case-tally.js";

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
 * The cases of a cluster: a conversation's turns, or a case alone — its tally, not a list of one
 * (a report over a million cases makes no million lists).
 */
export type Cluster<T = CaseTally> = T | readonly T[];

/** A cluster's cases, as a list. */
export function membersOf<T>(cluster: Cluster<T>): readonly T[] {
  return Array.isArray(cluster) ? (cluster as readonly T[]) : [cluster as T];
}

/**
 * A trial-level rate whose trials come in cases (repeated trials): the value is the pooled share,
 * and the interval is Wilson's on the effective sample size N / deff, where the design effect
 * deff = V_cluster / (p(1 − p) / N) uses the cluster-robust variance of the ratio estimator,
 * V_cluster = Σ (s_i − p·n_i)² / N². So a deterministic endpoint (every trial of a case alike)
 * gets exactly the case-level Wilson interval (N_eff = cases), and independent trials stay close
 * to the trial-level one (N_eff ≈ N). N_eff is at most N; when p is 0 or 1 it is the cases.
 *
 * The interval is monotone in the count: at 0 or all successes nothing tells how alike a case's
 * trials are, so N_eff is the case count there; a rare event (1 of 70) would otherwise get a
 * narrower interval than none (0 of 70). So no count's upper bound is below the upper bound at 0
 * successes, nor its lower bound above the lower bound at all successes (both on the cases).
 */
export function clusterRate(clusters: readonly ClusterTally[]): Rate {
  return clusterRateOf(
    clusters,
    (c) => c.n,
    (c) => c.s,
  );
}

/**
 * clusterRate over clusters of any shape: a cluster's trials `n(c)` and its successes `s(c)`
 * (each read twice) — a report over 100,000 cases makes no object or list per rate. Clusters
 * without a trial are left out.
 */
export function clusterRateOf<T>(
  clusters: readonly T[],
  n: (cluster: T) => number,
  s: (cluster: T) => number,
): Rate {
  return rateOfSums(clusterSums(clusters, n, s));
}

/** What a pooled share's or mean's cluster-robust interval is made of (clusterSums, ClusterMoments). */
export interface PooledSums {
  /** Clusters with a trial. */
  present: number;
  total: number;
  sum: number;
  /** Σ (value_i − share·n_i)² at share = sum / total. */
  squares: number;
}

/** clusterRateOf's rate from its sums. */
export function rateOfSums({ present, total, sum: successes, squares }: PooledSums): Rate {
  if (total === 0) return { ...rate(0, 0), cases: 0, effective_n: 0 };
  const p = successes / total;
  const variance = squares / (total * total);
  // Every case at the same share (no variance between cases): the trials carry their full weight.
  const effective =
    p <= 0 || p >= 1 ? present : variance <= 0 ? total : Math.min(total, (p * (1 - p)) / variance);
  return {
    numerator: successes,
    denominator: total,
    value: p,
    ci: monotone(wilson(p * effective, effective), present),
    cases: present,
    effective_n: effective,
  };
}

/**
 * Over the clusters with a trial (in order): how many, their trials, the sum of their values, and
 * Σ (value_i − share·n_i)² at share = sum / trials — what a pooled share's or mean's
 * cluster-robust interval is made of.
 */
function clusterSums<T>(
  clusters: readonly T[],
  n: (cluster: T) => number,
  value: (cluster: T) => number,
): PooledSums {
  let present = 0;
  let total = 0;
  let sum = 0;
  for (const cluster of clusters) {
    const trials = n(cluster);
    if (!(trials > 0)) continue;
    present += 1;
    total += trials;
    sum += value(cluster);
  }
  let squares = 0;
  const share = sum / total;
  if (total > 0)
    for (const cluster of clusters) {
      const trials = n(cluster);
      if (trials > 0) squares += (value(cluster) - share * trials) ** 2;
    }
  return { present, total, sum, squares };
}

/** The interval widened, where needed, to the bounds at 0 and at all successes on `cases`. */
function monotone(ci: [number, number] | null, cases: number): [number, number] | null {
  if (ci === null) return null;
  const none = wilson(0, cases);
  const all = wilson(cases, cases);
  if (none === null || all === null) return ci;
  return [Math.min(ci[0], all[0]), Math.max(ci[1], none[1])];
}

/**
 * The interval of a difference of two rates from their own intervals (MOVER, Newcombe's square
 * and add). It ignores the pairing's positive correlation, so it is wider than a paired interval
 * would be: a change reads as beyond chance only when it is.
 */
export function differenceInterval(a: Rate, b: Rate): [number, number] | null {
  if (a.value === null || b.value === null || a.ci === null || b.ci === null) return null;
  const d = a.value - b.value;
  const low = d - Math.sqrt((a.value - a.ci[0]) ** 2 + (b.ci[1] - b.value) ** 2);
  const high = d + Math.sqrt((a.ci[1] - a.value) ** 2 + (b.value - b.ci[0]) ** 2);
  return [Math.max(-1, low), Math.min(1, high)];
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

/**
 * The unit a rate's interval treats as independent: the case — for a conversation's turns, the
 * conversation (its turns share a user, a history and a model's habits).
 */
export function clusterOf(t: TrialRecord): string {
  return t.turn?.conversation ?? t.case_id;
}

/** The mean of a per-trial value over `population`; its interval treats the case (a conversation's turns: the conversation) as the unit. */
export function meanOf(population: TrialRecord[], value: (t: TrialRecord) => number): MeanEstimate {
  return clusterMean(tallyByCase(population, value));
}

/** Each case's trials and the sum of their values, in case order (so an interval's last digits never depend on the order of the records). */
function tallyByCase(population: TrialRecord[], value: (t: TrialRecord) => number): ClusterSum[] {
  const byCase = new Map<string, ClusterSum>();
  for (const t of population) {
    let tally = byCase.get(clusterOf(t));
    if (tally === undefined) byCase.set(clusterOf(t), (tally = { n: 0, sum: 0 }));
    tally.n += 1;
    tally.sum += value(t);
  }
  return [...byCase.entries()].sort(([a], [b]) => compareText(a, b)).map(([, tally]) => tally);
}

/** Student's t 0.975 quantile for 1–30 degrees of freedom (beyond, the Cornish–Fisher series). */
const T_975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788,
  2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639,
  2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/**
 * The two-sided 95% quantile of Student's t with `df` degrees of freedom: what a mean over few
 * clusters needs (z = 1.96 at 3 cases covers about 70%, not 95%). Exact to 4 decimals.
 */
export function t975(df: number): number {
  if (df < 1) return Infinity;
  if (df <= T_975.length) return T_975[Math.floor(df) - 1];
  const z = Z_95;
  const [z3, z5, z7, z9] = [z ** 3, z ** 5, z ** 7, z ** 9];
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3) +
    (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * df ** 4)
  );
}

/** One case's part of a per-trial mean: its trials, and the sum of their values. */
export interface ClusterSum {
  n: number;
  sum: number;
}

/**
 * A mean over trials that come in cases, with a cluster-robust 95% interval (the case is the
 * unit): mean ± t(C − 1)·SE, SE² = C/(C − 1) · Σ (sum_i − mean·n_i)² / N² — Student's t with
 * the case count, so few cases give an honest width. Null interval with fewer than two cases (no
 * spread between cases to measure).
 */
export function clusterMean(clusters: readonly ClusterSum[]): MeanEstimate {
  return clusterMeanOf(
    clusters,
    (c) => c.n,
    (c) => c.sum,
  );
}

/** clusterMean over clusters of any shape, as clusterRateOf reads them: a cluster's trials `trials(c)`, their values' sum `sumOf(c)`. */
export function clusterMeanOf<T>(
  clusters: readonly T[],
  trials: (cluster: T) => number,
  sumOf: (cluster: T) => number,
): MeanEstimate {
  return meanOfClusterSums(clusterSums(clusters, trials, sumOf));
}

/** clusterMeanOf's mean from its sums. */
export function meanOfClusterSums({
  present: cases,
  total: n,
  sum: total,
  squares: spread,
}: PooledSums): MeanEstimate {
  if (n === 0) return { mean: null, total, n, cases: 0, ci: null };
  const mean = total / n;
  if (cases < 2) return { mean, total, n, cases, ci: null };
  const se = Math.sqrt((cases / (cases - 1)) * spread) / n;
  const t = t975(cases - 1);
  return { mean, total, n, cases, ci: [Math.max(0, mean - t * se), mean + t * se] };
}

/**
 * A mean of independent values from running sums (n, Σx, Σx²), in memory that does not grow with
 * n: the same estimate and interval as clusterMean over one-value clusters (mean ± t·s/√n).
 */
export function meanOfSums(n: number, total: number, squares: number): MeanEstimate {
  if (n === 0) return { mean: null, total, n, cases: 0, ci: null };
  const mean = total / n;
  if (n < 2) return { mean, total, n, cases: n, ci: null };
  const spread = Math.max(0, squares - n * mean * mean) / (n * (n - 1));
  const half = t975(n - 1) * Math.sqrt(spread);
  return { mean, total, n, cases: n, ci: [mean - half, mean + half] };
}
