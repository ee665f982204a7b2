/** The report's Tool search section (docs/tool-search.md#metrics): the same lines, table and notes in every format. */
import { formatCount, formatPercent, MISSING, plural } from "../render/format.js";
import { RATE_ALIGN, rateRow, section, type Cell, type Section } from "../render/section.js";
import type { MeanEstimate, ToolSearchConfig, ToolSearchMetrics } from "../types.js";

/** Tool search: did the searches find an acceptable tool, was it then chosen, and what the definitions cost. */
export function buildToolSearchSection(
  t: ToolSearchMetrics,
  settings: Partial<ToolSearchConfig> | undefined,
): Section {
  const how =
    settings?.mode === "provider"
      ? `the provider's own search (${settings.kind ?? "bm25"} where it offers a choice)`
      : `route-eval's ${settings?.kind ?? "bm25"} search, k ${settings?.k ?? 5}`;
  const lines = [
    `${plural(t.decisions, "decision")} with the exposed ordinary tools deferred behind ${how}, at most ${settings?.max_searches ?? 3} searches each; a decision's visible set is what it loaded`,
    "search recall: a search returned an acceptable tool, of the decisions whose acceptable tool was deferred; found, not chosen: of those that loaded one",
  ];
  const rows: Cell[][] = [
    rateRow("search recall", t.search_recall),
    rateRow("first-search recall", t.first_search_recall),
    rateRow("found, not chosen", t.found_but_not_chosen),
    rateRow("search limit reached", t.search_limit),
  ];
  const saving =
    t.definition_tokens.mean === null ||
    t.definition_tokens_unsearched.mean === null ||
    t.definition_tokens_unsearched.mean === 0
      ? null
      : 1 - t.definition_tokens.mean / t.definition_tokens_unsearched.mean;
  const notes = [
    `searches per decision: ${formatMean(t.searches_per_decision, 2)} (${formatCount(t.searches_per_decision.total)} searches)${t.failed_searches > 0 ? ` · ${plural(t.failed_searches, "search")} could not run (bad arguments): recorded, returned nothing` : ""}`,
    `tool-definition tokens per decision: ${formatMean(t.definition_tokens, 0)} against ${formatMean(t.definition_tokens_unsearched, 0)} with every deferred tool loaded${saving === null ? "" : ` (${saving >= 0 ? "−" : "+"}${formatPercent(Math.abs(saving))})`} — route-eval's estimate, ceil(characters / 4), summed over a decision's calls`,
  ];
  return section(
    "Tool search",
    lines,
    { head: ["measure", "population", "count", "rate", "95% CI"], align: RATE_ALIGN, rows },
    notes,
  );
}

/** "1.04 [0.98, 1.10]": a mean with its interval, or "—". */
export function formatMean(m: MeanEstimate, digits: number): string {
  if (m.mean === null) return MISSING;
  return `${m.mean.toFixed(digits)}${m.ci === null ? "" : ` [${m.ci[0].toFixed(digits)}, ${m.ci[1].toFixed(digits)}]`}`;
}
