/**
 * Finished variant runs → the experiment's numbers: one table of every metric (variants as
 * columns, each value with its evidence and interval), and each variant against its reference
 * with exactly the paired statistics `route-eval diff` computes for those two run directories.
 */
import { compareRuns, type DiffInput } from "../diff/compare-runs.js";
import { listMetrics } from "../diff/metric-deltas.js";
import { CORRECT, formatPercent, MISSING, pIs } from "../render/format.js";
import { formatDelta } from "../diff/format-diff.js";
import { STAGES, trialKey, type Metrics, type Report, type TrialRecord } from "../types.js";
import type { Comparison, FailureProfile, MetricRow, TrialEnd, Transition, Verdict, VariantValue } from "../types/ablate.js";

/** The significance level of every verdict (diff's default). */
export const ALPHA = 0.05;

/** One finished variant: its name, run directory (as labelled) and what its run wrote. */
export interface VariantRun {
  name: string;
  label: string;
  report: Pick<Report, "run" | "metrics" | "cases">;
  records: TrialRecord[];
}

/** Every metric of the report, in diff's order, then the operational means (tokens, latency). */
export function tabulateMetrics(runs: VariantRun[]): MetricRow[] {
  const all = runs.map((r) => r.report.metrics);
  const union = unionKeys(all);
  const rows: MetricRow[] = listMetrics(union, union).map((spec) => ({
    metric: spec.metric,
    label: spec.label,
    direction: spec.direction,
    values: all.map((metrics): VariantValue => {
      const value = spec.pick(metrics);
      const rate = spec.rate?.(metrics);
      return { ...value, ci: rate?.ci ?? null, cases: rate?.cases ?? null };
    }),
  }));
  const estimated = all.some((m) => m.input_tokens.estimated > 0);
  const tokens = estimated ? "mean input tokens (estimated where the endpoint reported none)" : "mean input tokens";
  rows.push({ metric: "input_tokens", label: tokens, direction: "neutral", values: all.map((m) => plain(m.input_tokens.mean)) });
  rows.push({ metric: "latency_ms", label: "mean latency (ms)", direction: "neutral", values: runs.map((r) => plain(meanLatency(r.records))) });
  return rows;
}

function plain(value: number | null): VariantValue {
  return { value, numerator: null, denominator: null, ci: null, cases: null };
}

function meanLatency(records: TrialRecord[]): number | null {
  const scored = records.filter((r) => r.error === null);
  return scored.length === 0 ? null : scored.reduce((sum, r) => sum + (r.latency_ms ?? 0), 0) / scored.length;
}

export function profileOf(metrics: Metrics): FailureProfile {
  const failed = STAGES.reduce((sum, stage) => sum + metrics.failure_profile[stage], 0);
  return { trials: metrics.trials, errored: metrics.errored, correct: metrics.scored - failed, stages: { ...metrics.failure_profile } };
}

/** A Metrics whose keyed families (recall@k, pass^k, pass@k) hold every key any variant has: the rows' union. */
function unionKeys(all: Metrics[]): Metrics {
  const merge = <K extends "tool_recall_at_k" | "pass_hat_k" | "pass_at_k">(field: K) => Object.assign({}, ...all.map((m) => m[field])) as Metrics[K];
  return { ...all[0], tool_recall_at_k: merge("tool_recall_at_k"), pass_hat_k: merge("pass_hat_k"), pass_at_k: merge("pass_at_k") };
}

/** The variant against its reference, as `route-eval diff REFERENCE VARIANT` would pair them. */
export function compareVariant(reference: VariantRun, variant: VariantRun): Comparison {
  const input = (run: VariantRun): DiffInput => ({ label: run.label, report: run.report, records: run.records });
  const diff = compareRuns(input(reference), input(variant), { force: true, alpha: ALPHA });
  const before = reference.report.metrics.failure_profile;
  const after = variant.report.metrics.failure_profile;
  const transitions = countTransitions(reference.records, variant.records);
  const judged = judge(diff.metrics.find((m) => m.metric === "end_to_end_accuracy")?.cases ?? null, diff.power.min_case_change, diff.power.cases);
  return {
    variant: variant.name,
    reference: reference.name,
    outcome: diff.outcome,
    power: diff.power,
    metrics: diff.metrics,
    fixed: diff.flips.filter((f) => f.kind === "fixed").map((f) => f.case_id),
    broken: diff.flips.filter((f) => f.kind === "regressed").map((f) => f.case_id),
    confusions: diff.confusions,
    profile: STAGES.map((stage) => ({ stage, reference: before[stage], variant: after[stage], delta: after[stage] - before[stage] })),
    transitions,
    movement: describeMovement(transitions),
    verdict: judged.verdict,
    because: judged.because,
    notes: [...diff.comparability.notes, ...diff.scope.notes],
  };
}

