import type { DistractorPolicy } from "../types/sweep.js";
import type { Case, Discovery, Exposure, Registry } from "../types.js";
import { buildSimilarity, type Similarity } from "./similarity.js";
import { orderCandidates, visibleAt, type CandidateOrder } from "./visible-sets.js";

export interface SizeHookSettings {
  seed: number;
  policy: DistractorPolicy;
  /** The tools a distractor registry added to a (padded) registry. */
  paddingNames: (registry: Registry) => ReadonlySet<string>;
}

/**
 * The visible set of a case at one size. Orders are computed once per case and shared by every
 * size of the sweep, which is what makes the sets nested.
 */
export function createSizeHook(
  settings: SizeHookSettings,
): (size: number) => (testCase: Case, exposure: Exposure) => Discovery {
  const orders = new Map<string, CandidateOrder>();
  const similarities = new Map<Registry, Similarity>();
  const similarityOf = (registry: Registry): Similarity => {
    let similarity = similarities.get(registry);
    if (similarity === undefined)
      similarities.set(registry, (similarity = buildSimilarity(registry.tools)));
    return similarity;
  };
  const orderOf = (testCase: Case, exposure: Exposure): CandidateOrder => {
    let order = orders.get(testCase.id);
    if (order === undefined) {
      order = orderCandidates({
        caseId: testCase.id,
        goal: testCase.goal,
        acceptable: testCase.acceptable,
        exposed: exposure.exposed,
        padding: settings.paddingNames(testCase.registry),
        policy: settings.policy,
        seed: settings.seed,
        similarity: similarityOf(testCase.registry),
      });
      orders.set(testCase.id, order);
    }
    return order;
  };
  return (size) => (testCase, exposure) => visibleAt(orderOf(testCase, exposure), size);
}
