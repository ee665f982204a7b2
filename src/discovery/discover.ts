import { type DiscoveryConfig, type Discovery, type RankedName, type RetrievalSummary, RUNNERS_UP, isControl } from "../types.js";
import { ranksBefore, topK } from "./bm25.js";
import type { Retriever } from "./retriever.js";


/**
 * The visible set: ordinary exposed tools kept by the retriever (all of them with retriever
 * `none`), in rank order, then the exposed controls. Controls never consume the budget k.
 * `acceptable` are the case's acceptable tools, whose ranks the record keeps.
 */
export async function discover(exposed: string[], goal: string, acceptable: readonly string[], discovery: DiscoveryConfig, retriever: Retriever | null): Promise<Discovery> {
  const controls = exposed.filter((name) => isControl(name));
  const ordinary = exposed.filter((name) => !isControl(name));
  if (discovery.retriever === "none" || retriever === null) {
    return { visible: [...ordinary, ...controls], retrieved: ordinary, k: null, retrieval: null };
  }
  const k = discovery.k ?? ordinary.length;
  const scores = await retriever.score(goal, ordinary);
  const top = topK(scores, ordinary, k + RUNNERS_UP);
  const retrieved = top.slice(0, k);
  return { visible: [...retrieved, ...controls], retrieved, k, retrieval: summarise(scores, ordinary, top, acceptable) };
}

/**
 * The record's view of the ranking. An acceptable tool below the kept top is ranked by counting
 * the candidates that rank before it (the order topK keeps: score, then id) — O(candidates) per
 * acceptable tool, never a sort of the whole registry.
 */
function summarise(scores: ReadonlyMap<string, number>, ordinary: string[], top: string[], acceptable: readonly string[]): RetrievalSummary {
  const score = (name: string) => scores.get(name) ?? 0;
  const place = (name: string, rank: number): RankedName => ({ name, rank, score: round(score(name)) });
  const exposed = new Set(ordinary);
  const ranked = acceptable
    .filter((name) => exposed.has(name))
    .map((name) => {
      const index = top.indexOf(name);
      if (index !== -1) return place(name, index + 1);
      const s = score(name);
      let before = 0;
      for (const other of ordinary) if (ranksBefore(score(other), other, s, name)) before += 1;
      return place(name, before + 1);
    })
    .sort((a, b) => a.rank - b.rank);
  return { candidates: ordinary.length, top: top.map((name, index) => place(name, index + 1)), acceptable: ranked };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
