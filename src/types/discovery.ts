/** Exposure and discovery: part of the records of route-eval (see ../types.ts). */

export type HiddenReason = "family" | "effect" | "open_world";

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
  /** Retriever score of each ordinary exposed tool, when the retriever scores. */
  scores: Record<string, number> | null;
}
