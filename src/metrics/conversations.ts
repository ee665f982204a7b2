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
  return (
    t.turn !== undefined &&
    t.failed_stage === "selection" &&
    t.acceptable.some((name) => t.turn?.added_now.includes(name) === true)
  );
}

/**
 * Each conversation's scored trials (every turn asked, none errored), each as its turns'
 * successes in turn order; conversations in id order.
 */
function conversationRuns(turns: TrialRecord[], success: Success): Map<string, boolean[][]> {
  const runs = new Map<string, boolean[][]>();
  const conversations = [
    ...groupBy(turns, (t) => t.turn?.conversation ?? t.case_id).entries(),
  ].sort(([a], [b]) => compareText(a, b));
  for (const [id, group] of conversations) {
    const of = group[0].turn?.of ?? 0;
    const scored: boolean[][] = [];
    for (const [, run] of groupBy(group, (t) => String(t.trial))) {
      const byTurn = new Map(run.map((t) => [t.turn?.index ?? 0, t]));
      if (byTurn.size < of || run.some((t) => t.error !== null)) continue;
      scored.push(
        [...byTurn.keys()]
          .sort((a, b) => a - b)
          .map((index) => isSuccess(byTurn.get(index) as TrialRecord, success)),
      );
    }
    runs.set(id, scored);
  }
  return runs;
}

/** Each conversation's own success share (succeeding / scored trials): what `diff` pairs by conversation. */
export function conversationShares(
  records: TrialRecord[],
  success: Success = "selection",
): Map<string, number> {
  const shares = new Map<string, number>();
  for (const [id, runs] of conversationRuns(
    records.filter((t) => t.turn !== undefined),
    success,
  )) {
    if (runs.length > 0)
      shares.set(id, runs.filter((turns) => turns.every(Boolean)).length / runs.length);
  }
  return shares;
}

/** The conversation metrics of `records` (every record, errored ones included), or null when no record is a turn. */
export function computeConversations(
  records: TrialRecord[],
  success: Success,
): ConversationMetrics | null {
  const turns = records.filter((t) => t.turn !== undefined);
  if (turns.length === 0) return null;
  const firstFailure: Record<string, number> = {};
  const tallies: { n: number; s: number }[] = [];
  const afterMiss = { turns: 0, recovered: 0 };
  for (const runs of conversationRuns(turns, success).values()) {
    for (const run of runs) {
      const failed = run.indexOf(false);
      const key = failed === -1 ? "none" : String(failed + 1);
      firstFailure[key] = (firstFailure[key] ?? 0) + 1;
      if (failed === -1) continue;
      const later = run.slice(failed + 1);
      afterMiss.turns += later.length;
      afterMiss.recovered += later.filter(Boolean).length;
    }
    tallies.push({ n: runs.length, s: runs.filter((run) => run.every(Boolean)).length });
  }
  const onPolicy = turns.some((t) => t.turn?.mode === "on-policy");
  const scoredTurns = turns.filter((t) => t.error === null);
  const indexes = [...new Set(scoredTurns.map((t) => t.turn?.index ?? 0))].sort((a, b) => a - b);
  const byTurn = indexes.map((turn) => {
    const at = scoredTurns.filter((t) => t.turn?.index === turn);
    const failure_profile = Object.fromEntries(
      STAGES.map((stage) => [stage, at.filter((t) => t.failed_stage === stage).length]),
    ) as Record<Stage, number>;
    return {
      turn,
      scored: at.length,
      correct: at.filter((t) => isSuccess(t, success)).length,
      failure_profile,
    };
  });
  const scored = tallies.filter((tally) => tally.n > 0);
  return {
    conversations: scored.length,
    turns: new Set(turns.map((t) => t.case_id)).size,
    success: clusterRate(scored.map(({ n, s }) => ({ n, s }))),
    pass_hat_k: computePassK(scored, { n: (t) => t.n, c: (t) => t.s, cluster: () => undefined })
      .pass_hat_k,
    by_turn: byTurn,
    first_failure: Object.fromEntries(
      Object.entries(firstFailure).sort(([a], [b]) =>
        a === "none" ? 1 : b === "none" ? -1 : Number(a) - Number(b),
      ),
    ),
    exposure_lag: scoredTurns.filter(isExposureLag).length,
    ...(onPolicy
      ? {
          on_policy: {
            after_miss: afterMiss.turns,
            recovered: afterMiss.recovered,
            downstream_failures: afterMiss.turns - afterMiss.recovered,
            unstubbed: scoredTurns.filter((t) => (t.turn?.unstubbed ?? []).length > 0).length,
          },
        }
      : {}),
  };
}
