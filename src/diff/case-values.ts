/**
 * One run's evidence for paired tests: each metric's value per case, and each trial's outcomes.
 * From trial records when the run has them; otherwise from the report's case rows, which carry
 * the funnel, end-to-end, violations and selection counts but not argument checks.
 */
import { RATE_NAMES, type RateName } from "../types/rates.js";
import { findModal } from "../metrics/scored-trials.js";
import { passAtK, passHatK } from "../metrics/pass-k.js";
import { trialKey, type CaseRow, type Metrics, type TrialRecord } from "../types.js";
import type { RunEvidence } from "./metric-deltas.js";
import {
  outcomesOf,
  tallyRecords,
  tallyRow,
  type CaseTallies,
  type TrialOutcomes,
} from "./trial-outcomes.js";
import { conversationShares } from "../metrics/conversations.js";
import { CALL_SET_GATES } from "../gates/gate-names.js";

/** The rates case rows can give, so that a missing case means "not in the population". */
const ROW_RATES: readonly RateName[] = [
  "capability_coverage",
  "exposure_recall",
  "discovery_recall",
  "selection_accuracy",
  "end_to_end_accuracy",
  "abstention_accuracy",
  "violation_rate",
  "clarification_rate",
  "abstention_rate",
  "no_call_rate",
];

function recallKeysOf(metrics: Metrics): string[] {
  return Object.keys(metrics.tool_recall_at_k).map((k) => `tool_recall_at_k.${k}`);
}

function emptyMaps(metrics: string[]): Map<string, Map<string, number>> {
  return new Map(metrics.map((metric) => [metric, new Map<string, number>()]));
}

function addTallies(
  values: Map<string, Map<string, number>>,
  caseId: string,
  tallies: CaseTallies,
): void {
  for (const [metric, { s, n }] of tallies) {
    if (n > 0) values.get(metric)?.set(caseId, s / n);
  }
}

/** pass^k and pass@k per k (cases with at least k scored trials), and consistency, from rows. */
function addReliability(
  values: Map<string, Map<string, number>>,
  rows: CaseRow[],
  metrics: Metrics,
): void {
  const ks = Object.keys(metrics.pass_hat_k).map(Number);
  for (const k of ks) {
    values.set(`pass_hat_k.${k}`, new Map());
    values.set(`pass_at_k.${k}`, new Map());
  }
  values.set("consistency", new Map());
  for (const row of rows) {
    const scored = row.trials - row.errored;
    if (scored === 0) continue;
    for (const k of ks.filter((k) => k <= scored)) {
      values.get(`pass_hat_k.${k}`)?.set(row.case_id, passHatK(row.correct, scored, k));
      values.get(`pass_at_k.${k}`)?.set(row.case_id, passAtK(row.correct, scored, k));
    }
    values.get("consistency")?.set(row.case_id, (findModal(row.selections)?.count ?? 0) / scored);
  }
}

/**
 * The evidence of one run. `scored` are its scored (non-errored, re-classified) trial records,
 * or null when the run is a report alone; `metrics` are the metrics being compared.
 */
export function gatherEvidence(
  metrics: Metrics,
  rows: CaseRow[],
  scored: TrialRecord[] | null,
): RunEvidence {
  const recall = recallKeysOf(metrics);
  const rates =
    scored === null
      ? [...ROW_RATES, ...(recall.length === 1 ? recall : [])]
      : [...RATE_NAMES, ...recall, ...(metrics.call_sets === undefined ? [] : CALL_SET_GATES)];
  const caseValues = emptyMaps(rates);
  if (scored === null) {
    for (const row of rows) addTallies(caseValues, row.case_id, tallyRow(row, recall));
  } else {
    for (const [caseId, tallies] of tallyRecords(scored)) addTallies(caseValues, caseId, tallies);
  }
  addReliability(caseValues, rows, metrics);
  // Conversation success pairs conversations: each one's own share of succeeding trials.
  if (scored !== null && metrics.conversations !== undefined)
    caseValues.set("conversation_success", conversationShares(scored));
  return { metrics, caseValues, trialOutcomes: scored === null ? null : indexOutcomes(scored) };
}

function indexOutcomes(scored: TrialRecord[]): Map<string, TrialOutcomes> {
  return new Map(scored.map((t) => [trialKey(t.case_id, t.trial), outcomesOf(t)]));
}
