/**
 * Tool search metrics (docs/tool-search.md): over the scored decisions asked with tool search on,
 * whether the searches found an acceptable tool (at all, at the first search), whether a found
 * tool was then chosen, how many searches a decision took and the definition tokens it sent.
 * Rates are clustered by case, means carry cluster-robust intervals. The sums per case are
 * gathered by case-tally.ts (addSearch).
 */
import { SEARCH, type CaseTally } from "./case-tally.js";
import { slotFigures } from "./slot-figures.js";
import type { ToolSearchMetrics } from "../types.js";

/** The tool search figures of the clusters' cases, or null when no decision was asked with search on. */
export function computeToolSearch(
  clusters: readonly (readonly CaseTally[])[],
): ToolSearchMetrics | null {
  const { decisions, perCluster, share, mean } = slotFigures(
    clusters,
    (c) => c.search,
    SEARCH.decisions,
  );
  if (decisions.every((n) => n === 0)) return null;
  return {
    decisions: decisions.reduce((a, b) => a + b, 0),
    search_recall: share(SEARCH.needed, SEARCH.found),
    first_search_recall: share(SEARCH.needed, SEARCH.foundFirst),
    found_but_not_chosen: share(SEARCH.loaded, SEARCH.notChosen),
    search_limit: share(SEARCH.decisions, SEARCH.limit),
    failed_searches: perCluster(SEARCH.failed).reduce((a, b) => a + b, 0),
    searches_per_decision: mean(SEARCH.searches),
    definition_tokens: mean(SEARCH.tokens),
    definition_tokens_unsearched: mean(SEARCH.unsearched),
  };
}
