/**
 * Per-trial and per-case outcomes of every rate, so that two runs can be paired: a trial is in a
 * rate's population or not, and succeeds or not — by the same facts and table the report counts.
 */
import {
  isExposed,
  isRetrieved,
  isRightCall,
  outcomesOf as rateOutcomes,
} from "../metrics/trial-facts.js";
import { NO_CALL_LABEL } from "../metrics/scored-trials.js";
import { ABSTAIN, ASK, STAGES } from "../types.js";
import type { CaseRow, TrialRecord } from "../types.js";

/** Metric name → success, for each rate whose population holds the trial. */
export type TrialOutcomes = Map<string, boolean>;

/** Successes over a population: one case's share of a metric. */
export interface Tally {
  s: number;
  n: number;
}

/** Metric name → tally, for one case. */
export type CaseTallies = Map<string, Tally>;

/** The tool_recall_at_k key of a trial: its budget, or "all" without a retriever. */
export function recallKey(k: number | null): string {
  return `tool_recall_at_k.${k === null ? "all" : k}`;
}

/** The outcomes of one scored trial: every rate of the table (metrics/trial-facts.ts decides them, as for the report), and its recall@k. */
export function outcomesOf(t: TrialRecord): TrialOutcomes {
  const out: TrialOutcomes = rateOutcomes(t);
  if (isExposed(t)) out.set(recallKey(t.retrieval_k), isRetrieved(t));
  if (t.call_set !== undefined) out.set("call_set_exact", isRightCall(t));
  return out;
}

function add(tallies: CaseTallies, metric: string, s: number, n: number): void {
  const tally = tallies.get(metric) ?? { s: 0, n: 0 };
  tallies.set(metric, { s: tally.s + s, n: tally.n + n });
}

/** Per case, the tally of every rate over its scored trials. */
export function tallyRecords(scored: TrialRecord[]): Map<string, CaseTallies> {
  const byCase = new Map<string, CaseTallies>();
  for (const t of scored) {
    const tallies = byCase.get(t.case_id) ?? new Map<string, Tally>();
    for (const [metric, success] of outcomesOf(t)) add(tallies, metric, success ? 1 : 0, 1);
    // A call set's calls: its share of expected calls made, and of counted calls expected.
    const set = t.call_set;
    if (set !== undefined) {
      const matched = set.matched.filter((index) => index !== null).length;
      add(tallies, "call_recall", matched, set.expected.length);
      add(tallies, "call_precision", matched, matched + set.extra.length);
    }
    byCase.set(t.case_id, tallies);
  }
  return byCase;
}

/**
 * The tallies a report's case rows alone can give (no records): the funnel, end-to-end,
 * violations and the selection-count signals. `recallKeys` names the run's tool_recall_at_k
 * keys; with exactly one, it equals discovery recall case by case.
 */
export function tallyRow(row: CaseRow, recallKeys: string[]): CaseTallies {
  const count = (label: string): number => row.stages[label] ?? 0;
  const picked = (name: string): number => row.selections[name] ?? 0;
  const scored = row.trials - row.errored;
  const [coverage, exposure, discovery, selection] = STAGES.map(count);
  const tallies: CaseTallies = new Map();
  const exposed = scored - coverage - exposure;
  add(tallies, "capability_coverage", scored - coverage, scored);
  add(tallies, "exposure_recall", exposed, scored - coverage);
  add(tallies, "discovery_recall", exposed - discovery, exposed);
  if (recallKeys.length === 1) add(tallies, recallKeys[0], exposed - discovery, exposed);
  add(tallies, "selection_accuracy", row.correct, row.correct + selection);
  add(tallies, "end_to_end_accuracy", row.correct, scored);
  if (row.acceptable.includes(ABSTAIN))
    add(tallies, "abstention_accuracy", picked(ABSTAIN), scored);
  add(tallies, "violation_rate", row.violated, scored);
  add(tallies, "clarification_rate", picked(ASK), scored);
  add(tallies, "abstention_rate", picked(ABSTAIN), scored);
  add(tallies, "no_call_rate", picked(NO_CALL_LABEL), scored);
  return tallies;
}
