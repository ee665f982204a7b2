/**
 * Reliability over repeated trials (docs/metrics.md "Reliability"), with the unbiased estimators of pass^k
 * (τ-bench: all k of k trials succeed) and pass@k (at least one of k succeeds).
 */
import type { CaseMean } from "../types.js";
import { clusterRate, rate } from "./wilson.js";
import { compareText } from "../text/compare-text.js";
import { keptOf } from "../text/same-list.js";

/** One case's trials: n scored (non-errored) trials, c of them correct. */
export interface CaseTally {
  n: number;
  c: number;
  /** The unit the interval treats as independent (a turn's conversation); absent: the case itself. */
  cluster?: string;
}

/** How a case's n, c and cluster are read from what a caller holds (a report's case tallies: no object made per case). */
export interface PassKReader<T> {
  n(t: T): number;
  c(t: T): number;
  cluster(t: T): string | undefined;
}

/** Cases given as their n, c and cluster. */
export const TALLY_FIELDS: PassKReader<CaseTally> = {
  n: (t) => t.n,
  c: (t) => t.c,
  cluster: (t) => t.cluster,
};

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
function meanOverCases<T>(
  cases: readonly T[],
  estimate: (c: number, n: number, k: number) => number,
  read: PassKReader<T>,
): Record<string, CaseMean> {
  const scored = keptOf(cases, (tally) => read.n(tally) > 0);
  let minN = scored.length === 0 ? 0 : Infinity;
  for (const tally of scored) minN = Math.min(minN, read.n(tally));
  // A conversation's turns are not independent: with conversations, its turns are one unit of the
  // interval (the design effect of their agreement), as every other rate of such a run.
  const clustered = sharesCluster(scored, read);
  const means: Record<string, CaseMean> = {};
  for (let k = 1; k <= minN; k++) {
    let sum = 0;
    for (const tally of scored) sum += estimate(read.c(tally), read.n(tally), k);
    means[String(k)] = clustered
      ? {
          ...rate(sum, scored.length),
          ci: clusteredInterval(scored, read, (t) => estimate(read.c(t), read.n(t), k)),
        }
      : rate(sum, scored.length);
  }
  return means;
}

/** Whether two of the cases are of one cluster (a conversation's turns). */
function sharesCluster<T>(cases: readonly T[], read: PassKReader<T>): boolean {
  // Clusters that rise case by case (each case its own, in case order: most runs) are all
  // different, told without a set of a million of them.
  let last: string | undefined;
  let rising = true;
  for (let i = 0; i < cases.length && rising; i++) {
    const cluster = read.cluster(cases[i]);
    if (cluster === undefined) continue;
    rising = last === undefined || compareText(last, cluster) < 0;
    last = cluster;
  }
  if (rising) return false;
  const seen = new Set<string>();
  for (const tally of cases) {
    const cluster = read.cluster(tally);
    if (cluster === undefined) continue;
    if (seen.has(cluster)) return true;
    seen.add(cluster);
  }
  return false;
}

/** The interval of a mean over cases whose clusters (conversations) hold several of them. */
function clusteredInterval<T>(
  cases: readonly T[],
  read: PassKReader<T>,
  value: (tally: T) => number,
): [number, number] | null {
  const byCluster = new Map<string, { n: number; s: number }>();
  cases.forEach((tally, i) => {
    const key = read.cluster(tally) ?? `#${i}`;
    const cluster = byCluster.get(key) ?? { n: 0, s: 0 };
    cluster.n += 1;
    cluster.s += value(tally);
    byCluster.set(key, cluster);
  });
  return clusterRate([...byCluster.values()]).ci;
}

/** pass^k and pass@k over cases, keyed by k = 1..max n; each case's n, c and cluster as `read` reads them. */
export function computePassK<T>(
  cases: readonly T[],
  read: PassKReader<T>,
): {
  pass_hat_k: Record<string, CaseMean>;
  pass_at_k: Record<string, CaseMean>;
} {
  return {
    pass_hat_k: meanOverCases(cases, passHatK, read),
    pass_at_k: meanOverCases(cases, passAtK, read),
  };
}
