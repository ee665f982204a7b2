/**
 * Every metric of DESIGN §3–4 from trial records. Pure. Errored trials are counted and excluded
 * from every rate, pass^k, consistency figure and confusion table.
 */
import { isRightCall } from "../classify/classify-trial.js";
import { ABSTAIN, ASK } from "../types.js";
import type { Metrics, Rate, SelectionError, Stage, Success, TrialRecord } from "../types.js";
import { computeConfusions } from "./confusions.js";
import { computeSelectionByPosition } from "./position.js";
import { computeReliability } from "./reliability.js";
import { computeInputTokens, computeRetrievalQuality } from "./retrieval-quality.js";
import { groupBy, isCovered, isExposed, isRetrieved, scoreRecords } from "./scored-trials.js";
import { isControl } from "../types.js";
import { compareText } from "../text/compare-text.js";
import { clusterRate, type ClusterTally } from "./wilson.js";

type Funnel = Pick<
  Metrics,
  | "capability_coverage" | "exposure_recall" | "discovery_recall" | "tool_recall_at_k" | "selection_accuracy"
  | "end_to_end_accuracy" | "abstention_accuracy" | "violation_rate" | "argument_validity" | "argument_match" | "call_accuracy"
>;
type Signals = Pick<
  Metrics,
  | "clarification_rate" | "abstention_rate" | "phantom_rate" | "no_call_rate" | "extra_call_rate" | "mean_visible"
  | "failure_profile" | "selection_errors"
>;

/** The share of `population` for which `success` holds; its interval treats the case as the unit. */
export function rateOf(population: TrialRecord[], success: (t: TrialRecord) => boolean): Rate {
  const byCase = new Map<string, ClusterTally>();
  // A case's trials are usually adjacent (reports sort by case): the last tally is reused without a lookup.
  let lastCase: string | null = null;
  let tally: ClusterTally = { n: 0, s: 0 };
  for (const t of population) {
    if (t.case_id !== lastCase) {
      lastCase = t.case_id;
      const known = byCase.get(t.case_id);
      if (known === undefined) byCase.set(t.case_id, (tally = { n: 0, s: 0 }));
      else tally = known;
    }
    tally.n += 1;
    if (success(t)) tally.s += 1;
  }
  // Summed in case order, so the interval's last digits never depend on the order of the records.
  return clusterRate([...byCase.entries()].sort(([a], [b]) => compareText(a, b)).map(([, tally]) => tally));
}


/** "all" for trials without a retriever, else the budget; numeric keys ascending, "all" last. */
function computeRecallAtK(exposed: TrialRecord[]): Record<string, Rate> {
  const keyOf = (t: TrialRecord): string => (t.retrieval_k === null ? "all" : String(t.retrieval_k));
  const groups = [...groupBy(exposed, keyOf).entries()].sort(
    ([a], [b]) => (a === "all" ? 1 : 0) - (b === "all" ? 1 : 0) || Number(a) - Number(b) || compareText(a, b),
  );
  return Object.fromEntries(groups.map(([k, group]) => [k, rateOf(group, isRetrieved)]));
}

function computeFunnel(scored: TrialRecord[]): Funnel {
  const exposed = scored.filter(isExposed);
  return {
    capability_coverage: rateOf(scored, isCovered),
    exposure_recall: rateOf(scored.filter(isCovered), isExposed),
    discovery_recall: rateOf(exposed, isRetrieved),
    tool_recall_at_k: computeRecallAtK(exposed),
    selection_accuracy: rateOf(scored.filter(isRetrieved), (t) => t.selected !== null && t.acceptable.includes(t.selected)),
    end_to_end_accuracy: rateOf(scored, (t) => t.failed_stage === null),
    abstention_accuracy: rateOf(scored.filter((t) => t.acceptable.includes(ABSTAIN)), (t) => t.selected === ABSTAIN),
    violation_rate: rateOf(scored, (t) => t.violated),
    // Ordinary tool calls only: a control's (empty) arguments say nothing about filling a tool's schema.
    argument_validity: rateOf(scored.filter((t) => t.argument_errors !== null && !isControl(t.selected ?? "")), (t) => t.argument_errors?.length === 0),
    argument_match: rateOf(scored.filter((t) => t.argument_match !== null), (t) => t.argument_match === true),
    call_accuracy: rateOf(scored.filter(isRetrieved), isRightCall),
  };
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

function computeSignals(scored: TrialRecord[]): Signals {
  // Ordinary tools only, controls apart: the same count as a sweep's "visible" column.
  let visibleTotal = 0;
  for (const t of scored) for (const name of t.visible_order) if (!isControl(name)) visibleTotal += 1;
  return {
    clarification_rate: rateOf(scored, (t) => t.selected === ASK),
    abstention_rate: rateOf(scored, (t) => t.selected === ABSTAIN),
    phantom_rate: rateOf(scored, (t) => t.selected !== null && !t.visible_order.includes(t.selected)),
    no_call_rate: rateOf(scored, (t) => t.selected === null),
    extra_call_rate: rateOf(scored, (t) => t.tool_calls > 1),
    mean_visible: scored.length === 0 ? null : visibleTotal / scored.length,
    failure_profile: countStages(scored),
    selection_errors: countSelectionErrors(scored),
  };
}

/** All metrics of a set of records (a run, or one breakdown's subset); pass^k by the run's `success`. */
export function computeMetrics(records: TrialRecord[], success: Success = "selection"): Metrics {
  const scored = scoreRecords(records);
  return {
    trials: records.length,
    errored: records.length - scored.length,
    scored: scored.length,
    ...computeFunnel(scored),
    ...computeSignals(scored),
    ...computeConfusions(scored),
    ...computeReliability(scored, success),
    retrieval: computeRetrievalQuality(scored),
    input_tokens: computeInputTokens(scored),
    selection_by_position: computeSelectionByPosition(scored),
  };
}
