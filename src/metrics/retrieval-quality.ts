/**
 * How well the retriever ranked the acceptable set, beyond "was one of them in the top k":
 * recall@k, MRR and nDCG@k over the trials whose retriever recorded scores. Pure.
 */
import type { InputTokens, RetrievalQuality, TrialRecord } from "../types.js";
import { clusterOf, clusterRate } from "./wilson.js";
import { compareText } from "../text/compare-text.js";


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

/**
 * Over scored trials whose retriever recorded a ranking, each a mean of per-trial scores with a
 * case-clustered interval (a case's trials rank the same goal; they are not independent draws);
 * `qualityOf` may be a remembered qualityOfTrial.
 */
export function computeRetrievalQuality(scored: TrialRecord[], qualityOf: (t: TrialRecord, index: number) => TrialQuality | null = qualityOfTrial): RetrievalQuality {
  const byCase = new Map<string, { n: number; recall: number; rr: number; ndcg: number }>();
  for (let i = 0; i < scored.length; i++) {
    const quality = qualityOf(scored[i], i);
    if (quality === null) continue;
    const key = clusterOf(scored[i]);
    const tally = byCase.get(key) ?? { n: 0, recall: 0, rr: 0, ndcg: 0 };
    tally.n += 1;
    tally.recall += quality.recall;
    tally.rr += quality.reciprocalRank;
    tally.ndcg += quality.ndcg;
    byCase.set(key, tally);
  }
  // Summed in case order, so the last digits never depend on the order of the records.
  const cases = [...byCase.entries()].sort(([a], [b]) => compareText(a, b)).map(([, tally]) => tally);
  const of = (pick: (t: (typeof cases)[number]) => number) => clusterRate(cases.map((t) => ({ n: t.n, s: pick(t) })));
  return { recall_at_k: of((t) => t.recall), mrr: of((t) => t.rr), ndcg_at_k: of((t) => t.ndcg) };
}

/** Mean input tokens: the endpoint's count when it reported one, else route-eval's estimate. */
export function computeInputTokens(scored: TrialRecord[]): InputTokens {
  let total = 0;
  let reported = 0;
  let estimated = 0;
  for (const { usage } of scored) {
    if (usage.input_tokens !== null) {
      total += usage.input_tokens;
      reported += 1;
    } else if (typeof usage.input_tokens_estimated === "number") {
      total += usage.input_tokens_estimated;
      estimated += 1;
    }
  }
  const counted = reported + estimated;
  return { mean: counted === 0 ? null : total / counted, reported, estimated };
}
