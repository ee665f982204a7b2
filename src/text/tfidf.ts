/**
 * Sparse TF-IDF vectors and the pairs whose cosine reaches a threshold. A prefix-filtered inverted
 * index means only documents that share a distinctive term are ever compared.
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

/**
 * Every pair (a < b) whose cosine is at least `threshold`, exactly, without walking every pair
 * that shares a common word. Partial dot products are accumulated over an inverted index of the
 * terms in at most COMMON_DF documents. A common term can add at most (this vector's weight ×
 * the term's largest weight anywhere) to any cosine; when those bounds sum below the threshold's
 * reach, a pair that shares no rare term cannot make it, and one that does gets its full cosine
 * only when its rare part plus the bound can reach the threshold. A vector whose common terms
 * alone could reach it is compared through every term, as before.
 */
export function findSimilarPairs(vectors: SparseVector[], threshold: number): SimilarPair[] {
  const df = new Map<string, number>();
  const maxWeight = new Map<string, number>();
  for (const vector of vectors) {
    for (const [term, weight] of vector) {
      df.set(term, (df.get(term) ?? 0) + 1);
      maxWeight.set(term, Math.max(maxWeight.get(term) ?? 0, weight));
    }
  }
  const common = (term: string) => (df.get(term) ?? 0) > COMMON_DF;
  // Postings as two flat arrays per term (documents ascending, and their weights): no object per entry.
  const postings = new Map<string, { docs: number[]; weights: number[] }>();
  vectors.forEach((vector, doc) => {
    for (const [term, weight] of vector) {
      let list = postings.get(term);
      if (list === undefined) postings.set(term, (list = { docs: [], weights: [] }));
      list.docs.push(doc);
      list.weights.push(weight);
    }
  });
  const sums = new Float64Array(vectors.length);
  /** The document whose row last touched each column, so each row resets only what it used. */
  const row = new Int32Array(vectors.length).fill(-1);
  const pairs: SimilarPair[] = [];
  vectors.forEach((vector, a) => {
    let bound = 0;
    for (const [term, weight] of vector) if (common(term)) bound += weight * (maxWeight.get(term) ?? 0);
    const exhaustive = bound >= threshold;
    const touched: number[] = [];
    for (const [term, weight] of vector) {
      if (!exhaustive && common(term)) continue;
      const list = postings.get(term);
      if (list === undefined) continue;
      const { docs, weights } = list;
      // Postings are in document order: walk back from the end and stop at this document.
      for (let p = docs.length - 1; p >= 0 && docs[p] > a; p--) {
        const b = docs[p];
        if (row[b] !== a) {
          row[b] = a;
          touched.push(b);
        }
        sums[b] += weight * weights[p];
      }
    }
    for (const b of touched) {
      if (exhaustive) {
        if (sums[b] >= threshold) pairs.push({ a, b, cosine: sums[b] });
      } else if (sums[b] + bound >= threshold) {
        const value = cosine(vector, vectors[b]);
        if (value >= threshold) pairs.push({ a, b, cosine: value });
      }
      sums[b] = 0;
    }
  });
  return pairs;
}

/** A term in more documents than this is common: it proposes no candidate on its own (see findSimilarPairs). */
const COMMON_DF = 200;

function countTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
