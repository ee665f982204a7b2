/**
 * Adaptive trials: each case sampled, one trial at a time, until the anytime-valid test of
 * adaptive-test.ts decides it against the target θ (pass: its success probability is above θ;
 * fail: below), or until max_trials (undecided). Rounds: every undecided case asks its next trial,
 * then each is decided again from its outcomes in trial order — a pure function of the records,
 * so a resumed or replayed run stops every case where it stopped before.
 */
import { InputError } from "../errors.js";
import { SPEC_PATTERN } from "../gates/gate-names.js";
import type { AdaptiveCase, AdaptivePlanInfo, AdaptiveSummary } from "../types/report.js";
import type { Config, Success } from "../types.js";
import { OUTCOME, SCORED, type CaseTally } from "./case-tally.js";
import type { RecordTally } from "./record-tally.js";
import { decideCase, trialsToCertifyPass } from "./e-process.js";
import { metricsOfCases } from "./compute-metrics.js";
import { clusterMean } from "./wilson.js";
import { isRateName } from "../types/rates.js";
import type { MeanEstimate } from "../types/metrics.js";

/** θ (the per-case success probability decided against), where it came from, α and its even split across the cases (Bonferroni), the cap. */
export type AdaptivePlan = AdaptivePlanInfo;

/** The trials each case is asked: config.trials, or null when adaptive trials ask each until it is decided. */
export function fixedTrials(config: Pick<Config, "adaptive" | "trials">): number | null {
  return config.adaptive === null ? config.trials : null;
}

/**
 * The plan of an adaptive run: θ as given, or from the gates (`trials: auto`): the success rate
 * gate (end_to_end_accuracy, or selection_accuracy / call_accuracy as `success` counts), or a
 * pass^k gate {k, min} (pass^k = pᵏ per case, so θ = min^(1/k)); the strictest when several.
 */
export function planAdaptive(
  config: Pick<Config, "adaptive" | "adaptive_alpha" | "max_trials" | "gates" | "success">,
  cases: number,
): AdaptivePlan | null {
  if (config.adaptive === null) return null;
  const { target, source } =
    config.adaptive === "auto"
      ? targetFromGates(config)
      : { target: config.adaptive, source: `adaptive ${config.adaptive}` };
  return {
    target,
    source,
    alpha: config.adaptive_alpha,
    case_alpha: config.adaptive_alpha / Math.max(1, cases),
    max_trials: config.max_trials,
  };
}

function targetFromGates(config: Pick<Config, "gates" | "success">): {
  target: number;
  source: string;
} {
  const rate = config.success === "call" ? "call_accuracy" : "selection_accuracy";
  const found: { target: number; source: string }[] = [];
  for (const [name, spec] of Object.entries(config.gates)) {
    if (typeof spec !== "string") {
      if (name === "pass_hat_k")
        found.push({
          target: spec.min ** (1 / spec.k),
          source: `gate pass_hat_k {k: ${spec.k}, min: ${spec.min}} (θ = ${spec.min}^(1/${spec.k}))`,
        });
      continue;
    }
    const match = SPEC_PATTERN.exec(spec.trim());
    if (match === null || (match[1] !== ">=" && match[1] !== ">")) continue;
    const value = Number(match[2]);
    if (!(value > 0 && value < 1)) continue;
    if (name === "end_to_end_accuracy" || name === rate)
      found.push({ target: value, source: `gate ${name} ${spec.trim()}` });
    const k = /^pass_hat_k\.(\d+)$/.exec(name);
    if (k !== null)
      found.push({
        target: value ** (1 / Number(k[1])),
        source: `gate ${name} ${spec.trim()} (θ = ${value}^(1/${k[1]}))`,
      });
  }
  if (found.length === 0) {
    throw new InputError(
      `trials: auto (adaptive: auto) decides each case against a gate, and none applies: add a gate such as end_to_end_accuracy: ">= 0.9" or pass_hat_k: {k: 3, min: 0.8}, or give the target: --adaptive 0.9`,
    );
  }
  return found.sort((a, b) => b.target - a.target)[0];
}

