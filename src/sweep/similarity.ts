import { renderDescription } from "../registry/render-definition.js";
import { buildTfIdf, cosine, type SparseVector } from "../text/tfidf.js";
import type { Tool } from "../types.js";

/** TF-IDF cosine similarity between tools (and a tool and free text), over one registry. */
export interface Similarity {
  /** Cosine of two tools' texts, in [0, 1]; 0 for a name the registry lacks. */
  between(a: string, b: string): number;
  /** Cosine of a tool's text with free text (e.g. a goal). */
  toText(name: string, text: string): number;
}

/** A tool's text as the model reads it: its name and rendered description (purpose, use_when, avoid_when). */
export function similarityText(tool: Tool): string {
  return `${tool.name}\n${renderDescription(tool)}`;
}

/** TF-IDF (text/tfidf.ts) over the registry's tool texts; a goal is weighted by the same idf. */
export function buildSimilarity(tools: Tool[]): Similarity {
  const tfidf = buildTfIdf(tools.map(similarityText));
  const vectors = new Map(tools.map((tool, i) => [tool.name, tfidf.vectors[i]]));
  const dot = (a: SparseVector | undefined, b: SparseVector | undefined) =>
    a === undefined || b === undefined ? 0 : cosine(a, b);
  return {
    between: (a, b) => dot(vectors.get(a), vectors.get(b)),
    toText: (name, text) => dot(vectors.get(name), tfidf.vectorise(text)),
  };
}
