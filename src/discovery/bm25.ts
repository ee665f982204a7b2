import { tokenize } from "../text/tokenize.js";
import { ScoreTable } from "./score-table.js";

/** A document to index: an id and weighted fields of text. */
export interface Bm25Doc {
  id: string;
  fields: { text: string; weight: number }[];
}

/** One term's postings: the documents holding it and each one's BM25 term weight, idf aside. */
interface Postings {
  docs: Int32Array;
  weights: Float64Array;
  idf: number;
}

export interface Bm25Index {
  ids: string[];
  /** id → index into ids. */
  position: Map<string, number>;
  postings: Map<string, Postings>;
}

const K1 = 1.2;
const B = 0.75;

/**
 * BM25 with per-field weights (a simplified BM25F): each field's term counts are multiplied by its
 * weight before the usual saturation and length normalisation. The saturation tf·(k1+1)/(tf+K) is
 * computed here, once per posting, so that a query is one multiply-add per posting.
 */
export function buildBm25Index(docs: Bm25Doc[]): Bm25Index {
  const raw = new Map<string, number[]>();
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
      let list = raw.get(term);
      if (list === undefined) raw.set(term, (list = []));
      list.push(index, count);
    }
  });
  const n = docs.length;
  const avgLength = n > 0 ? lengths.reduce((sum, x) => sum + x, 0) / n || 1 : 1;
  const postings = new Map<string, Postings>();
  for (const [term, list] of raw) {
    const df = list.length / 2;
    const entry: Postings = {
      docs: new Int32Array(df),
      weights: new Float64Array(df),
      idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)),
    };
    for (let i = 0; i < df; i++) {
      const doc = list[2 * i];
      const tf = list[2 * i + 1];
      entry.docs[i] = doc;
      entry.weights[i] = (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]) / avgLength));
    }
    postings.set(term, entry);
  }
  const ids = docs.map((d) => d.id);
  return { ids, position: new Map(ids.map((id, i) => [id, i])), postings };
}

/** Scores of every document that shares a term with the query, restricted to `allowed` when given. */
export function scoreBm25(
  index: Bm25Index,
  query: string,
  allowed: ReadonlySet<string> | null,
): ScoreTable {
  const n = index.ids.length;
  const totals = new Float64Array(n);
  const included = new Uint8Array(n);
  const touched: number[] = [];
  for (const term of new Set(tokenize(query))) {
    const entry = index.postings.get(term);
    if (entry === undefined) continue;
    const { docs, weights, idf } = entry;
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i];
      if (included[doc] === 0) {
        included[doc] = 1;
        touched.push(doc);
      }
      totals[doc] += idf * weights[i];
    }
  }
  if (allowed === null) return new ScoreTable(index.ids, index.position, totals, touched, included);
  const scored: number[] = [];
  for (const doc of touched) {
    if (allowed.has(index.ids[doc])) scored.push(doc);
    else included[doc] = 0;
  }
  return new ScoreTable(index.ids, index.position, totals, scored, included);
}

/** Whether (score a, id a) ranks before (score b, id b): higher score first, then id in code-unit order. */
export function ranksBefore(scoreA: number, idA: string, scoreB: number, idB: string): boolean {
  return scoreA > scoreB || (scoreA === scoreB && idA < idB);
}

/** Keeps the best k (score, id) pairs seen, best first. */
class BestK {
  readonly ids: string[] = [];
  private readonly values: number[] = [];
  constructor(private readonly k: number) {}

  offer(id: string, value: number): void {
    const { ids, values, k } = this;
    if (ids.length === k && !ranksBefore(value, id, values[k - 1], ids[k - 1])) return;
    let lo = 0;
    let hi = ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ranksBefore(value, id, values[mid], ids[mid])) hi = mid;
      else lo = mid + 1;
    }
    ids.splice(lo, 0, id);
    values.splice(lo, 0, value);
    if (ids.length > k) {
      ids.pop();
      values.pop();
    }
  }
}

/**
 * The k best candidates by score, ties broken by id; a candidate without a score counts 0.
 * `scores` holds candidates only (the Retriever contract). Only the positively scored entries are
 * ranked, keeping the best k as they come — O(scored · log k), no sort of the whole registry; the
 * other candidates are ordered only when fewer than k scored positively.
 */
export function topK(
  scores: ReadonlyMap<string, number>,
  candidates: readonly string[],
  k: number,
): string[] {
  if (k <= 0) return [];
  const best = new BestK(k);
  const offer = (id: string, value: number) => {
    if (value > 0) best.offer(id, value);
  };
  if (scores instanceof ScoreTable) scores.visit(offer);
  else for (const [id, value] of scores) offer(id, value);
  if (best.ids.length === k) return best.ids;
  const score = (id: string) => scores.get(id) ?? 0;
  const rest = candidates.filter((id) => !(score(id) > 0));
  rest.sort((a, b) =>
    ranksBefore(score(a), a, score(b), b) ? -1 : ranksBefore(score(b), b, score(a), a) ? 1 : 0,
  );
  return [...best.ids, ...rest.slice(0, k - best.ids.length)];
}
