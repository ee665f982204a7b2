/**
 * Finished variant runs → the experiment's numbers: one table of every metric (variants as
 * columns, each value with its evidence and interval), and each variant against its reference
 * with exactly the paired statistics `route-eval diff` computes for those two run directories.
 */
import { compareRuns, type DiffInput } from "../diff/compare-runs.js";
import { holm } from "../diff/case-noise.js";
import { listMetrics } from "../diff/metric-deltas.js";
import { CORRECT, formatPercent, MISSING, pIs } from "../render/format.js";
import { formatDelta } from "../diff/format-diff.js";
import { STAGES, trialKey, type Metrics, type Report, type TrialRecord } from "../types.js";
import type {
  Comparison,
  Experiment,
  FailureProfile,
  MetricRow,
  TrialEnd,
  Transition,
  Verdict,
  VariantValue,
} from "../types/ablate.js";

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
  const tokens = estimated
    ? "mean input tokens (estimated where the endpoint reported none)"
    : "mean input tokens";
  rows.push({
    metric: "input_tokens",
    label: tokens,
    direction: "neutral",
    values: all.map((m) => plain(m.input_tokens.mean)),
  });
  rows.push({
    metric: "latency_ms",
    label: "mean latency (ms)",
    direction: "neutral",
    values: runs.map((r) => plain(meanLatency(r.records))),
  });
  return rows;
}

function plain(value: number | null): VariantValue {
  return { value, numerator: null, denominator: null, ci: null, cases: null };
}

function meanLatency(records: TrialRecord[]): number | null {
  const scored = records.filter((r) => r.error === null);
  return scored.length === 0
    ? null
    : scored.reduce((sum, r) => sum + (r.latency_ms ?? 0), 0) / scored.length;
}

export function profileOf(metrics: Metrics): FailureProfile {
  const failed = STAGES.reduce((sum, stage) => sum + metrics.failure_profile[stage], 0);
  return {
    trials: metrics.trials,
    errored: metrics.errored,
    correct: metrics.scored - failed,
    stages: { ...metrics.failure_profile },
  };
}

/** A Metrics whose keyed families (recall@k, pass^k, pass@k) hold every key any variant has: the rows' union. */
function unionKeys(all: Metrics[]): Metrics {
  const merge = <K extends "tool_recall_at_k" | "pass_hat_k" | "pass_at_k">(field: K) =>
    Object.assign({}, ...all.map((m) => m[field])) as Metrics[K];
  return {
    ...all[0],
    tool_recall_at_k: merge("tool_recall_at_k"),
    pass_hat_k: merge("pass_hat_k"),
    pass_at_k: merge("pass_at_k"),
  };
}

/** The variant against its reference, as `route-eval diff REFERENCE VARIANT` would pair them. */
export function compareVariant(reference: VariantRun, variant: VariantRun): Comparison {
  const input = (run: VariantRun): DiffInput => ({
    label: run.label,
    report: run.report,
    records: run.records,
  });
  const diff = compareRuns(input(reference), input(variant), { force: true, alpha: ALPHA });
  const before = reference.report.metrics.failure_profile;
  const after = variant.report.metrics.failure_profile;
  const transitions = countTransitions(reference.records, variant.records);
  const test = diff.metrics.find((m) => m.metric === "end_to_end_accuracy")?.cases ?? null;
  const scored = variant.report.metrics.scored;
  // Alone, this comparison is a family of one; adjustVerdicts applies Holm across the experiment's.
  const judged = judge(test, 1, diff.power.min_case_change, diff.power.cases, scored);
  return {
    variant: variant.name,
    reference: reference.name,
    outcome: diff.outcome,
    power: diff.power,
    metrics: diff.metrics,
    fixed: diff.flips.filter((f) => f.kind === "fixed").map((f) => f.case_id),
    broken: diff.flips.filter((f) => f.kind === "regressed").map((f) => f.case_id),
    confusions: diff.confusions,
    profile: STAGES.map((stage) => ({
      stage,
      reference: before[stage],
      variant: after[stage],
      delta: after[stage] - before[stage],
    })),
    transitions,
    movement: describeMovement(transitions),
    verdict: judged.verdict,
    because: judged.because,
    p_holm: test === null ? null : test.p_value,
    regressed_beyond_noise: diff.noise.regressed,
    notes: [...diff.comparability.notes, ...diff.scope.notes],
  };
}

/**
 * The verdicts of every comparison of one experiment, Holm-adjusted across them: each rests on
 * its sign test over cases, and a family of m comparisons at p < alpha each would call chance
 * "helped" or "hurt" up to m times as often. Each verdict names the correction.
 */
