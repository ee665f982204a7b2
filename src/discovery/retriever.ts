import type { Tool } from "../types.js";
import { buildBm25Index, scoreBm25 } from "./bm25.js";

/** A retriever ranks a registry's ordinary tools for a goal. Built once per registry. */
export interface Retriever {
  /** Scores of the candidate tools for the goal (higher is better; absent = 0). Keys are candidates only. */
  score(goal: string, candidates: string[]): Promise<ReadonlyMap<string, number>>;
}

/** bm25 field weights: the name and purpose say what a tool is; avoid_when is never positive evidence. */
export const BM25_FIELD_WEIGHTS = { name: 3, purpose: 2, use_when: 1 } as const;

/** bm25 over name (×3), purpose (×2) and use_when (×1); avoid_when is never positive evidence. */
export function createBm25Retriever(tools: Tool[]): Retriever {
  const index = buildBm25Index(
    tools.map((tool) => ({
      id: tool.name,
      fields: [
        { text: tool.name, weight: BM25_FIELD_WEIGHTS.name },
        { text: tool.purpose, weight: BM25_FIELD_WEIGHTS.purpose },
        { text: tool.use_when.join(" "), weight: BM25_FIELD_WEIGHTS.use_when },
      ],
    })),
  );
  // Candidates are distinct registry tools, so as many candidates as tools means all of them;
  // the trials of a phase pass one candidates array, whose set is built once.
  const sets = new WeakMap<string[], ReadonlySet<string>>();
  const allowed = (candidates: string[]) => {
    if (candidates.length >= tools.length) return null;
    let set = sets.get(candidates);
    if (set === undefined) sets.set(candidates, (set = new Set(candidates)));
    return set;
  };
  return { score: async (goal, candidates) => scoreBm25(index, goal, allowed(candidates)) };
}
