/**
 * Tool search metrics (docs/tool-search.md): over the scored decisions asked with tool search on,
 * whether the searches found an acceptable tool (at all, at the first search), whether a found
 * tool was then chosen, how many searches a decision took and the definition tokens it sent.
 * Rates are clustered by case, means carry cluster-robust intervals. The sums per case are
 * gathered here (addSearch), as case-tally.ts counts each record.
 */
import type { Cluster } from "./wilson.js";
import { isExposed } from "./trial-facts.js";
import { slotFigures } from "./slot-figures.js";
import { isControl, type ToolSearchMetrics, type TrialRecord } from "../types.js";

/** The tool search figures of the clusters' cases, or null when no decision was asked with search on. */
export function computeToolSearch(clusters: readonly Cluster[]): ToolSearchMetrics | null {
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

/** The slots of a case's tool-search sums: decisions, and of them the counts and totals tool-search.ts reports. */
export const SEARCH = {
  decisions: 0,
  needed: 1,
  found: 2,
  foundFirst: 3,
  loaded: 4,
  notChosen: 5,
  limit: 6,
  failed: 7,
  searches: 8,
  tokens: 9,
  unsearched: 10,
} as const;

/** A case's tool-search sums, all zero: one slot per SEARCH entry. */
export function newSearchSums(): Float64Array {
  return new Float64Array(Object.keys(SEARCH).length);
}

export function addSearch(sums: Float64Array, r: TrialRecord): void {
  const search = r.search;
  if (search === undefined) return;
  const returns = (steps: typeof search.searches) =>
    steps.some((s) => s.returned.some((name) => r.acceptable.includes(name)));
  sums[SEARCH.decisions] += 1;
  // A control (always loaded) or an always-loaded tool needs no search.
  if (
    isExposed(r) &&
    !r.acceptable.some((name) => isControl(name) || search.always_loaded.includes(name))
  ) {
    sums[SEARCH.needed] += 1;
    if (returns(search.searches)) sums[SEARCH.found] += 1;
    if (returns(search.searches.slice(0, 1))) sums[SEARCH.foundFirst] += 1;
    // Found, not chosen: of the decisions whose deferred acceptable tool was loaded (a control or
    // an always-loaded tool was never searched for, and counts in neither).
    if (r.failed_stage === null || r.failed_stage === "selection") {
      sums[SEARCH.loaded] += 1;
      if (r.failed_stage === "selection") sums[SEARCH.notChosen] += 1;
    }
  }
  if (search.outcome === "search_limit") sums[SEARCH.limit] += 1;
  sums[SEARCH.failed] += search.searches.filter((s) => s.error !== undefined).length;
  sums[SEARCH.searches] += search.searches.length;
  sums[SEARCH.tokens] += search.definition_tokens;
  sums[SEARCH.unsearched] += search.definition_tokens_unsearched;
}
