import { tokenize } from "../text/tokenize.js";

/** A document to index: an id and weighted fields of text. */
export interface Bm25Doc {
  id: string;
  fields: { text: string; weight: number }[];
}

export interface Bm25Index {
  ids: string[];
  /** term → postings of [doc index, weighted term frequency]. */
  postings: Map<string, [number, number][]>;
  lengths: Float64Array;
  avgLength: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 with per-field weights (a simplified BM25F): each field's term counts are multiplied by its
 * weight before the usual saturation and length normalisation.
 */
export function buildBm25Index(docs: Bm25Doc[]): Bm25Index {
  const postings = new Map<string, [number, number][]>();
  const lengths = new Float64Array(docs.length);
  docs.forEach((doc, index) => {
    const tf = new Map<string, number>();
    for (const field of doc.fields) {
      for (const term of tokenize(field.text)) {
        tf.set(term, (tf.get(term) ?? 0) + field.weight);
        lengths[index] += field.weight;
      }
    }
    for (const [term, count] of tf) {
      let list = postings.get(term);
      if (list === undefined) postings.set(term, (list = []));
      list.push([index, count]);
    }
  });
  const total = lengths.reduce((sum, n) => sum + n, 0);
  return { ids: docs.map((d) => d.id), postings, lengths, avgLength: docs.length > 0 ? total / docs.length : 0 };
}

/** Scores of every document that shares a term with the query, restricted to `allowed` when given. */
export function scoreBm25(index: Bm25Index, query: string, allowed: ReadonlySet<string> | null): Map<string, number> {
  const n = index.ids.length;
  const scores = new Map<string, number>();
  for (const term of new Set(tokenize(query))) {
    const list = index.postings.get(term);
    if (list === undefined) continue;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const [doc, tf] of list) {
      const id = index.ids[doc];
      if (allowed !== null && !allowed.has(id)) continue;
      const norm = tf + K1 * (1 - B + (B * index.lengths[doc]) / (index.avgLength || 1));
      scores.set(id, (scores.get(id) ?? 0) + (idf * tf * (K1 + 1)) / norm);
    }
  }
  return scores;
}

/** The k best candidates by score, ties (and unscored candidates) broken by id for determinism. */
export function topK(scores: Map<string, number>, candidates: string[], k: number): string[] {
  const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const scored = candidates.filter((id) => (scores.get(id) ?? 0) > 0);
  scored.sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || byId(a, b));
  if (scored.length >= k) return scored.slice(0, k);
  const unscored = candidates.filter((id) => (scores.get(id) ?? 0) <= 0).sort(byId);
  return [...scored, ...unscored.slice(0, k - scored.length)];
}
