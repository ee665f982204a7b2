/**
 * Diff gates for CI: `--max-drop [METRIC=]TOLERANCE` (the largest allowed move in the worse
 * direction, as a fraction: 0.02 = 2 percentage points) and `--fail-on-regressed-case`. With
 * `significantOnly`, a drop beyond tolerance fails only when its paired test is significant.
 */
import { describeCaseTest, pIs, formatValue, plural } from "../render/format.js";
import { isRateName, RATE_NAMES, RATES } from "../types/rates.js";
import { InputError } from "../errors.js";
import { CALL_SET_GATES, isCallSetGate } from "./gate-names.js";
import {
  type Diff,
  type GateCheck,
  type MetricDelta,
  type PairedTest,
  EPSILON,
} from "../types/diff.js";

export const DEFAULT_DROP_METRIC = "selection_accuracy";

export interface DropRule {
  metric: string;
  tolerance: number;
}

export interface GateOptions {
  maxDrops: DropRule[];
  failOnRegressedCase: boolean;
  significantOnly: boolean;
  alpha: number;
}

const NAMED_PATTERN =
  /^(tool_recall_at_k\.(all|[1-9]\d*)|pass_hat_k\.[1-9]\d*|pass_at_k\.[1-9]\d*|consistency)$/;
const MAX_LISTED = 10;

function isGateable(metric: string): boolean {
  if (isCallSetGate(metric)) return true;
  return isRateName(metric) ? RATES[metric].better !== "neutral" : NAMED_PATTERN.test(metric);
}

/** "0.02" → selection_accuracy; "end_to_end_accuracy=0.05"; "pass_hat_k.3=0.1". */
export function parseDropRule(text: string): DropRule {
  const eq = text.lastIndexOf("=");
  const metric = eq === -1 ? DEFAULT_DROP_METRIC : text.slice(0, eq).trim();
  const raw = eq === -1 ? text.trim() : text.slice(eq + 1).trim();
  const tolerance = raw === "" ? NaN : Number(raw);
  if (!Number.isFinite(tolerance) || tolerance < 0 || tolerance > 1) {
    throw new InputError(
      `--max-drop ${text}: expected a tolerance between 0 and 1 (a fraction: 0.02 = 2 points), optionally after METRIC=`,
    );
  }
  if (!isGateable(metric)) {
    const neutral = isRateName(metric) || metric === "mean_visible";
    const why = neutral
      ? `"${metric}" has no better direction, so a drop is not a regression`
      : `unknown metric "${metric}"`;
    const known = [
      ...RATE_NAMES.filter((f) => RATES[f].better !== "neutral"),
      "tool_recall_at_k.<k>",
      "pass_hat_k.<k>",
      "pass_at_k.<k>",
      "consistency",
      ...CALL_SET_GATES,
    ];
    throw new InputError(`--max-drop ${text}: ${why}; gateable metrics: ${known.join(", ")}`);
  }
  return { metric, tolerance };
}

function points(fraction: number): string {
  return `${(Math.abs(fraction) * 100).toFixed(1)} points`;
}

/**
 * Why a significance-gated drop can never fail — even every pair falling would not reach α — with
 * the pairs it would need; null when it can.
 */
function vacuousDrop(test: PairedTest | null, alpha: number): string | null {
  if (test === null) return null;
  // Every pair falling is the paired test's best case: exact McNemar p = 2 · 2⁻ⁿ (diff/mcnemar.ts).
  const best = (n: number) => Math.min(1, 2 * 0.5 ** n);
  if (best(test.pairs) < alpha) return null;
  let needed = test.pairs + 1;
  while (best(needed) >= alpha) needed += 1;
  return `even all ${plural(test.pairs, "pair")} falling would not be significant at α ${alpha} (needs ≥ ${needed} paired units)`;
}

/** How far the metric moved in its worse direction (negative when it improved). */
function worsening(row: MetricDelta, delta: number): number {
  return row.direction === "lower" ? delta : -delta;
}

