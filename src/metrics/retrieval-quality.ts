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

/** A case's rankings, as metrics/case-tally.ts keeps them: (index in the records, recall, reciprocal rank, nDCG) per trial. */
interface Ranked {
  quality: readonly number[];
}

/**
 * Over scored trials whose retriever recorded a ranking, each a mean of per-trial scores with a
 * case-clustered interval (a case's trials rank the same goal; they are not independent draws).
 * Each cluster's sums run over its trials in record order, so the last digits never depend on how
 * its trials are split among cases (a conversation's turns).
 */
export function computeRetrievalQuality(clusters: readonly (readonly Ranked[])[]): RetrievalQuality {
  const sums = clusters.map((cases) => {
    const quality = cases.length === 1 ? cases[0].quality : inRecordOrder(cases);
    const tally = { n: 0, recall: 0, rr: 0, ndcg: 0 };
    for (let i = 0; i < quality.length; i += 4) {
      tally.n += 1;
      tally.recall += quality[i + 1];
      tally.rr += quality[i + 2];
      tally.ndcg += quality[i + 3];
    }
    return tally;
  });
  const of = (pick: (t: (typeof sums)[number]) => number) => clusterRate(sums.map((t) => ({ n: t.n, s: pick(t) })));
  return { recall_at_k: of((t) => t.recall), mrr: of((t) => t.rr), ndcg_at_k: of((t) => t.ndcg) };
}

/** The quality entries of several cases, by their index in the records. */
function inRecordOrder(cases: readonly Ranked[]): number[] {
  const entries: number[][] = [];
  for (const { quality } of cases) for (let i = 0; i < quality.length; i += 4) entries.push(quality.slice(i, i + 4));
  return entries.sort((a, b) => a[0] - b[0]).flat();
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