/** A comparison's delta of one metric as diff writes it ("+4.2 pts", "−8.3 pts", "—"). */
export function deltaOf(c: Comparison, metric: string): string {
  const row = c.metrics.find((m) => m.metric === metric);
  return row === undefined ? MISSING : formatDelta(row);
}

function endOf(record: TrialRecord): TrialEnd {
  if (record.error !== null) return "errored";
  return record.failed_stage ?? CORRECT;
}

/** Trial pairs whose end differs, largest first (ties by stage order). */
export function countTransitions(reference: TrialRecord[], variant: TrialRecord[]): Transition[] {
  const before = new Map(reference.map((r) => [trialKey(r.case_id, r.trial), endOf(r)]));
  const counts = new Map<string, Transition>();
  for (const record of variant) {
    const from = before.get(trialKey(record.case_id, record.trial));
    const to = endOf(record);
    if (from === undefined || from === to) continue;
    const key = `${from}>${to}`;
    const seen = counts.get(key) ?? { from, to, trials: 0 };
    seen.trials += 1;
    counts.set(key, seen);
  }
  const order = [...STAGES, CORRECT, "errored"];
  return [...counts.values()].sort((a, b) => b.trials - a.trials || order.indexOf(a.from) - order.indexOf(b.from) || order.indexOf(a.to) - order.indexOf(b.to));
}

function trials(n: number): string {
  return `${n} trial${n === 1 ? "" : "s"}`;
}

/** "moved 14 selection failures to correct; broke 2 correct trials at exposure; moved 3 selection failures to exposure". */
export function describeMovement(transitions: Transition[]): string {
  if (transitions.length === 0) return "no trial changed where it ended";
  const parts = transitions.map((t) => {
    const failures = `${t.trials} ${t.from} failure${t.trials === 1 ? "" : "s"}`;
    if (t.from === CORRECT) return `broke ${trials(t.trials)} (now ${t.to === "errored" ? "errored" : `${t.to} failures`})`;
    if (t.from === "errored") return `scored ${trials(t.trials)} that had errored (now ${t.to === CORRECT ? "correct" : `${t.to} failures`})`;
    if (t.to === CORRECT) return `moved ${failures} to correct`;
    if (t.to === "errored") return `lost ${failures} to errors`;
    return `turned ${failures} into ${t.to} failures`;
  });
  return parts.join("; ");
}

/**
 * The verdict rests on the sign test over cases of end-to-end accuracy (each case's own share of
 * correct trials; the case is the unit, so repeated trials of a deterministic endpoint do not
 * count as evidence twice). Without a significant move it says what the budget could detect.
 */
function judge(test: Comparison["outcome"]["cases"] | null, minChange: number | null, cases: number): { verdict: Verdict; because: string } {
  if (test !== null && test.up + test.down > 0 && test.p_value < ALPHA) {
    const verdict: Verdict = test.up > test.down ? "helped" : "hurt";
    return { verdict, because: `${test.up} cases up, ${test.down} down of ${test.pairs} (sign test over cases, ${pIs(test.p_value)})` };
  }
  const moved = test === null ? "" : `${test.up} cases up, ${test.down} down of ${test.pairs} (sign test over cases, ${pIs(test.p_value)}); `;
  const reach =
    minChange === null
      ? `with ${cases} case${cases === 1 ? "" : "s"} no change can reach p < ${ALPHA}`
      : `at this budget a change is detectable only when at least ${formatPercent(minChange)} of the ${cases} cases move, all the same way`;
  return { verdict: "no detectable change", because: `${moved}${reach}` };
}
