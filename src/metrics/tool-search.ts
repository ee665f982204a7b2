/**
 * Tool search metrics (docs/tool-search.md): over the scored decisions asked with tool search on,
 * whether the searches found an acceptable tool (at all, at the first search), whether a found
 * tool was then chosen, how many searches a decision took and the definition tokens it sent.
 * Rates are clustered by case, means carry cluster-robust intervals.
 */
import { meanOf, rateOf } from "./wilson.js";
import { isExposed } from "./trial-facts.js";
import { isControl, type ToolSearchMetrics, type TrialRecord } from "../types.js";

/** The tool search figures of the scored records, or null when none was asked with search on. */
export function computeToolSearch(scored: TrialRecord[]): ToolSearchMetrics | null {
  const searched = scored.filter((t) => t.search !== undefined);
  if (searched.length === 0) return null;
  // A control (always loaded) or an always-loaded tool needs no search.
  const needed = searched.filter((t) => isExposed(t) && !t.acceptable.some((name) => isControl(name) || t.search?.always_loaded.includes(name)));
  const returns = (t: TrialRecord, steps: NonNullable<TrialRecord["search"]>["searches"]) => steps.some((s) => s.returned.some((name) => t.acceptable.includes(name)));
  const loaded = searched.filter((t) => t.failed_stage === null || t.failed_stage === "selection");
  return {
    decisions: searched.length,
    search_recall: rateOf(needed, (t) => returns(t, t.search?.searches ?? [])),
    first_search_recall: rateOf(needed, (t) => returns(t, (t.search?.searches ?? []).slice(0, 1))),
    found_but_not_chosen: rateOf(loaded, (t) => t.failed_stage === "selection"),
    search_limit: rateOf(searched, (t) => t.search?.outcome === "search_limit"),
    failed_searches: searched.reduce((n, t) => n + (t.search?.searches.filter((s) => s.error !== undefined).length ?? 0), 0),
    searches_per_decision: meanOf(searched, (t) => t.search?.searches.length ?? 0),
    definition_tokens: meanOf(searched, (t) => t.search?.definition_tokens ?? 0),
    definition_tokens_unsearched: meanOf(searched, (t) => t.search?.definition_tokens_unsearched ?? 0),
  };
}
