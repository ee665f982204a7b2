/**
 * Every metric of docs/metrics.md, base vs current: values, delta, direction-aware change, and two
 * paired tests — a sign test over the shared cases whose own value moved, and exact McNemar over
 * trial pairs (same case, same trial index) in the metric's population in both runs.
 */
import { EPSILON } from "../types/diff.js";
import { isRateName, RATE_NAMES, RATES, type Direction } from "../types/rates.js";
import { compareKeys } from "../render/format.js";
import type { Metrics, Rate } from "../types.js";
import type { Change, MetricDelta, MetricValue, PairedTest } from "../types/diff.js";
import { pairedTest } from "./mcnemar.js";
import { CALL_SET_GATES, CALL_SET_LABELS } from "../gates/gate-names.js";
import type { TrialOutcomes } from "./trial-outcomes.js";

/** One run's evidence: its metrics, each metric's value per case, and per-trial outcomes. */
export interface RunEvidence {
  metrics: Metrics;
  /** metric → case id → the case's own value of it. */
  caseValues: Map<string, Map<string, number>>;
  /** `case\u0000trial` → outcomes; null when the run has no records. */
  trialOutcomes: Map<string, TrialOutcomes> | null;
}

export interface MetricSpec {
  metric: string;
  label: string;
  direction: Direction;
  pick: (m: Metrics) => MetricValue;
  /** The rate behind the value (its interval and case count); absent for consistency and mean visible. */
  rate?: (m: Metrics) => Rate | undefined;
}

function fromRate(rate: Rate | undefined): MetricValue {
  if (rate === undefined) return { value: null, numerator: null, denominator: null };
  return { value: rate.value, numerator: rate.numerator, denominator: rate.denominator };
}

function fromNumber(value: number | null): MetricValue {
  return { value, numerator: null, denominator: null };
}

/** Consistency is a mean over cases: its numerator is the sum of the per-case shares, its denominator the cases. */
function consistencyOf(m: Metrics): MetricValue {
  const cases = m.pass_hat_k["1"]?.denominator ?? null;
  if (m.consistency === null || cases === null) return fromNumber(m.consistency);
  return { value: m.consistency, numerator: m.consistency * cases, denominator: cases };
}

function keysOf(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort(compareKeys);
}

/** Rates in report order (recall@k after discovery), then pass^k, pass@k, consistency, mean visible. */
export function listMetrics(base: Metrics, current: Metrics): MetricSpec[] {
  const specs: MetricSpec[] = [];
  for (const field of RATE_NAMES) {
    specs.push({
      metric: field,
      label: RATES[field].label,
      direction: RATES[field].better,
      pick: (m) => fromRate(m[field]),
      rate: (m) => m[field],
    });
    if (field !== "discovery_recall") continue;
    for (const k of keysOf(base.tool_recall_at_k, current.tool_recall_at_k)) {
      const rate = (m: Metrics): Rate | undefined =>
        Object.hasOwn(m.tool_recall_at_k, k) ? m.tool_recall_at_k[k] : undefined;
      specs.push({
        metric: `tool_recall_at_k.${k}`,
        label: `discovery rate (k=${k})`,
        direction: "higher",
        pick: (m) => fromRate(rate(m)),
        rate,
      });
    }
  }
  for (const [field, label] of [
    ["pass_hat_k", "pass^"],
    ["pass_at_k", "pass@"],
  ] as const) {
    for (const k of keysOf(base[field], current[field])) {
      const rate = (m: Metrics): Rate | undefined =>
        Object.hasOwn(m[field], k) ? m[field][k] : undefined;
      specs.push({
        metric: `${field}.${k}`,
        label: `${label}${k}`,
        direction: "higher",
        pick: (m) => fromRate(rate(m)),
        rate,
      });
    }
  }
  if (base.conversations !== undefined || current.conversations !== undefined) {
    const rate = (m: Metrics): Rate | undefined => m.conversations?.success;
    specs.push({
      metric: "conversation_success",
      label: "conversation success",
      direction: "higher",
      pick: (m) => fromRate(rate(m)),
      rate,
    });
  }
  if (base.call_sets !== undefined || current.call_sets !== undefined) {
    for (const metric of CALL_SET_GATES) {
      const label = CALL_SET_LABELS[metric];
      const rate = (m: Metrics): Rate | undefined => m.call_sets?.[metric];
      specs.push({ metric, label, direction: "higher", pick: (m) => fromRate(rate(m)), rate });
    }
  }
  specs.push({
    metric: "consistency",
    label: "consistency",
    direction: "higher",
    pick: consistencyOf,
  });
  specs.push({
    metric: "mean_visible",
    label: "mean visible set size",
    direction: "neutral",
    pick: (m) => fromNumber(m.mean_visible),
  });
  return specs;
}