function checkDrop(rule: DropRule, diff: Diff, options: GateOptions): GateCheck {
  const name = `max-drop ${rule.metric}=${rule.tolerance}`;
  const row = diff.metrics.find((m) => m.metric === rule.metric);
  if (row === undefined || row.delta === null) {
    const side =
      row === undefined || (row.base.value === null && row.current.value === null)
        ? "either run"
        : row.base.value === null
          ? "BASE"
          : "CURRENT";
    return {
      rule: name,
      passed: false,
      reason: `${rule.metric}: not measured in ${side} (no trials in its population), so the drop cannot be checked`,
    };
  }
  const worse = worsening(row, row.delta);
  const moved = `${rule.metric} ${formatValue(row, row.base)} → ${formatValue(row, row.current)}`;
  const test = row.cases ?? row.trials;
  // With --significant-only, a gate whose test can never reach α cannot fail, whatever moved.
  const vacuous = options.significantOnly ? vacuousDrop(test, options.alpha) : null;
  if (vacuous !== null)
    return {
      rule: name,
      passed: true,
      reason: `${moved}; with --significant-only this gate cannot fail: ${vacuous}`,
      not_evaluable: vacuous,
    };
  if (worse <= rule.tolerance + EPSILON) {
    const how =
      worse > EPSILON
        ? `${points(worse)} worse, within the ${points(rule.tolerance)} allowed`
        : worse < -EPSILON
          ? `${points(worse)} better`
          : "unchanged";
    return { rule: name, passed: true, reason: `${moved}: ${how}` };
  }
  const over = `${moved}: ${points(worse)} worse, more than the ${points(rule.tolerance)} allowed`;
  if (options.significantOnly && test !== null && test.p_value >= options.alpha) {
    return {
      rule: name,
      passed: true,
      reason: `${over}, but not significant (${pIs(test.p_value)} ≥ ${options.alpha})`,
    };
  }
  return {
    rule: name,
    passed: false,
    reason: test === null ? over : `${over} (${pIs(test.p_value)})`,
  };
}

function listed(ids: string[]): string {
  const shown = ids.slice(0, MAX_LISTED).join(", ");
  return ids.length > MAX_LISTED ? `${shown}, … ${ids.length - MAX_LISTED} more` : shown;
}

/**
 * A case regresses when its drop is beyond its own trial noise: the one-sided exact test on its
 * trials, Holm-adjusted across the cases tested, below alpha. Quarantined cases are never gated.
 * Flips within noise are named in the reason, with what the trials could show at best.
 */
function checkRegressedCases(diff: Diff): GateCheck {
  const rule = "fail-on-regressed-case";
  const noise = diff.noise;
  const method = `exact test per case, Holm across ${plural(noise.tested, "case")}, α ${noise.alpha}`;
  const byId = new Map(diff.flips.map((f) => [f.case_id, f]));
  const counts = (id: string) => describeCaseTest(byId.get(id), id);
  if (noise.regressed.length > 0)
    return {
      rule,
      passed: false,
      reason: `${plural(noise.regressed.length, "case")} regressed beyond trial noise (${method}): ${listed(noise.regressed.map(counts))}`,
    };
  // A quarantined case that collapsed is not gated, and is named in every reason, never quiet.
  const collapsed = diff.flips
    .filter((f) => f.quarantined === true && f.test?.beyond_noise === true)
    .map((f) => counts(f.case_id));
  const loud =
    collapsed.length === 0
      ? ""
      : ` — but ${plural(collapsed.length, "quarantined case")} collapsed beyond trial noise, not gated while quarantined: ${listed(collapsed)}`;
  const within = noise.within_noise.filter((id) => byId.get(id)?.quarantined !== true);
  const flipped =
    within.length === 0
      ? ""
      : `; ${plural(within.length, "case")} went from pass to fail within noise: ${listed(within.map(counts))}`;
  if (noise.best_reachable !== null && noise.best_reachable >= noise.alpha) {
    // Vacuous: even a case going from all its trials correct to none could not reach α.
    const needs = `needs ≥ ${noise.trials_needed} trials per case on each side`;
    return {
      rule,
      passed: true,
      reason: `cannot fail with these trials: the most a case can reach is Holm ${pIs(noise.best_reachable)} ≥ α ${noise.alpha} (${method}) — run more trials, or diff --remeasure-base N${flipped}${loud}`,
      not_evaluable: needs,
    };
  }
  return {
    rule,
    passed: true,
    reason: `no case regressed beyond trial noise (${method})${flipped}${loud}`,
  };
}

/** The checks in the order given: drops first, then regressed cases. */
export function evaluateDiffGates(diff: Diff, options: GateOptions): GateCheck[] {
  return [
    ...options.maxDrops.map((rule) => checkDrop(rule, diff, options)),
    ...(options.failOnRegressedCase ? [checkRegressedCases(diff)] : []),
  ];
}

/** The diff with its gates evaluated and its verdict set ("fail" when any gate failed). */
export function applyDiffGates(diff: Diff, options: GateOptions): Diff {
  diff.gates = evaluateDiffGates(diff, options);
  diff.verdict = diff.gates.every((g) => g.passed) ? "pass" : "fail";
  return diff;
}
