import { CONTROL_NAMES, type DiscoveryConfig, type Discovery, type Tool } from "../types.js";
import { buildBm25Index, scoreBm25, topK, type Bm25Index } from "./bm25.js";

/** bm25 field weights: the name and purpose say what a tool is; avoid_when is never positive evidence. */
export const BM25_FIELD_WEIGHTS = { name: 3, purpose: 2, use_when: 1 } as const;

export function indexTools(tools: Tool[]): Bm25Index {
  return buildBm25Index(
    tools.map((tool) => ({
      id: tool.name,
      fields: [
        { text: tool.name, weight: BM25_FIELD_WEIGHTS.name },
        { text: tool.purpose, weight: BM25_FIELD_WEIGHTS.purpose },
        { text: tool.use_when.join(" "), weight: BM25_FIELD_WEIGHTS.use_when },
      ],
    })),
  );
}

const CONTROLS: ReadonlySet<string> = new Set(CONTROL_NAMES);

/**
 * The visible set: ordinary exposed tools kept by the retriever (all of them with retriever
 * `none`), in rank order, then the exposed controls. Controls never consume the budget k.
 */
export function discover(exposed: string[], goal: string, discovery: DiscoveryConfig, index: Bm25Index | null): Discovery {
  const controls = exposed.filter((name) => CONTROLS.has(name));
  const ordinary = exposed.filter((name) => !CONTROLS.has(name));
  if (discovery.retriever === "none" || index === null) {
    return { visible: [...ordinary, ...controls], retrieved: ordinary, k: null, scores: null };
  }
  const k = discovery.k ?? ordinary.length;
  const scores = scoreBm25(index, goal, new Set(ordinary));
  const retrieved = topK(scores, ordinary, k);
  const rounded = Object.fromEntries(ordinary.map((name) => [name, round(scores.get(name) ?? 0)]));
  return { visible: [...retrieved, ...controls], retrieved, k, scores: rounded };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