export function judgeChange(direction: Direction, delta: number | null): Change {
  if (delta === null) return "unmeasured";
  if (Math.abs(delta) < EPSILON) return "unchanged";
  if (direction === "neutral") return "changed";
  return delta > 0 === (direction === "higher") ? "improved" : "regressed";
}

/** Sign test over the cases valued in both runs; null when the metric has no per-case values. */
export function testCases(
  metric: string,
  base: RunEvidence,
  current: RunEvidence,
): PairedTest | null {
  const before = base.caseValues.get(metric);
  const after = current.caseValues.get(metric);
  if (before === undefined || after === undefined) return null;
  let up = 0;
  let down = 0;
  let pairs = 0;
  for (const [caseId, old] of before) {
    const now = after.get(caseId);
    if (now === undefined) continue;
    pairs += 1;
    if (now > old + EPSILON) up += 1;
    else if (now < old - EPSILON) down += 1;
  }
  return pairedTest(up, down, pairs);
}

/** Trial outcomes paired by case and trial index; null when either run has no records. */
export function pairTrials(
  base: RunEvidence,
  current: RunEvidence,
): [TrialOutcomes, TrialOutcomes][] | null {
  if (base.trialOutcomes === null || current.trialOutcomes === null) return null;
  const pairs: [TrialOutcomes, TrialOutcomes][] = [];
  for (const [key, outcomes] of base.trialOutcomes) {
    const other = current.trialOutcomes.get(key);
    if (other !== undefined) pairs.push([outcomes, other]);
  }
  return pairs;
}

/** McNemar over trial pairs in the metric's population in both runs; null without records. */
export function testTrials(
  metric: string,
  pairs: [TrialOutcomes, TrialOutcomes][] | null,
): PairedTest | null {
  if (pairs === null || !isTrialMetric(metric)) return null;
  let up = 0;
  let down = 0;
  let count = 0;
  for (const [before, after] of pairs) {
    const old = before.get(metric);
    const now = after.get(metric);
    if (old === undefined || now === undefined) continue;
    count += 1;
    if (now && !old) up += 1;
    else if (old && !now) down += 1;
  }
  return pairedTest(up, down, count);
}

/** Metrics that are per-trial outcomes (rates), as opposed to per-case estimates (or, for a call set's recall and precision, per call). */
function isTrialMetric(metric: string): boolean {
  return (
    isRateName(metric) || metric.startsWith("tool_recall_at_k.") || metric === "call_set_exact"
  );
}

export function computeMetricDeltas(base: RunEvidence, current: RunEvidence): MetricDelta[] {
  const pairs = pairTrials(base, current);
  return listMetrics(base.metrics, current.metrics).map((spec) => {
    const before = spec.pick(base.metrics);
    const after = spec.pick(current.metrics);
    const delta = before.value === null || after.value === null ? null : after.value - before.value;
    return {
      metric: spec.metric,
      label: spec.label,
      direction: spec.direction,
      base: before,
      current: after,
      delta,
      change: judgeChange(spec.direction, delta),
      cases: testCases(spec.metric, base, current),
      trials: testTrials(spec.metric, pairs),
    };
  });
}
