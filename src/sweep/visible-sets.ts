/**
 * The visible sets of a size sweep. For each case, its ordinary exposed tools are put in one fixed
 * order — the acceptable ones first, then the distractors — and the set at size N is the first N
 * of that order. So the sets are nested (5 ⊂ 10 ⊂ 20 …), deterministic from the seed, and a set
 * smaller than asked means the case had no more exposed tools (capped; its true size is recorded).
 * Controls are added at every size and never counted.
 */
import type { DistractorPolicy } from "../types/sweep.js";
import { type Discovery, isControl } from "../types.js";
import { hashSeed, seededRandom, shuffle } from "../text/seeded-random.js";
import type { Similarity } from "./similarity.js";

export interface CandidateInput {
  caseId: string;
  goal: string;
  acceptable: string[];
  /** The case's exposed names (controls and ordinary tools). */
  exposed: string[];
  /** Ordinary tools that came from a distractor registry: drawn only once the case's own run out. */
  padding: ReadonlySet<string>;
  policy: DistractorPolicy;
  seed: number;
  similarity: Similarity;
}

export interface CandidateOrder {
  /** Ordinary exposed tools in the order sizes take them. */
  take: string[];
  /** Display position of each tool: every size shows its set in this one order, controls last. */
  display: ReadonlyMap<string, number>;
  /** Controls exposed to the case. */
  controls: string[];
}

/**
 * How hard a distractor is for a case: its highest similarity to an acceptable exposed tool, or to
 * the goal when no acceptable ordinary tool is exposed (abstention and coverage cases).
 */
export function measureHardness(
  input: Pick<CandidateInput, "goal" | "acceptable" | "exposed" | "similarity">,
  distractor: string,
): number {
  const references = input.acceptable.filter(
    (name) => !isControl(name) && input.exposed.includes(name),
  );
  if (references.length === 0) return input.similarity.toText(distractor, input.goal);
  return Math.max(
    ...references.map((reference) => input.similarity.between(distractor, reference)),
  );
}

export function orderCandidates(input: CandidateInput): CandidateOrder {
  const ordinary = input.exposed.filter((name) => !isControl(name));
  const acceptable = input.acceptable.filter((name) => ordinary.includes(name));
  const distractors = ordinary.filter((name) => !acceptable.includes(name));
  // Own and padding tools draw from separate streams: adding a distractor registry changes no set
  // that the case's own tools could fill.
  const draw = (names: string[], stream: string) =>
    shuffle(names, seededRandom(hashSeed(input.seed, input.caseId, stream)));
  const own = orderDistractors(
    input,
    draw(
      distractors.filter((name) => !input.padding.has(name)),
      "distractors",
    ),
  );
  const padding = orderDistractors(
    input,
    draw(
      distractors.filter((name) => input.padding.has(name)),
      "padding",
    ),
  );
  const take = [...acceptable, ...own, ...padding];
  const shown = shuffle(take, seededRandom(hashSeed(input.seed, input.caseId, "display")));
  return {
    take,
    display: new Map(shown.map((name, i) => [name, i])),
    controls: input.exposed.filter((name) => isControl(name)),
  };
}

/** `shuffled` is already in seeded random order; `similar` sorts it by hardness (a stable sort keeps the random tie-break). */
function orderDistractors(input: CandidateInput, shuffled: string[]): string[] {
  if (input.policy === "random") return shuffled;
  const hardness = new Map(shuffled.map((name) => [name, measureHardness(input, name)]));
  return [...shuffled].sort((a, b) => (hardness.get(b) ?? 0) - (hardness.get(a) ?? 0));
}

/** The visible set at `size`: the first `size` of the order, shown in display order, then the controls. */
export function visibleAt(order: CandidateOrder, size: number): Discovery {
  const chosen = order.take.slice(0, size);
  chosen.sort((a, b) => (order.display.get(a) ?? 0) - (order.display.get(b) ?? 0));
  return { visible: [...chosen, ...order.controls], retrieved: chosen, k: size, retrieval: null };
}
