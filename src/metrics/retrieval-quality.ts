/**
 * How well the retriever ranked the acceptable set, beyond "was one of them in the top k":
 * recall@k, MRR and nDCG@k over the trials whose retriever recorded scores. Pure.
 */
import type { InputTokens, RetrievalQuality, TrialRecord } from "../types.js";
import { clusterRate } from "./wilson.js";


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
  return t.retrieval === null ? null : scoreRanks(t.retrieval.acceptable, t.retrieval_k ?? t.retrieval.candidates);
}

/** A case's rankings, as metrics/case-tally.ts counts them: (trial, recall, reciprocal rank, nDCG) per trial. */
interface Ranked {
  quality: readonly number[];
}

/**
 * Over scored trials whose retriever recorded a ranking, each a mean of per-trial scores with a
 * case-clustered interval (a case's trials rank the same goal; they are not independent draws).
 * A cluster's sums run case by case, each case's trials in trial order, so the last digits never
 * depend on the order the records came in.
 */
export function computeRetrievalQuality(clusters: readonly (readonly Ranked[])[]): RetrievalQuality {
  const sums = clusters.map((cases) => {
    const tally = { n: 0, recall: 0, rr: 0, ndcg: 0 };
    for (const { quality } of cases) {
      for (const i of trialOrder(quality)) {
        tally.n += 1;
        tally.recall += quality[i + 1];
        tally.rr += quality[i + 2];
        tally.ndcg += quality[i + 3];
      }
    }
    return tally;
  });
  const of = (pick: (t: (typeof sums)[number]) => number) => clusterRate(sums.map((t) => ({ n: t.n, s: pick(t) })));
  return { recall_at_k: of((t) => t.recall), mrr: of((t) => t.rr), ndcg_at_k: of((t) => t.ndcg) };
}

/** The offsets of a case's entries by trial (a stable sort: already in order, as a run's case mostly is, it is left so). */
function trialOrder(quality: readonly number[]): number[] {
  const offsets = Array.from({ length: quality.length / 4 }, (_, j) => 4 * j);
  let sorted = true;
  for (let j = 4; j < quality.length && sorted; j += 4) sorted = quality[j - 4] <= quality[j];
  return sorted ? offsets : offsets.sort((a, b) => quality[a] - quality[b]);
}

/** Mean input tokens: the endpoint's count when it reported one, else route-eval's estimate (whole counts: their sums are exact in any order). */
export function computeInputTokens(cases: readonly { tokens: { total: number; reported: number; estimated: number } }[]): InputTokens {
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
