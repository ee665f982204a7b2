/** Exposure and discovery: part of the records of route-eval (see ../types.ts). */

/** Why a tool is hidden: a phase rule (family, effect, open_world), or a conversation's surface (withheld until a later turn adds it, removed by an earlier turn). */
export type HiddenReason = "family" | "effect" | "open_world" | "withheld" | "removed";

export interface Exposure {
  /** Controls first, then exposed ordinary tools in registry order. */
  exposed: string[];
  /** Ordinary tools the phase hid, with the first rule that hid each. */
  hidden: Record<string, HiddenReason>;
}

export interface Discovery {
  /** Controls ∪ retrieved ordinary tools, in the order shown to the model. */
  visible: string[];
  /** Ordinary tools kept by the retriever (no controls). */
  retrieved: string[];
  /** The budget used, or null when there is no retriever (visible = exposed). */
  k: number | null;
  /** The retriever's ranking, summarised to a size that does not grow with the registry; null without scores. */
  retrieval: RetrievalSummary | null;
}

/** A tool at its place in the retriever's ranking of the ordinary exposed tools (rank 1 = best). */
export interface RankedName {
  name: string;
  rank: number;
  /** Rounded to 4 decimals, as recorded. */
  score: number;
}

/**
 * What a record keeps of the retriever's ranking: the top of it in retriever order (the k kept
 * plus a few just below the cut), and where every acceptable ordinary exposed tool ranked —
 * enough for recall@k, MRR, nDCG@k and `show`, at a size independent of the registry.
 */
export interface RetrievalSummary {
  /** Ordinary exposed tools the retriever ranked. */
  candidates: number;
  /** The first k + RUNNERS_UP of the ranking, best first (ranks 1, 2, …). */
  top: RankedName[];
  /** Every acceptable ordinary exposed tool, best first. */
  acceptable: RankedName[];
}

/** Tools just below the cut that a record keeps, so `show` can say what nearly made it. */
export const RUNNERS_UP = 3;
