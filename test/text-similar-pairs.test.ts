import { describe, expect, it } from "vitest";
import { buildTfIdf, cosine, indexSimilarity } from "../src/text/tfidf.js";
import { seededRandom } from "../src/text/seeded-random.js";

/** Texts over a small vocabulary with a long tail: common words everywhere, rare ones in few. */
function texts(n: number, seed: number): string[] {
  const random = seededRandom(seed);
  const common = ["get", "order", "customer", "the", "for", "with", "record", "status"];
  const rare = Array.from({ length: 300 }, (_, i) => `w${i}`);
  return Array.from({ length: n }, () => {
    const words = Array.from(
      { length: 4 + Math.floor(random() * 8) },
      () =>
        (random() < 0.6 ? common : rare)[
          Math.floor(random() * (random() < 0.6 ? common.length : rare.length))
        ],
    );
    return words.join(" ");
  });
}

describe("indexSimilarity", () => {
  it("finds exactly the pairs a comparison of every pair finds, at any threshold", () => {
    for (const seed of [1, 2, 3]) {
      const { vectors } = buildTfIdf(texts(400, seed));
      for (const threshold of [0.2, 0.5, 0.8]) {
        const brute: string[] = [];
        for (let a = 0; a < vectors.length; a++)
          for (let b = a + 1; b < vectors.length; b++)
            if (cosine(vectors[a], vectors[b]) >= threshold) brute.push(`${a}-${b}`);
        const index = indexSimilarity(vectors, threshold);
        const found: string[] = [];
        for (let a = 0; a < vectors.length; a++) {
          index.later(a, (b, value) => {
            found.push(`${a}-${b}`);
            // The cosine it reports is cosine()'s to the last bit, as is the one it computes for any pair.
            expect(value).toBe(cosine(vectors[a], vectors[b]));
            expect(index.cosine(b, a)).toBe(cosine(vectors[b], vectors[a]));
          });
        }
        expect(found.sort()).toEqual(brute.sort());
        expect(brute.length).toBeGreaterThan(0);
      }
    }
  });
});
