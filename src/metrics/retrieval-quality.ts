/**
 * How well the retriever ranked the acceptable set, beyond "was one of them in the top k":
 * recall@k, MRR and nDCG@k over the trials whose retriever recorded scores. Pure.
 */
import type { InputTokens, RetrievalQuality, TrialRecord } from "../types.js";
import { clusterRateOf, membersOf, type Cluster } from "./wilson.js";

export interface TrialQuality {
  recall: number;
  reciprocalRank: number;
  ndcg: number;
}

/**
 * Binary-relevance quality of one ranking from the 1-based ranks of its relevant tools among the
 * ranked candidates (cut at k); null when no relevant tool was a candidate.
 */
export function scoreRanks(ranks: readonly { rank: number }[], k: number): TrialQuality | null {
  if (ranks.length === 0) return null;
  const gain = (rank: number): number => 1 / Math.log2(rank + 1);
  let hits = 0;
  let dcg = 0;
  let first = Infinity;
  for (const { rank } of ranks) {
    first = Math.min(first, rank);
    if (rank > k) continue;
    hits += 1;
    dcg += gain(rank);
  }
  let idcg = 0;
  for (let rank = 1; rank <= Math.min(k, ranks.length); rank++) idcg += gain(rank);
  return { recall: hits / ranks.length, reciprocalRank: 1 / first, ndcg: dcg / idcg };
}

/** The quality of a trial's recorded ranking (null without one): its relevant set is its acceptable ordinary tools among the ranked candidates (the ranks its record keeps). */
export function qualityOfTrial(t: TrialRecord): TrialQuality | null {
  return t.retrieval === null
    ? null
    : scoreRanks(t.retrieval.acceptable, t.retrieval_k ?? t.retrieval.candidates);
}

/**
 * A case's ranking quality as its trials come, summed in trial order whatever order they come in
 * (so the last digits never depend on it): a trial that comes before the one the sums take next
 * waits. A run's trials come nearly in order, so few wait and the sums hold nothing per trial.
 */
export interface QualityTally {
  n: number;
  recall: number;
  rr: number;
  ndcg: number;
  /** The trial the sums take next. */
  next: number;
  waiting: { trial: number; quality: TrialQuality | null }[];
  /** A conversation's turn keeps every trial's quality: its conversation's sums run turn by turn, trial by trial. */
  kept: { trial: number; quality: TrialQuality }[] | null;
}

export function newQualityTally(keepAll: boolean): QualityTally {
  return { n: 0, recall: 0, rr: 0, ndcg: 0, next: 0, waiting: [], kept: keepAll ? [] : null };
}

/** Counts a trial's quality (null: no ranking, or no acceptable tool ranked; it still moves the sums on). */
export function addQuality(tally: QualityTally, trial: number, quality: TrialQuality | null): void {
  if (quality !== null) tally.kept?.push({ trial, quality });
  if (trial !== tally.next) {
    tally.waiting.push({ trial, quality });
    return;
  }
  fold(tally, quality);
  for (
    let due = tally.waiting.findIndex((w) => w.trial === tally.next);
    due !== -1;
    due = tally.waiting.findIndex((w) => w.trial === tally.next)
  ) {
    fold(tally, tally.waiting[due].quality);
    tally.waiting.splice(due, 1);
  }
}

function fold(
  sums: Pick<QualityTally, "n" | "recall" | "rr" | "ndcg" | "next">,
  quality: TrialQuality | null,
): void {
  sums.next += 1;
  if (quality === null) return;
  sums.n += 1;
  sums.recall += quality.recall;
  sums.rr += quality.reciprocalRank;
  sums.ndcg += quality.ndcg;
}

const byTrial = (a: { trial: number }, b: { trial: number }) => a.trial - b.trial;

/** A case's sums with its waiting trials taken too (those a shard or an errored trial kept waiting). */
function finalSums(tally: QualityTally): Pick<QualityTally, "n" | "recall" | "rr" | "ndcg"> {
  if (tally.waiting.length === 0) return tally;
  const sums = { ...tally };
  for (const { quality } of [...tally.waiting].sort(byTrial)) fold(sums, quality);
  return sums;
}

/**
 * Over scored trials whose retriever recorded a ranking, each a mean of per-trial scores with a
 * case-clustered interval (a case's trials rank the same goal; they are not independent draws).
 * A cluster of several cases (a conversation's turns) sums case by case, each in trial order.
 */
export function computeRetrievalQuality(
  clusters: readonly Cluster<{ quality: QualityTally }>[],
): RetrievalQuality {
  const sums = clusters.map((cluster) => {
    const cases = membersOf(cluster);
    if (cases.length === 1) return finalSums(cases[0].quality);
    const sum = { n: 0, recall: 0, rr: 0, ndcg: 0, next: 0 };
    for (const { quality } of cases)
      for (const entry of [...(quality.kept ?? [])].sort(byTrial)) fold(sum, entry.quality);
    return sum;
  });
  const of = (pick: (t: (typeof sums)[number]) => number) => clusterRateOf(sums, (t) => t.n, pick);
  return { recall_at_k: of((t) => t.recall), mrr: of((t) => t.rr), ndcg_at_k: of((t) => t.ndcg) };
}

/** Mean input tokens: the endpoint's count when it reported one, else route-eval's estimate (whole counts: their sums are exact in any order). */
export function computeInputTokens(
  cases: readonly { tokens: { total: number; reported: number; estimated: number } }[],
): InputTokens {
  let total = 0;
  let reported = 0;
  let estimated = 0;
  for (const { tokens } of cases) {
    total += tokens.total;
    reported += tokens.reported;
    estimated += tokens.estimated;
  }
  const counted = reported + estimated;
  return { mean: counted === 0 ? null : total / counted, reported, estimated };
}
