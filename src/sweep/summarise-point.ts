import { maxOf, minOf } from "../text/extremes.js";
import { type Report, type TrialRecord, isControl } from "../types.js";
import type { SweepKind, SweepPoint, SweepReport } from "../types/sweep.js";
import { findThreshold, withInterval } from "./thresholds.js";

/** Nearest-rank percentile of sorted values; null when empty. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/**
 * Each case's true visible ordinary count (from its first trial: every trial of a case sees the
 * same set). With tool search, the catalogue behind it: the deferred and the always-loaded tools.
 */
export function countVisiblePerCase(records: TrialRecord[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of [...records].sort((a, b) => a.trial - b.trial)) {
    if (counts.has(record.case_id)) continue;
    const search = record.search;
    counts.set(
      record.case_id,
      search === undefined
        ? record.retrieved_names.filter((name) => !isControl(name)).length
        : search.deferred + search.always_loaded.length,
    );
  }
  return counts;
}

/** One point of a sweep from its report and records. */
export function summarisePoint(
  value: number,
  run: string,
  report: Report,
  records: TrialRecord[],
  trials: number,
): SweepPoint {
  const m = report.metrics;
  const perCase = countVisiblePerCase(records);
  const sizes = [...perCase.values()];
  const latencies = records
    .flatMap((r) => (r.error === null && r.latency_ms !== null ? [r.latency_ms] : []))
    .sort((a, b) => a - b);
  const passHat = m.pass_hat_k[String(trials)];
  return {
    value,
    run,
    visible: {
      mean: sizes.length === 0 ? null : sizes.reduce((sum, n) => sum + n, 0) / sizes.length,
      min: sizes.length === 0 ? null : minOf(sizes, 0),
      max: sizes.length === 0 ? null : maxOf(sizes, 0),
    },
    capped_cases: [...perCase]
      .filter(([, n]) => n < value)
      .map(([id]) => id)
      .sort(),
    cases: report.cases.length,
    trials: m.trials,
    scored: m.scored,
    errored: m.errored,
    selection_accuracy: m.selection_accuracy,
    end_to_end_accuracy: m.end_to_end_accuracy,
    abstention_accuracy: m.abstention_accuracy,
    violation_rate: m.violation_rate,
    argument_validity: m.argument_validity,
    tool_recall: m.discovery_recall,
    pass_hat_k: passHat === undefined ? null : { k: trials, mean: passHat },
    selection_by_case: Object.fromEntries(
      report.cases.map((row) => [
        row.case_id,
        [row.correct, row.correct + (row.stages.selection ?? 0)],
      ]),
    ),
    retrieval: m.retrieval,
    input_tokens: m.input_tokens,
    latency_ms: { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) },
  };
}

/** A size sweep's N90 and N50, against each point's true mean visible size, with case-bootstrap intervals; a k sweep has none. */
export function thresholdsOf(
  kind: SweepKind,
  points: SweepPoint[],
  seed = 1,
): SweepReport["thresholds"] {
  if (kind !== "size") return null;
  const curve = points.map((p) => ({
    x: p.visible.mean ?? p.value,
    y: p.selection_accuracy.value,
  }));
  return {
    n90: withInterval(findThreshold(curve, 0.9), points, seed),
    n50: withInterval(findThreshold(curve, 0.5), points, seed),
  };
}
