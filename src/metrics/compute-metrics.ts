/**
 * Every metric of DESIGN §3–4 from trial records. Pure. Errored trials are counted and excluded
 * from every rate, pass^k, consistency figure and confusion table.
 */
import { RATE_NAMES, type RateName } from "../types/rates.js";
import { type ConversationMetrics, type Metrics, type Rate, type SelectionError, type Stage, type Success, type ToolSearchMetrics, type TrialRecord } from "../types.js";
import { computeConfusions } from "./confusions.js";
import { computeSelectionByPosition } from "./position.js";
import { computeReliability } from "./reliability.js";
import { computeInputTokens, computeRetrievalQuality } from "./retrieval-quality.js";
import { groupBy, scoreRecords } from "./scored-trials.js";
import { factsOf, isExposed, isRetrieved, RATE_MASKS, type TrialFacts } from "./trial-facts.js";
import { compareText } from "../text/compare-text.js";
import { clusterOf, clusterRate, rateOf } from "./wilson.js";
import { computeConversations } from "./conversations.js";
import { computeToolSearch } from "./tool-search.js";

/** Every rate of the rate table in one pass over the trials (per case: n and s of each rate), and the ordinary tools shown in all. */
function countRates(scored: TrialRecord[], facts: TrialFacts[]): { rates: Record<RateName, Rate>; visibleTotal: number } {
  const byCase = new Map<string, Float64Array>();
  let visibleTotal = 0;
  for (let i = 0; i < scored.length; i++) {
    const caseId = clusterOf(scored[i]);
    let counts = byCase.get(caseId);
    if (counts === undefined) byCase.set(caseId, (counts = new Float64Array(2 * RATE_NAMES.length)));
    const { bits, visible } = facts[i];
    visibleTotal += visible;
    for (let r = 0; r < RATE_MASKS.length; r++) {
      const [population, success] = RATE_MASKS[r];
      if ((bits & population) !== population) continue;
      counts[2 * r] += 1;
      if ((bits & success) === success) counts[2 * r + 1] += 1;
    }
  }
  // Summed in case order, as rateOf sums.
  const cases = [...byCase.entries()].sort(([a], [b]) => compareText(a, b));
  const rates = {} as Record<RateName, Rate>;
  RATE_NAMES.forEach((name, r) => {
    rates[name] = clusterRate(cases.map(([, counts]) => ({ n: counts[2 * r], s: counts[2 * r + 1] })));
  });
  return { rates, visibleTotal };
}


/** "all" for trials without a retriever, else the budget; numeric keys ascending, "all" last. */
function computeRecallAtK(exposed: TrialRecord[]): Record<string, Rate> {
  const keyOf = (t: TrialRecord): string => (t.retrieval_k === null ? "all" : String(t.retrieval_k));
  const groups = [...groupBy(exposed, keyOf).entries()].sort(
    ([a], [b]) => (a === "all" ? 1 : 0) - (b === "all" ? 1 : 0) || Number(a) - Number(b) || compareText(a, b),
  );
  return Object.fromEntries(groups.map(([k, group]) => [k, rateOf(group, isRetrieved)]));
}

function countStages(scored: TrialRecord[]): Record<Stage, number> {
  const counts: Record<Stage, number> = { coverage: 0, exposure: 0, discovery: 0, selection: 0 };
  for (const t of scored) if (t.failed_stage !== null) counts[t.failed_stage] += 1;
  return counts;
}

function countSelectionErrors(scored: TrialRecord[]): Record<SelectionError, number> {
  const counts: Record<SelectionError, number> = {
    wrong_tool: 0, phantom_tool: 0, no_call: 0, abstained: 0, asked: 0, malformed: 0,
  };
  for (const t of scored) if (t.selection_error !== null) counts[t.selection_error] += 1;
  return counts;
}

/** All metrics of a set of records (a run, or one breakdown's subset); pass^k by the run's `success`. */
export function computeMetrics(records: TrialRecord[], success: Success = "selection"): Metrics {
  const scored = scoreRecords(records);
  const facts = scored.map(factsOf);
  const { rates, visibleTotal } = countRates(scored, facts);
  return {
    trials: records.length,
    errored: records.length - scored.length,
    scored: scored.length,
    ...rates,
    tool_recall_at_k: computeRecallAtK(scored.filter(isExposed)),
    mean_visible: scored.length === 0 ? null : visibleTotal / scored.length,
    failure_profile: countStages(scored),
    selection_errors: countSelectionErrors(scored),
    ...computeConfusions(scored),
    ...computeReliability(scored, success),
    retrieval: computeRetrievalQuality(scored, (_, i) => facts[i].quality),
    input_tokens: computeInputTokens(scored),
    selection_by_position: computeSelectionByPosition(scored, (_, i) => facts[i].third),
    ...withConversations(computeConversations(records, success)),
    ...withToolSearch(computeToolSearch(scored)),
  };
}

function withToolSearch(toolSearch: ToolSearchMetrics | null): { tool_search?: ToolSearchMetrics } {
  return toolSearch === null ? {} : { tool_search: toolSearch };
}

function withConversations(conversations: ConversationMetrics | null): { conversations?: ConversationMetrics } {
  return conversations === null ? {} : { conversations };
}
