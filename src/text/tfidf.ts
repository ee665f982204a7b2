/**
 * Sparse TF-IDF vectors and the pairs whose cosine reaches a threshold. An inverted index means
 * only documents that share a term are ever compared, so a 1,000-tool registry stays fast.
 */
import { tokenize } from "./tokenize.js";

/** term → weight, L2-normalised (empty for a document without terms). */
export type SparseVector = Map<string, number>;

export interface SimilarPair {
  a: number;
  b: number;
  cosine: number;
}

export interface TfIdf {
  /** One vector per text, in order. */
  vectors: SparseVector[];
  /** Any other text (a goal) weighted by the same document frequencies. */
  vectorise(text: string): SparseVector;
}

/**
 * tf = 1 + ln(count), idf = ln(1 + N / df), then each vector scaled to unit length, so that words
 * every document shares weigh little and distinctive ones a lot. The one TF-IDF of route-eval:
 * lint's rival measure and the sweep's hardest-first distractors.
 */
export function buildTfIdf(texts: string[]): TfIdf {
  const counts = texts.map(countTerms);
  const df = new Map<string, number>();
  for (const terms of counts) for (const term of terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = texts.length;
  const toVector = (terms: Map<string, number>): SparseVector => {
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [term, count] of terms) {
      const weight = (1 + Math.log(count)) * Math.log(1 + n / (df.get(term) ?? 1));
      vector.set(term, weight);
      norm += weight * weight;
    }
    const length = Math.sqrt(norm);
    for (const [term, weight] of vector) vector.set(term, length > 0 ? weight / length : 0);
    return vector;
  };
  return { vectors: counts.map(toVector), vectorise: (text) => toVector(countTerms(text)) };
}

export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, weight] of small) sum += weight * (large.get(term) ?? 0);
  return sum;
}

/** Every pair (a < b) whose cosine is at least `threshold`. */
export function findSimilarPairs(vectors: SparseVector[], threshold: number): SimilarPair[] {
  const postings = new Map<string, { doc: number; weight: number }[]>();
  vectors.forEach((vector, doc) => {
    for (const [term, weight] of vector) {
      let list = postings.get(term);
      if (list === undefined) postings.set(term, (list = []));
      list.push({ doc, weight });
    }
  });
  const sums = new Float64Array(vectors.length);
  /** The document whose row last touched each column, so each row resets only what it used. */
  const row = new Int32Array(vectors.length).fill(-1);
  const pairs: SimilarPair[] = [];
  vectors.forEach((vector, a) => {
    const touched: number[] = [];
    for (const [term, weight] of vector) {
      const list = postings.get(term) ?? [];
      // Postings are in document order: walk back from the end and stop at this document.
      for (let p = list.length - 1; p >= 0 && list[p].doc > a; p--) {
        const posting = list[p];
        if (row[posting.doc] !== a) {
          row[posting.doc] = a;
          touched.push(posting.doc);
        }
        sums[posting.doc] += weight * posting.weight;
      }
    }
    for (const b of touched) {
      if (sums[b] >= threshold) pairs.push({ a, b, cosine: sums[b] });
      sums[b] = 0;
    }
  });
  return pairs;
}

function countTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
