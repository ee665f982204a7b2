/**
 * Headroom from counterfactual records alone (plus the run's own records for the denominators):
 * per failed trial and kind, the share of repeats that came out correct; per stage, the failures
 * the fix turns correct and the end-to-end accuracy the run would reach; for selection, what the
 * failures are explained by; and the rival pairs whose removal recovers the most.
 */
import { rivalOf } from "../classify/call-set.js";
import { clusterRate, differenceInterval, type ClusterTally } from "../metrics/wilson.js";
import { STAGES, trialKey, type Rate, type TrialRecord } from "../types.js";
import {
  COUNTERFACTUAL_KINDS,
  FIX_KINDS,
  type ArmHeadroom,
  type CounterfactualKind,
  type CounterfactualOutcome,
  type FixKind,
  type RivalPair,
  type SelectionBreakdown,
  type SelectionExplanation,
  type StageHeadroom,
} from "../types/counterfactual.js";

const NO_CALL = "(no call)";
const MAX_PAIRS = 10;

/** Counterfactual records grouped into one outcome per (failed trial, kind), in the run's order. */
export function summariseOutcomes(
  original: TrialRecord[],
  counterfactual: TrialRecord[],
): CounterfactualOutcome[] {
  const stageOf = new Map(original.map((r) => [trialKey(r.case_id, r.trial), r.failed_stage]));
  const groups = new Map<string, CounterfactualOutcome>();
  for (const record of counterfactual) {
    const info = record.counterfactual;
    if (info === undefined || record.error !== null) continue;
    const key = `${trialKey(info.of.case_id, info.of.trial)}\u0000${info.kind}`;
    let outcome = groups.get(key);
    if (outcome === undefined) {
      const stage = stageOf.get(trialKey(info.of.case_id, info.of.trial)) ?? "selection";
      outcome = {
        case_id: info.of.case_id,
        trial: info.of.trial,
        stage: stage ?? "selection",
        kind: info.kind,
        repeats: 0,
        correct: 0,
        flip_rate: 0,
        selections: {},
      };
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
  return out.sort(
    (a, b) =>
      (order.get(trialKey(a.case_id, a.trial)) ?? 0) -
        (order.get(trialKey(b.case_id, b.trial)) ?? 0) ||
      COUNTERFACTUAL_KINDS.indexOf(a.kind) - COUNTERFACTUAL_KINDS.indexOf(b.kind),
  );
}

/** Each failed trial's outcomes by kind. */
function byTrial(
  outcomes: CounterfactualOutcome[],
): Map<string, Map<CounterfactualKind, CounterfactualOutcome>> {
  const out = new Map<string, Map<CounterfactualKind, CounterfactualOutcome>>();
  for (const o of outcomes) {
    const key = trialKey(o.case_id, o.trial);
    const kinds = out.get(key) ?? new Map<CounterfactualKind, CounterfactualOutcome>();
    kinds.set(o.kind, o);
    out.set(key, kinds);
  }
  return out;
}

/** A Rate whose value may be negative: a difference, with its interval. */
function difference(
  numerator: number,
  denominator: number,
  ci: [number, number] | null,
  cases: number,
): Rate {
  return {
    numerator,
    denominator,
    value: denominator === 0 ? null : numerator / denominator,
    ci: denominator === 0 ? null : ci,
    cases,
  };
}

function scale(ci: [number, number] | null, by: number): [number, number] | null {
  return ci === null ? null : [ci[0] * by, ci[1] * by];
}

export function computeStageHeadroom(
  original: TrialRecord[],
  outcomes: CounterfactualOutcome[],
): StageHeadroom[] {
  const scored = original.filter((r) => r.error === null);
  const cases = [...new Set(scored.map((r) => r.case_id))];
  const trialsOf = new Map<string, number>();
  const correctOf = new Map<string, number>();
  for (const r of scored) {
    trialsOf.set(r.case_id, (trialsOf.get(r.case_id) ?? 0) + 1);
    if (r.failed_stage === null) correctOf.set(r.case_id, (correctOf.get(r.case_id) ?? 0) + 1);
  }
  const now = clusterRate(
    cases.map((c) => ({ n: trialsOf.get(c) ?? 0, s: correctOf.get(c) ?? 0 })),
  );
  const trials = [...byTrial(outcomes).values()];
  return STAGES.map((stage): StageHeadroom => {
    const mine = trials.filter((kinds) => [...kinds.values()][0].stage === stage);
    const arms = FIX_KINDS.flatMap((kind) => {
      const paired = mine.flatMap((kinds) => {
        const fix = kinds.get(kind);
        const placebo = kinds.get("placebo");
        return fix === undefined || placebo === undefined
          ? []
          : [{ case_id: fix.case_id, fix: fix.flip_rate, placebo: placebo.flip_rate }];
      });
      return paired.length === 0 ? [] : [armHeadroom(kind, paired, cases, scored.length)];
    });
    const failures = scored.filter((r) => r.failed_stage === stage).length;
    const tested = mine.filter((kinds) => kinds.has("placebo") && kinds.size > 1).length;
    const best = [...arms].sort((a, b) => lowerBound(b) - lowerBound(a))[0];
    if (best === undefined) {
      return {
        stage,
        failures,
        tested,
        kind: null,
        fix: 0,
        placebo: 0,
        binding: 0,
        now,
        if_fixed: now,
        gain: difference(0, scored.length, null, cases.length),
        within_noise: true,
        arms,
      };
    }
    const net = netByCase(mine, best.kind);
    const ifFixed = clusterRate(
      cases.map((c): ClusterTally => {
        const n = trialsOf.get(c) ?? 0;
        return { n, s: Math.min(n, Math.max(0, (correctOf.get(c) ?? 0) + (net.get(c) ?? 0))) };
      }),
    );
    return {
      stage,
      failures,
      tested,
      kind: best.kind,
      fix: best.fix,
      placebo: best.placebo,
      binding: best.fix - best.placebo,
      now,
      if_fixed: ifFixed,
      gain: best.gain,
      within_noise: best.within_noise,
      arms,
    };
  });
}

function lowerBound(arm: ArmHeadroom): number {
  return arm.headroom.ci?.[0] ?? -Infinity;
}

/** Per case, the arm's flips beyond the placebo's over its tested failed trials. */
function netByCase(
  trials: Map<CounterfactualKind, CounterfactualOutcome>[],
  kind: FixKind,
): Map<string, number> {
  const net = new Map<string, number>();
  for (const kinds of trials) {
    const fix = kinds.get(kind);
    const placebo = kinds.get("placebo");
    if (fix === undefined || placebo === undefined) continue;
    net.set(fix.case_id, (net.get(fix.case_id) ?? 0) + fix.flip_rate - placebo.flip_rate);
  }
  return net;
}

function armHeadroom(
  kind: FixKind,
  paired: { case_id: string; fix: number; placebo: number }[],
  cases: string[],
  scored: number,
): ArmHeadroom {
  const tally = (value: (p: (typeof paired)[number]) => number) =>
    clusterRate(
      cases.map((c): ClusterTally => {
        const mine = paired.filter((p) => p.case_id === c);
        return { n: mine.length, s: mine.reduce((sum, p) => sum + value(p), 0) };
      }),
    );
  const fixRate = tally((p) => p.fix);
  const placeboRate = tally((p) => p.placebo);
  const fix = fixRate.numerator;
  const placebo = placeboRate.numerator;
  const ci = differenceInterval(fixRate, placeboRate);
  const tested = paired.length;
  const headroom = difference(fix - placebo, tested, ci, fixRate.cases ?? 0);
  const gain = difference(
    fix - placebo,
    scored,
    scale(ci, tested / Math.max(1, scored)),
    cases.length,
  );
  return { kind, tested, fix, placebo, headroom, gain, within_noise: ci === null || ci[0] <= 0 };
}

/**
 * The selection failures tested, each attributed to the first explanation that holds (the order
 * of SELECTION_EXPLANATIONS). A change explains a failed trial when more of its repeats come out
 * correct than of the placebo's **and** the change's arm recovers failures beyond the placebo's
 * noise at the selection stage (its headroom interval excludes 0, the test headroom uses): a
 * change that does nothing beats the placebo on some trials by chance alone, and is credited
 * with none of them — those stay chance or unexplained.
 */
export function breakDownSelection(
  outcomes: CounterfactualOutcome[],
  stages: StageHeadroom[],
): SelectionBreakdown {
  const arms = stages.find((s) => s.stage === "selection")?.arms ?? [];
  const beyondNoise = new Set(arms.filter((a) => !a.within_noise).map((a) => a.kind));
  const counts: SelectionBreakdown = {
    tested: 0,
    rival: 0,
    position: 0,
    crowding: 0,
    chance: 0,
    inseparable: 0,
    unexplained: 0,
    beyond_noise: FIX_KINDS.filter((kind) => beyondNoise.has(kind)),
  };
  for (const kinds of byTrial(outcomes.filter((o) => o.stage === "selection")).values()) {
    const placebo = kinds.get("placebo");
    if (placebo === undefined || kinds.size < 2) continue;
    counts.tested += 1;
    const beats = (kind: FixKind) =>
      beyondNoise.has(kind) && (kinds.get(kind)?.flip_rate ?? -1) > placebo.flip_rate;
    const explanation: SelectionExplanation = beats("remove-rival")
      ? "rival"
      : beats("first")
        ? "position"
        : beats("pair")
          ? "crowding"
          : placebo.flip_rate > 0
            ? "chance"
            : kinds.has("pair")
              ? "inseparable"
              : "unexplained";
    counts[explanation] += 1;
  }
  return counts;
}

/** Rival pairs of the selection failures remove-rival was asked for, the most recovered first. */
export function rankRivalPairs(
  original: TrialRecord[],
  outcomes: CounterfactualOutcome[],
): RivalPair[] {
  const byKey = new Map(original.map((r) => [trialKey(r.case_id, r.trial), r]));
  const placebos = new Map(
    outcomes
      .filter((x) => x.kind === "placebo")
      .map((o) => [trialKey(o.case_id, o.trial), o.flip_rate]),
  );
  const pairs = new Map<string, RivalPair>();
  for (const o of outcomes.filter((x) => x.kind === "remove-rival")) {
    const record = byKey.get(trialKey(o.case_id, o.trial));
    const rival = record === undefined ? null : rivalOf(record);
    if (record === undefined || rival === null) continue;
    const acceptable = [...record.acceptable].sort().join("|");
    const key = `${acceptable}\u0000${rival}`;
    const pair = pairs.get(key) ?? {
      acceptable,
      rival,
      failures: 0,
      recovered: 0,
      placebo: 0,
    };
    pair.failures += 1;
    pair.recovered += o.flip_rate;
    pair.placebo += placebos.get(trialKey(o.case_id, o.trial)) ?? 0;
    pairs.set(key, pair);
  }
  return [...pairs.values()]
    .sort(
      (a, b) =>
        b.recovered - b.placebo - (a.recovered - a.placebo) ||
        b.failures - a.failures ||
        a.rival.localeCompare(b.rival),
    )
    .slice(0, MAX_PAIRS);
}
