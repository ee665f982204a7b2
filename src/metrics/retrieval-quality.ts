/**
 * How well the retriever ranked the acceptable set, beyond "was one of them in the top k":
 * recall@k, MRR and nDCG@k over the trials whose retriever recorded scores. Pure.
 */
import { type InputTokens, type RetrievalQuality, type TrialRecord, isControl } from "../types.js";
import { compareText } from "../text/compare-text.js";
import { rate } from "./wilson.js";


/**
 * The retriever's own ranking of a trial's ordinary exposed tools: by recorded score descending,
 * ties by name — the order topK keeps them in — never the order they were shown in (which
 * --shuffle-tools permutes). Null when the retriever recorded no scores (no retriever, or a
 * sweep's fixed set).
 */
export function rankRetrieved(record: TrialRecord): string[] | null {
  const scores = record.retrieval_scores;
  if (scores === null) return null;
  return Object.keys(scores)
    .filter((name) => !isControl(name))
    .sort((a, b) => scores[b] - scores[a] || compareText(a, b));
}

interface TrialQuality {
  recall: number;
  reciprocalRank: number;
  ndcg: number;
}

/** Binary-relevance quality of one ranking; null when no relevant tool was a candidate. */
export function scoreRanking(ranking: string[], relevant: ReadonlySet<string>, k: number): TrialQuality | null {
  const present = ranking.filter((name) => relevant.has(name)).length;
  if (present === 0) return null;
  const gain = (position: number): number => 1 / Math.log2(position + 2);
  let hits = 0;
  let dcg = 0;
  for (let i = 0; i < Math.min(k, ranking.length); i++) {
    if (!relevant.has(ranking[i])) continue;
    hits += 1;
    dcg += gain(i);
  }
  let idcg = 0;
  for (let i = 0; i < Math.min(k, present); i++) idcg += gain(i);
  const first = ranking.findIndex((name) => relevant.has(name));
  return { recall: hits / present, reciprocalRank: 1 / (first + 1), ndcg: dcg / idcg };
}

/** Over scored trials: each trial's relevant set is its acceptable ordinary tools among the ranked candidates. */
export function computeRetrievalQuality(scored: TrialRecord[]): RetrievalQuality {
  const qualities: TrialQuality[] = [];
  for (const record of scored) {
    const ranking = rankRetrieved(record);
    if (ranking === null) continue;
    const k = record.retrieval_k ?? ranking.length;
    const quality = scoreRanking(ranking, new Set(record.acceptable.filter((name) => !isControl(name))), k);
    if (quality !== null) qualities.push(quality);
  }
  const mean = (pick: (q: TrialQuality) => number) => rate(qualities.reduce((sum, q) => sum + pick(q), 0), qualities.length);
  return { recall_at_k: mean((q) => q.recall), mrr: mean((q) => q.reciprocalRank), ndcg_at_k: mean((q) => q.ndcg) };
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
