/**
 * Sparse TF-IDF vectors and the pairs whose cosine reaches a threshold. An inverted index over
 * distinctive terms, with a bound on what the frequent ones can add, means only documents that
 * could reach the threshold are ever scored in full.
 */
import { tokenize } from "./tokenize.js";

/** term → weight, L2-normalised (empty for a document without terms). */
export type SparseVector = Map<string, number>;

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
  for (const terms of counts)
    for (const term of terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
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

/** The pairs of a set of vectors whose cosine reaches a threshold, found one document at a time. */
export interface SimilarityIndex {
  /** Calls `visit(b, cosine)` for every later document b (b > a) whose cosine with a reaches the threshold. */
  later(a: number, visit: (b: number, cosine: number) => void): void;
  /** cosine(vectors[a], vectors[b]) to the last bit, from the flat arrays. */
  cosine(a: number, b: number): number;
}

/**
 * The pairs whose cosine reaches `threshold`, exactly. Each document's partial dot products with
 * the later documents are accumulated through an inverted index (flat typed arrays, no object per
 * entry), over its distinctive terms only. The most frequent terms — "light", in more than `cut`
 * documents — are left out: what they can add to a pair's cosine is at most the product of the
 * two documents' light lengths (Cauchy–Schwarz), so a pair is checked exactly only when its
 * distinctive overlap plus that bound reaches the threshold. Pairs that share no distinctive term
 * can only reach it through light terms when both light lengths are large; those documents alone
 * are also indexed by their light terms. The cut is chosen by the work it costs.
 */
export function indexSimilarity(vectors: SparseVector[], threshold: number): SimilarityIndex {
  const n = vectors.length;
  const ids = new Map<string, number>();
  const df: number[] = [];
  for (const vector of vectors) {
    for (const term of vector.keys()) {
      let id = ids.get(term);
      if (id === undefined) ids.set(term, (id = df.push(0) - 1));
      df[id] += 1;
    }
  }
  // Documents as flat arrays of (term id, weight), document d at [docStart[d], docStart[d + 1]).
  const docStart = new Int32Array(n + 1);
  vectors.forEach((vector, d) => (docStart[d + 1] = docStart[d] + vector.size));
  const docTerm = new Int32Array(docStart[n]);
  const docWeight = new Float64Array(docStart[n]);
  vectors.forEach((vector, d) => {
    let at = docStart[d];
    for (const [term, weight] of vector) {
      docTerm[at] = ids.get(term) ?? 0;
      docWeight[at++] = weight;
    }
  });
  /** Reach: a pair is checked when its overlap is within rounding of the threshold. */
  const reach = threshold - 1e-9;
  const { cut, lightLength, indexLight } = chooseCut(df, docStart, docTerm, docWeight, reach);
  // Postings: per term, the documents that index it, ascending, and their weights; each
  // document's place in each of its terms' lists (-1: not indexed there).
  const postStart = new Int32Array(df.length + 1);
  const indexed = (d: number, term: number) => df[term] <= cut || indexLight[d] === 1;
  for (let d = 0; d < n; d++)
    for (let at = docStart[d]; at < docStart[d + 1]; at++)
      if (indexed(d, docTerm[at])) postStart[docTerm[at] + 1] += 1;
  for (let term = 0; term < df.length; term++) postStart[term + 1] += postStart[term];
  const fill = postStart.slice(0, df.length);
  const postDoc = new Int32Array(postStart[df.length]);
  const postWeight = new Float64Array(postStart[df.length]);
  const docPlace = new Int32Array(docStart[n]).fill(-1);
  for (let d = 0; d < n; d++) {
    for (let at = docStart[d]; at < docStart[d + 1]; at++) {
      const term = docTerm[at];
      if (!indexed(d, term)) continue;
      const place = fill[term]++;
      postDoc[place] = d;
      postWeight[place] = docWeight[at];
      docPlace[at] = place;
    }
  }
  const sums = new Float64Array(n);
  const row = new Int32Array(n).fill(-1);
  const touched = new Int32Array(n);
  // Exact cosines with the flat arrays: two dense scratch rows, summed as cosine() sums (over the
  // smaller vector, in its order), so each value is cosine()'s to the last bit.
  const rowWeights = new Float64Array(df.length);
  const columnWeights = new Float64Array(df.length);
  const scatter = (d: number, into: Float64Array, clear: boolean) => {
    for (let at = docStart[d]; at < docStart[d + 1]; at++)
      into[docTerm[at]] = clear ? 0 : docWeight[at];
  };
  let scattered = -1;
  const exactCosine = (a: number, b: number): number => {
    if (scattered !== a) {
      if (scattered !== -1) scatter(scattered, rowWeights, true);
      scatter(a, rowWeights, false);
      scattered = a;
    }
    const [small, large] = vectors[a].size <= vectors[b].size ? [a, b] : [b, a];
    const lookup = large === a ? rowWeights : columnWeights;
    if (large === b) scatter(b, columnWeights, false);
    let value = 0;
    for (let at = docStart[small]; at < docStart[small + 1]; at++)
      value += docWeight[at] * lookup[docTerm[at]];
    if (large === b) scatter(b, columnWeights, true);
    return value;
  };
  /** Walk `a`'s postings of one kind of term, light or not, over the later documents; returns how many it touched. */
  const walk = (a: number, light: boolean): number => {
    // A row stamps the columns it touches: 2a for distinctive terms, 2a + 1 for light ones.
    const stamp = 2 * a + (light ? 1 : 0);
    let count = 0;
    for (let at = docStart[a]; at < docStart[a + 1]; at++) {
      const term = docTerm[at];
      if (docPlace[at] === -1 || df[term] > cut !== light) continue;
      const weight = docWeight[at];
      for (let place = docPlace[at] + 1, end = postStart[term + 1]; place < end; place++) {
        const b = postDoc[place];
        if (row[b] !== stamp) {
          if (row[b] === 2 * a) continue; // a distinctive term reached it: checked already
          row[b] = stamp;
          sums[b] = 0;
          touched[count++] = b;
        }
        sums[b] += weight * postWeight[place];
      }
    }
    return count;
  };
  return {
    cosine: exactCosine,
    later(a, visit) {
      const check = (b: number) => {
        const value = exactCosine(a, b);
        if (value >= threshold) visit(b, value);
      };
      const count = walk(a, false);
      for (let k = 0; k < count; k++) {
        const b = touched[k];
        if (sums[b] + lightLength[a] * lightLength[b] >= reach) check(b);
      }
      // A pair no distinctive term joins overlaps only in light terms: exactly their light dot product.
      if (indexLight[a] === 0) return;
      const light = walk(a, true);
      for (let k = 0; k < light; k++) if (sums[touched[k]] >= reach) check(touched[k]);
    },
  };
}
interface Cut {
  /** Terms in more documents than this are light. */
  cut: number;
  /** Per document, the length of its light part. */
  lightLength: Float64Array;
  /** Per document, 1 when its light terms are indexed: its light length could reach the threshold with another's. */
  indexLight: Uint8Array;
}

/**
 * The cut (Infinity: no term is light, every term walks) whose postings walk is shortest: a
 * distinctive term costs its df² / 2 visits, a light one the square of the documents that index it.
 */
function chooseCut(
  df: number[],
  docStart: Int32Array,
  docTerm: Int32Array,
  docWeight: Float64Array,
  reach: number,
): Cut {
  const n = docStart.length - 1;
  let best: Cut & { work: number } = {
    cut: Infinity,
    lightLength: new Float64Array(n),
    indexLight: new Uint8Array(n),
    work: df.reduce((sum, d) => sum + (d * d) / 2, 0),
  };
  for (let cut = Math.floor(n / 2); cut >= 2 && cut >= n / 64; cut = Math.floor(cut / 2)) {
    const lightLength = new Float64Array(n);
    for (let d = 0; d < n; d++) {
      let squares = 0;
      for (let at = docStart[d]; at < docStart[d + 1]; at++)
        if (df[docTerm[at]] > cut) squares += docWeight[at] * docWeight[at];
      lightLength[d] = Math.sqrt(squares);
    }
    const longest = lightLength.reduce((max, length) => Math.max(max, length), 0);
    const indexLight = Uint8Array.from(lightLength, (length) =>
      length * longest >= reach ? 1 : 0,
    );
    const lightDf = new Float64Array(df.length);
    for (let d = 0; d < n; d++)
      if (indexLight[d] === 1)
        for (let at = docStart[d]; at < docStart[d + 1]; at++)
          if (df[docTerm[at]] > cut) lightDf[docTerm[at]] += 1;
    const work = df.reduce(
      (sum, d, term) => sum + (d > cut ? lightDf[term] * lightDf[term] : d * d) / 2,
      0,
    );
    if (work < best.work) best = { cut, lightLength, indexLight, work };
  }
  return best;
}

function countTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
