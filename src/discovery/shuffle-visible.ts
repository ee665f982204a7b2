import { deriveSeed, seededRandom, shuffle } from "../text/seeded-random.js";

/**
 * The visible tools in a seeded random order (Fisher–Yates), controls included, so that a tool's
 * position in the list is independent of which tool it is. The same (run seed, case, trial)
 * always gives the same order, so a shuffled run is reproducible and its requests stay cacheable.
 */
export function shuffleVisible(
  visible: string[],
  seed: number,
  caseId: string,
  trial: number,
): string[] {
  return shuffle(visible, seededRandom(deriveSeed("shuffle-tools", seed, caseId, trial)));
}
