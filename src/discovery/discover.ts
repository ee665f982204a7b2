import { type DiscoveryConfig, type Discovery, isControl } from "../types.js";
import { topK } from "./bm25.js";
import type { Retriever } from "./retriever.js";


/**
 * The visible set: ordinary exposed tools kept by the retriever (all of them with retriever
 * `none`), in rank order, then the exposed controls. Controls never consume the budget k.
 */
export async function discover(exposed: string[], goal: string, discovery: DiscoveryConfig, retriever: Retriever | null): Promise<Discovery> {
  const controls = exposed.filter((name) => isControl(name));
  const ordinary = exposed.filter((name) => !isControl(name));
  if (discovery.retriever === "none" || retriever === null) {
    return { visible: [...ordinary, ...controls], retrieved: ordinary, k: null, scores: null };
  }
  const k = discovery.k ?? ordinary.length;
  const scores = await retriever.score(goal, ordinary);
  const retrieved = topK(scores, ordinary, k);
  const rounded: Record<string, number> = {};
  for (const name of ordinary) rounded[name] = round(scores.get(name) ?? 0);
  return { visible: [...retrieved, ...controls], retrieved, k, scores: rounded };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