/** A case's scored outcomes in trial order (an errored trial is asked again on resume, not counted). */
function outcomesOf(tally: CaseTally | undefined, success: Success): boolean[] {
  if (tally === undefined) return [];
  const scored = tally.outcomes
    .filter((o) => (o & SCORED) !== 0)
    .sort((a, b) => (a >> 3) - (b >> 3));
  return scored.map((o) => (o & OUTCOME[success]) !== 0);
}

/** Per case: its verdict from its records so far (a trial correct by the run's `success`). */
function decideCases(
  caseIds: readonly string[],
  records: RecordTally,
  plan: AdaptivePlan,
  success: Success,
): Map<string, ReturnType<typeof decideCase>> {
  return new Map(
    caseIds.map((id) => [
      id,
      decideCase(outcomesOf(records.get(id), success), plan.target, plan.case_alpha),
    ]),
  );
}

/**
 * The next trial index of every case still to be asked: undecided, below max_trials. A case's
 * next trial is the first index it has no record of (an errored trial is asked again on resume,
 * which drops its record).
 */
export function nextTrials(
  caseIds: readonly string[],
  records: RecordTally,
  plan: AdaptivePlan,
  success: Success,
): Map<string, number> {
  const verdicts = decideCases(caseIds, records, plan, success);
  const next = new Map<string, number>();
  for (const id of caseIds) {
    if (verdicts.get(id)?.decision !== "undecided") continue;
    // Errored trials count as asked (a resume asks them again): the cap bounds the calls.
    const done = new Set(records.get(id)?.outcomes.map((o) => o >> 3));
    if (done.size >= plan.max_trials) continue;
    let t = 0;
    while (done.has(t)) t += 1;
    next.set(id, t);
  }
  return next;
}

/**
 * A rate with each case weighted once — the mean of the cases' own rates (cases with a population),
 * its interval over the cases — for the gates of an adaptive run, whose trials per case follow
 * the outcomes (the pooled rate counts a passing case's 60 trials against a failing case's 4).
 */
export function caseWeighted(
  cases: readonly CaseTally[],
  success: Success,
): (name: string) => MeanEstimate | undefined {
  return (name) => {
    if (!isRateName(name)) return undefined;
    const shares = cases.flatMap((c) => {
      const rate = metricsOfCases([c], success)[name];
      return rate.denominator > 0 ? [{ n: 1, sum: rate.numerator / rate.denominator }] : [];
    });
    return clusterMean(shares);
  };
}

/** The report's account of an adaptive run: each case's decision, and the calls against the fixed plan. */
export function summariseAdaptive(
  plan: AdaptivePlan,
  caseIds: readonly string[],
  records: RecordTally,
  success: Success,
): AdaptiveSummary {
  const verdicts = decideCases(caseIds, records, plan, success);
  const cases: AdaptiveCase[] = caseIds.map((case_id) => {
    const v = verdicts.get(case_id);
    return {
      case_id,
      decision: v?.decision ?? "undecided",
      trials: v?.trials ?? 0,
      correct: v?.successes ?? 0,
      e_pass: v?.e_pass ?? 1,
      e_fail: v?.e_fail ?? 1,
    };
  });
  const count = (d: AdaptiveCase["decision"]) => cases.filter((c) => c.decision === d).length;
  const used = records.count;
  const fixed = plan.max_trials * caseIds.length;
  return {
    target: plan.target,
    source: plan.source,
    alpha: plan.alpha,
    case_alpha: plan.case_alpha,
    max_trials: plan.max_trials,
    test: "one-sided beta-binomial mixture e-process per case (uniform prior on each side of θ), α split across cases",
    pass: count("pass"),
    fail: count("fail"),
    undecided: count("undecided"),
    calls: used,
    fixed_plan_calls: fixed,
    saved: fixed === 0 ? 0 : 1 - used / fixed,
    certify_pass_floor: trialsToCertifyPass(plan.target, plan.case_alpha, plan.max_trials * 10),
    cases: cases.sort((a, b) => a.case_id.localeCompare(b.case_id)),
  };
}
