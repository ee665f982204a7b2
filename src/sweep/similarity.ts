import { renderDescription } from "../registry/render-definition.js";
import { tokenize } from "../text/tokenize.js";
import type { Tool } from "../types.js";

type Vector = Map<string, number>;

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

/**
 * Term vectors weighted by log-scaled term frequency × idf = ln(1 + N / df), L2-normalised, so
 * that words every tool shares ("the user", "order") weigh little and distinctive ones a lot.
 */
export function buildSimilarity(tools: Tool[]): Similarity {
  const counts = tools.map((tool) => countTerms(similarityText(tool)));
  const df = new Map<string, number>();
  for (const terms of counts) for (const term of terms.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const idf = (term: string) => Math.log(1 + tools.length / (df.get(term) ?? 1));
  const vectorOf = (terms: Map<string, number>): Vector => normalise(new Map([...terms].map(([t, n]) => [t, (1 + Math.log(n)) * idf(t)])));
  const vectors = new Map(tools.map((tool, i) => [tool.name, vectorOf(counts[i])]));
  return {
    between: (a, b) => dot(vectors.get(a), vectors.get(b)),
    toText: (name, text) => dot(vectors.get(name), vectorOf(countTerms(text))),
  };
}

function countTerms(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of tokenize(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function normalise(vector: Vector): Vector {
  const norm = Math.sqrt([...vector.values()].reduce((sum, x) => sum + x * x, 0));
  return norm === 0 ? vector : new Map([...vector].map(([t, x]) => [t, x / norm]));
}

function dot(a: Vector | undefined, b: Vector | undefined): number {
  if (a === undefined || b === undefined) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let sum = 0;
  for (const [term, x] of small) sum += x * (large.get(term) ?? 0);
  return sum;
}