export function adjustVerdicts(
  comparisons: Comparison[],
  scoredOf: (variant: string) => number,
): void {
  const tests = comparisons.map(
    (c) => c.metrics.find((m) => m.metric === "end_to_end_accuracy")?.cases ?? null,
  );
  const present = tests.flatMap((t, i) => (t === null ? [] : [{ i, p: t.p_value }]));
  const adjusted = holm(present.map((x) => x.p));
  const holmOf = new Map(present.map((x, j) => [x.i, adjusted[j]]));
  comparisons.forEach((c, i) => {
    const judged = judge(
      tests[i],
      comparisons.length,
      c.power.min_case_change,
      c.power.cases,
      scoredOf(c.variant),
      holmOf.get(i),
    );
    c.verdict = judged.verdict;
    c.because = judged.because;
    c.p_holm = holmOf.get(i) ?? null;
  });
}

/** How the numbers were computed, and how the verdicts correct for the number of comparisons. */
export function methodNote(e: Experiment): string {
  const family =
    e.comparisons.length > 1
      ? `, Holm-adjusted across the ${e.comparisons.length} comparisons`
      : "";
  return `intervals: 95%, case-clustered; the metric table gives each variant's own population, the deltas each pair's common trials (paired); verdicts: exact sign test over cases of end-to-end accuracy at p < 0.05${family}; every metric's own paired tests (experiment.json, --format markdown) are unadjusted`;
}

/**
 * A comparison's delta of one rate on the pair's common population — the trial pairs in the
 * rate's population in both runs, (up − down) / pairs — so a conditional rate does not move
 * because its population did ("+4.2 pts (216 paired)"). Without paired trials, diff's delta of
 * the two runs' own figures. Each variant's full-population figure is in the metric table.
 */
export function deltaOf(c: Comparison, metric: string): string {
  const row = c.metrics.find((m) => m.metric === metric);
  if (row === undefined) return MISSING;
  const pairs = row.trials;
  if (pairs === null || pairs.pairs === 0 || row.base.denominator === null) return formatDelta(row);
  return `${formatDelta({ ...row, delta: (pairs.up - pairs.down) / pairs.pairs })} (${pairs.pairs} paired)`;
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
  return [...counts.values()].sort(
    (a, b) =>
      b.trials - a.trials ||
      order.indexOf(a.from) - order.indexOf(b.from) ||
      order.indexOf(a.to) - order.indexOf(b.to),
  );
}

function trials(n: number): string {
  return `${n} trial${n === 1 ? "" : "s"}`;
}

/** "moved 14 selection failures to correct; broke 2 correct trials at exposure; moved 3 selection failures to exposure". */
export function describeMovement(transitions: Transition[]): string {
  if (transitions.length === 0) return "no trial changed where it ended";
  const parts = transitions.map((t) => {
    const failures = `${t.trials} ${t.from} failure${t.trials === 1 ? "" : "s"}`;
    if (t.from === CORRECT)
      return `broke ${trials(t.trials)} (now ${t.to === "errored" ? "errored" : `${t.to} failures`})`;
    if (t.from === "errored")
      return `scored ${trials(t.trials)} that had errored (now ${t.to === CORRECT ? "correct" : `${t.to} failures`})`;
    if (t.to === CORRECT) return `moved ${failures} to correct`;
    if (t.to === "errored") return `lost ${failures} to errors`;
    return `turned ${failures} into ${t.to} failures`;
  });
  return parts.join("; ");
}

/**
 * The verdict rests on the sign test over cases of end-to-end accuracy (each case's own share of
 * correct trials; the case is the unit, so repeated trials of a deterministic endpoint do not
 * count as evidence twice), Holm-adjusted across the experiment's `family` comparisons. Without a
 * significant move it says what the budget could detect. A variant with no scored trial is never
 * judged "no detectable change": it is "unmeasured", which --fail-if-worse fails.
 */
function judge(
  test: Comparison["outcome"]["cases"] | null,
  family: number,
  minChange: number | null,
  cases: number,
  scored: number,
  pHolm?: number,
): { verdict: Verdict; because: string } {
  if (scored === 0)
    return {
      verdict: "unmeasured",
      because: "the variant scored no trial (every one errored, or none ran): nothing to judge",
    };
  const p = pHolm ?? test?.p_value ?? 1;
  const correction = family > 1 ? `, Holm-adjusted across ${family} comparisons` : "";
  const shown = (value: number) => (family > 1 ? `Holm ${pIs(value)}` : pIs(value));
  if (test !== null && test.up + test.down > 0 && p < ALPHA) {
    const verdict: Verdict = test.up > test.down ? "helped" : "hurt";
    return {
      verdict,
      because: `${test.up} cases up, ${test.down} down of ${test.pairs} (sign test over cases${correction}, ${shown(p)})`,
    };
  }
  const moved =
    test === null
      ? ""
      : `${test.up} cases up, ${test.down} down of ${test.pairs} (sign test over cases${correction}, ${shown(p)}); `;
  const reach =
    minChange === null
      ? `with ${cases} case${cases === 1 ? "" : "s"} no change can reach p < ${ALPHA}`
      : `at this budget a change is detectable only when at least ${formatPercent(minChange)} (${Math.round(minChange * cases)}/${cases}) of the cases move, all the same way`;
  return { verdict: "no detectable change", because: `${moved}${reach}` };
}
