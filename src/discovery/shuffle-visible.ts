import { deriveSeed, seededRandom } from "../text/seeded-random.js";

/**
 * The visible tools in a seeded random order (Fisher–Yates), controls included, so that a tool's
 * position in the list is independent of which tool it is. The same (run seed, case, trial)
 * always gives the same order, so a shuffled run is reproducible and its requests stay cacheable.
 */
export function shuffleVisible(visible: string[], seed: number, caseId: string, trial: number): string[] {
  const random = seededRandom(deriveSeed("shuffle-tools", seed, caseId, trial));
  const order = [...visible];
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
