import type { Tool } from "../types.js";
import type { EmbedTexts } from "./embedding-client.js";
import type { Retriever } from "./retriever.js";

/**
 * What is embedded for a tool: its name, purpose and use_when — as for bm25, avoid_when is left
 * out, since words a tool warns against are not evidence for it.
 */
export function embeddingText(tool: Tool): string {
  const useWhen = tool.use_when.length > 0 ? `\nUse when: ${tool.use_when.join("; ")}` : "";
  return `${tool.name}: ${tool.purpose}${useWhen}`;
}

/** Cosine similarity; 0 when either vector is all zeros or their lengths differ. */
export function cosine(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Cosine top-k over embeddings: the registry's tool texts are embedded once (on the first goal),
 * each goal once; the score of a candidate is the cosine of its vector with the goal's.
 */
export function createEmbeddingsRetriever(tools: Tool[], embed: EmbedTexts): Retriever {
  let toolVectors: Promise<Map<string, number[]>> | null = null;
  const loadToolVectors = async (): Promise<Map<string, number[]>> => {
    const vectors = await embed(tools.map(embeddingText));
    return new Map(tools.map((tool, i) => [tool.name, vectors[i]]));
  };
  return {
    score: async (goal, candidates) => {
      toolVectors ??= loadToolVectors();
      const [vectors, [query]] = await Promise.all([toolVectors, embed([goal])]);
      const scores = new Map<string, number>();
      for (const name of candidates) {
        const vector = vectors.get(name);
        if (vector !== undefined) scores.set(name, cosine(query, vector));
      }
      return scores;
    },
  };
}
