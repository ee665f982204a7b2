/**
 * Conversation metrics over the turns of conversation cases. Each turn is asked teacher-forced,
 * so trial t of a conversation is the t-th trial of each of its turns: it succeeds when every turn
 * of it is correct, and it is scored when none of its turns errored. Rates are clustered by
 * conversation (its trials are not independent samples), as every rate is by case.
 */
import { STAGES, type ConversationMetrics, type Stage, type TrialRecord } from "../types.js";
import type { Success } from "../types/config.js";
import { compareText } from "../text/compare-text.js";
import { computePassK } from "./pass-k.js";
import { groupBy } from "./scored-trials.js";
import { isSuccess } from "./trial-facts.js";
import { clusterRate } from "./wilson.js";

/** A selection failure at the turn that added an acceptable tool: the model answered as if the new tool were absent. */
export function isExposureLag(t: TrialRecord): boolean {
  return t.turn !== undefined && t.failed_stage === "selection" && t.acceptable.some((name) => t.turn?.added_now.includes(name) === true);
}

/** The conversation metrics of `records` (every record, errored ones included), or null when no record is a turn. */
export function computeConversations(records: TrialRecord[], success: Success): ConversationMetrics | null {
  const turns = records.filter((t) => t.turn !== undefined);
  if (turns.length === 0) return null;
  const conversations = [...groupBy(turns, (t) => t.turn?.conversation ?? t.case_id).entries()].sort(([a], [b]) => compareText(a, b));
  const firstFailure: Record<string, number> = {};
  const tallies: { n: number; s: number }[] = [];
  for (const [, group] of conversations) {
    const of = group[0].turn?.of ?? 0;
    const tally = { n: 0, s: 0 };
    for (const [, run] of groupBy(group, (t) => String(t.trial))) {
      const byTurn = new Map(run.map((t) => [t.turn?.index ?? 0, t]));
      // Scored: every turn of the trial was asked and none errored.
      if (byTurn.size < of || run.some((t) => t.error !== null)) continue;
      tally.n += 1;
      const failed = [...byTurn.keys()].sort((a, b) => a - b).find((index) => !isSuccess(byTurn.get(index) as TrialRecord, success));
      if (failed === undefined) tally.s += 1;
      const key = failed === undefined ? "none" : String(failed);
      firstFailure[key] = (firstFailure[key] ?? 0) + 1;
    }
    tallies.push(tally);
  }
  const scoredTurns = turns.filter((t) => t.error === null);
  const indexes = [...new Set(scoredTurns.map((t) => t.turn?.index ?? 0))].sort((a, b) => a - b);
  const byTurn = indexes.map((turn) => {
    const at = scoredTurns.filter((t) => t.turn?.index === turn);
    const failure_profile = Object.fromEntries(STAGES.map((stage) => [stage, at.filter((t) => t.failed_stage === stage).length])) as Record<Stage, number>;
    return { turn, scored: at.length, correct: at.filter((t) => isSuccess(t, success)).length, failure_profile };
  });
  const scored = tallies.filter((tally) => tally.n > 0);
  return {
    conversations: scored.length,
    turns: new Set(turns.map((t) => t.case_id)).size,
    success: clusterRate(scored.map(({ n, s }) => ({ n, s }))),
    pass_hat_k: computePassK(scored.map(({ n, s }) => ({ n, c: s }))).pass_hat_k,
    by_turn: byTurn,
    first_failure: Object.fromEntries(Object.entries(firstFailure).sort(([a], [b]) => (a === "none" ? 1 : b === "none" ? -1 : Number(a) - Number(b)))),
    exposure_lag: scoredTurns.filter(isExposureLag).length,
  };
}
