/**
 * Headroom from counterfactual records alone (plus the run's own records for the denominators):
 * per failed trial and kind, the share of repeats that came out correct; per stage, the failures
 * the fix turns correct and the end-to-end accuracy the run would reach; for selection, what the
 * failures are explained by; and the rival pairs whose removal recovers the most.
 */
import { clusterRate, type ClusterTally } from "../metrics/wilson.js";
import { STAGES, trialKey, type Rate, type Stage, type TrialRecord } from "../types.js";
import type { CounterfactualKind, CounterfactualOutcome, RivalPair, SelectionBreakdown, StageHeadroom } from "../types/counterfactual.js";

const NO_CALL = "(no call)";
const MAX_PAIRS = 10;

/** Counterfactual records grouped into one outcome per (failed trial, kind), in the run's order. */
export function summariseOutcomes(original: TrialRecord[], counterfactual: TrialRecord[]): CounterfactualOutcome[] {
  const stageOf = new Map(original.map((r) => [trialKey(r.case_id, r.trial), r.failed_stage]));
  const groups = new Map<string, CounterfactualOutcome>();
  for (const record of counterfactual) {
    const info = record.counterfactual;
    if (info === undefined || record.error !== null) continue;
    const key = `${trialKey(info.of.case_id, info.of.trial)}\u0000${info.kind}`;
    let outcome = groups.get(key);
    if (outcome === undefined) {
      const stage = stageOf.get(trialKey(info.of.case_id, info.of.trial)) ?? "selection";
      outcome = { case_id: info.of.case_id, trial: info.of.trial, stage: stage ?? "selection", kind: info.kind, repeats: 0, correct: 0, flip_rate: 0, selections: {} };
      groups.set(key, outcome);
    }
    outcome.repeats += 1;
    if (record.failed_stage === null) outcome.correct += 1;
    const picked = record.selected ?? NO_CALL;
    outcome.selections[picked] = (outcome.selections[picked] ?? 0) + 1;
  }
  const out = [...groups.values()];
  for (const o of out) o.flip_rate = o.repeats === 0 ? 0 : o.correct / o.repeats;
  const order = new Map(original.map((r, i) => [trialKey(r.case_id, r.trial), i]));
  const kindOrder: CounterfactualKind[] = ["inject", "remove-rival", "first", "pair"];
  return out.sort((a, b) => (order.get(trialKey(a.case_id, a.trial)) ?? 0) - (order.get(trialKey(b.case_id, b.trial)) ?? 0) || kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind));
}

/** A failed trial's best flip rate under the kinds asked (selection has three; the others one). */
function bestFlips(outcomes: CounterfactualOutcome[]): Map<string, { stage: Stage; case_id: string; flip: number }> {
  const best = new Map<string, { stage: Stage; case_id: string; flip: number }>();
  for (const o of outcomes) {
    const key = trialKey(o.case_id, o.trial);
    const seen = best.get(key);
    if (seen === undefined || o.flip_rate > seen.flip) best.set(key, { stage: o.stage, case_id: o.case_id, flip: o.flip_rate });
  }
  return best;
}

export function computeStageHeadroom(original: TrialRecord[], outcomes: CounterfactualOutcome[]): StageHeadroom[] {
  const scored = original.filter((r) => r.error === null);
  const cases = [...new Set(scored.map((r) => r.case_id))];
  const tally = (extra: (caseId: string) => number, base: boolean): Rate =>
    clusterRate(
      cases.map((caseId): ClusterTally => {
        const mine = scored.filter((r) => r.case_id === caseId);
        const correct = base ? mine.filter((r) => r.failed_stage === null).length : 0;
        return { n: mine.length, s: correct + extra(caseId) };
      }),
    );
  const best = [...bestFlips(outcomes).values()];
  const now = tally(() => 0, true);
  return STAGES.map((stage) => {
    const mine = best.filter((b) => b.stage === stage);
    const gainOf = (caseId: string) => mine.filter((b) => b.case_id === caseId).reduce((sum, b) => sum + b.flip, 0);
    return {
      stage,
      failures: scored.filter((r) => r.failed_stage === stage).length,
      tested: mine.length,
      binding: mine.reduce((sum, b) => sum + b.flip, 0),
      now,
      if_fixed: tally(gainOf, true),
      gain: tally(gainOf, false),
    };
  });
}

export function breakDownSelection(outcomes: CounterfactualOutcome[]): SelectionBreakdown {
  const selection = outcomes.filter((o) => o.stage === "selection");
  const byTrial = new Map<string, CounterfactualOutcome[]>();
  for (const o of selection) byTrial.set(trialKey(o.case_id, o.trial), [...(byTrial.get(trialKey(o.case_id, o.trial)) ?? []), o]);
  const sum = (kind: CounterfactualKind, value: (o: CounterfactualOutcome) => number) => selection.filter((o) => o.kind === kind).reduce((total, o) => total + value(o), 0);
  return {
    tested: byTrial.size,
    by_rival: sum("remove-rival", (o) => o.flip_rate),
    by_position: sum("first", (o) => o.flip_rate),
    inseparable: sum("pair", (o) => 1 - o.flip_rate),
    unexplained: [...byTrial.values()].filter((list) => list.every((o) => o.correct === 0)).length,
  };
}

/** Rival pairs of the selection failures remove-rival was asked for, the most recovered first. */
export function rankRivalPairs(original: TrialRecord[], outcomes: CounterfactualOutcome[]): RivalPair[] {
  const byKey = new Map(original.map((r) => [trialKey(r.case_id, r.trial), r]));
  const pairs = new Map<string, RivalPair>();
  for (const o of outcomes.filter((x) => x.kind === "remove-rival")) {
    const record = byKey.get(trialKey(o.case_id, o.trial));
    if (record === undefined || record.selected === null) continue;
    const acceptable = [...record.acceptable].sort().join("|");
    const key = `${acceptable}\u0000${record.selected}`;
    const pair = pairs.get(key) ?? { acceptable, rival: record.selected, failures: 0, recovered: 0 };
    pair.failures += 1;
    pair.recovered += o.flip_rate;
    pairs.set(key, pair);
  }
  return [...pairs.values()].sort((a, b) => b.recovered - a.recovered || b.failures - a.failures || a.rival.localeCompare(b.rival)).slice(0, MAX_PAIRS);
}
