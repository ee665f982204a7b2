/**
 * Reliability over repeated trials (docs/metrics.md "Reliability"), with the unbiased estimators of pass^k
 * (τ-bench: all k of k trials succeed) and pass@k (at least one of k succeeds).
 */
import { minOf } from "../text/extremes.js";
import type { CaseMean } from "../types.js";
import { clusterRate, rate } from "./wilson.js";

/** One case's trials: n scored (non-errored) trials, c of them correct. */
export interface CaseTally {
  n: number;
  c: number;
  /** The unit the interval treats as independent (a turn's conversation); absent: the case itself. */
  cluster?: string;
}

function checkRange(c: number, n: number, k: number): void {
  if (!(Number.isInteger(k) && k >= 1 && k <= n && c >= 0 && c <= n)) {
    throw new RangeError(`pass-k: need 1 <= k <= n and 0 <= c <= n, got c=${c}, n=${n}, k=${k}`);
  }
}

/** ∏_{i<k} (a − i)/(n − i) = C(a,k)/C(n,k), in product form so that no binomial overflows. */
function chooseRatio(a: number, n: number, k: number): number {
  let ratio = 1;
  for (let i = 0; i < k; i++) {
    if (a - i <= 0) return 0;
    ratio *= (a - i) / (n - i);
  }
  return ratio;
}

/** C(c,k)/C(n,k): the chance that k trials drawn without replacement are all correct. */
export function passHatK(c: number, n: number, k: number): number {
  checkRange(c, n, k);
  return chooseRatio(c, n, k);
}

/** 1 − C(n−c,k)/C(n,k): the chance that at least one of k drawn trials is correct. */
export function passAtK(c: number, n: number, k: number): number {
  checkRange(c, n, k);
  return 1 - chooseRatio(n - c, n, k);
}

/**
 * Mean over cases of `estimate(c, n, k)` for k = 1..(the fewest scored trials of any scored case),
 * over the same cases at every k — so pass^k never rises with k and no case drops out of a k
 * because one of its trials errored. Cases with no scored trial are not scored cases.
 * As a CaseMean: numerator = sum of per-case estimates, denominator = cases. The ci is a Wilson
 * interval on (sum, cases), an approximation that treats the mean of per-case probabilities as
 * a proportion over cases; it ignores the within-case spread.
 */
export function meanOverCases(
  cases: CaseTally[],
  estimate: (c: number, n: number, k: number) => number,
): Record<string, CaseMean> {
  const scored = cases.filter((tally) => tally.n > 0);
  const minN = minOf(
    scored.map((tally) => tally.n),
    0,
  );
  // A conversation's turns are not independent: with conversations, its turns are one unit of the
  // interval (the design effect of their agreement), as every other rate of such a run.
  const clustered = sharesCluster(scored);
  const means: Record<string, CaseMean> = {};
  for (let k = 1; k <= minN; k++) {
    const sum = scored.reduce((total, tally) => total + estimate(tally.c, tally.n, k), 0);
    means[String(k)] = clustered
      ? { ...rate(sum, scored.length), ci: clusteredInterval(scored, (t) => estimate(t.c, t.n, k)) }
      : rate(sum, scored.length);
  }
  return means;
}

/** Whether two of the cases are of one cluster (a conversation's turns). */
function sharesCluster(cases: readonly CaseTally[]): boolean {
  const seen = new Set<string>();
  for (const { cluster } of cases) {
    if (cluster === undefined) continue;
    if (seen.has(cluster)) return true;
    seen.add(cluster);
  }
  return false;
}

/** The interval of a mean over cases whose clusters (conversations) hold several of them. */
function clusteredInterval(
  cases: CaseTally[],
  value: (tally: CaseTally) => number,
): [number, number] | null {
  const byCluster = new Map<string, { n: number; s: number }>();
  cases.forEach((tally, i) => {
    const key = tally.cluster ?? `#${i}`;
    const cluster = byCluster.get(key) ?? { n: 0, s: 0 };
    cluster.n += 1;
    cluster.s += value(tally);
    byCluster.set(key, cluster);
  });
  return clusterRate([...byCluster.values()]).ci;
}

/** pass^k and pass@k over cases, keyed by k = 1..max n. */
export function computePassK(cases: CaseTally[]): {
  pass_hat_k: Record<string, CaseMean>;
  pass_at_k: Record<string, CaseMean>;
} {
  return { pass_hat_k: meanOverCases(cases, passHatK), pass_at_k: meanOverCases(cases, passAtK) };
}
