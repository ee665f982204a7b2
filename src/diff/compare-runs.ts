/**
 * report × report (+ their trial records when available) → Diff. Pure: the command reads the
 * files, this decides what moved. Comparability is checked but not enforced here; the command
 * refuses incomparable runs unless forced.
 */
import { shortContentHash } from "../text/content-hash.js";
import { computeMetrics } from "../metrics/compute-metrics.js";
import { scoreRecords } from "../metrics/scored-trials.js";
import type { Metrics, TrialRecord } from "../types.js";
import { checkComparability, splitCaseIds } from "./comparability.js";
import { findConfusionMoves } from "./confusion-moves.js";
import { gatherEvidence } from "./case-values.js";
import {
  findDefinitionChanges,
  sightingsFromRecords,
  sightingsFromRows,
  type ToolSightings,
} from "./definitions.js";
import {
  DIFF_SCHEMA_VERSION,
  type Diff,
  type DiffReport,
  type DiffRunInfo,
  type MetricDelta,
} from "../types/diff.js";
import { computeFlips, countKinds, summariseReliability } from "./flips.js";
import { testCaseNoise, type NoiseOptions } from "./case-noise.js";
import { minDiscordantPairs, pairedTest } from "./mcnemar.js";
import { computeMetricDeltas } from "./metric-deltas.js";

/** One side of a diff: the path given, its report, and its trial records when it has them. */
export interface DiffInput {
  label: string;
  report: DiffReport;
  records: TrialRecord[] | null;
}

export interface CompareOptions {
  force: boolean;
  /** Significance level of the paired tests (and the power figures). */
  alpha: number;
  /** The quarantine file's cases, and the base side's remeasured trials (the per-case noise test). */
  quarantine?: NoiseOptions["quarantine"];
  remeasure?: NoiseOptions["remeasure"];
}

function describeInput(input: DiffInput): DiffRunInfo {
  const { run } = input.report;
  return {
    label: input.label,
    run_id: run.run_id,
    endpoint: run.endpoint,
    model: run.model,
    registries: run.registries.map((r) => ({ snapshot: r.snapshot, revision: r.revision })),
    cases: input.report.cases.length,
    trials: run.config.trials,
    temperature: run.config.temperature,
    discovery: run.config.discovery,
    source: input.records === null ? "report" : "records",
  };
}

/** Records of the shared cases only, when the case sets differ and both runs have records. */
function restrict(input: DiffInput, shared: Set<string>, differ: boolean): TrialRecord[] | null {
  if (input.records === null || !differ) return input.records;
  return input.records.filter((r) => shared.has(r.case_id));
}

function scopeNotes(
  base: DiffInput,
  current: DiffInput,
  differ: boolean,
  shared: number,
): string[] {
  const notes: string[] = [];
  for (const [side, input] of [
    ["BASE", base],
    ["CURRENT", current],
  ] as const) {
    if (input.records === null) {
      notes.push(
        `${side} is a report.json without records.jsonl: no per-trial tests, per-case tests only for metrics the case rows carry, blast radius from case rows`,
      );
    }
  }
  if (isDeterministic(base) && isDeterministic(current)) {
    notes.push(
      "every case chose the same tool in all its trials in both runs: trial pairs repeat each other, so per-trial p-values overstate the evidence; read the per-case test",
    );
  }
  if (differ) {
    const both = base.records !== null && current.records !== null;
    notes.push(
      both
        ? `metrics recomputed over the ${shared} shared cases`
        : "metrics are each run's own, over all its cases (without records they cannot be restricted to the shared cases)",
    );
  }
  return notes;
}

/** Several trials per case, and every case's trials agree: the trials are not independent draws. */
function isDeterministic(input: DiffInput): boolean {
  return input.report.run.config.trials > 1 && input.report.metrics.consistency === 1;
}

function sightingsOf(base: DiffInput, current: DiffInput): ToolSightings {
  if (base.records !== null && current.records !== null) {
    return {
      basis: "visible_sets",
      base: sightingsFromRecords(base.records),
      current: sightingsFromRecords(current.records),
    };
  }
  return {
    basis: "case_rows",
    base: sightingsFromRows(base.report.cases),
    current: sightingsFromRows(current.report.cases),
  };
}

interface Compared {
  base: Metrics;
  current: Metrics;
  metrics: MetricDelta[];
  recomputed: boolean;
}

/**
 * The metrics to compare and their deltas. When the case sets differ and both runs have records,
 * both sides are recomputed over the shared cases; otherwise each run's own metrics are used.
 */
function compareMetrics(
  base: DiffInput,
  current: DiffInput,
  shared: Set<string>,
  differ: boolean,
): Compared {
  const baseRecords = restrict(base, shared, differ);
  const currentRecords = restrict(current, shared, differ);
  const recomputed = differ && baseRecords !== null && currentRecords !== null;
  const baseMetrics =
    recomputed && baseRecords !== null
      ? computeMetrics(baseRecords, base.report.run.config.success)
      : base.report.metrics;
  const currentMetrics =
    recomputed && currentRecords !== null
      ? computeMetrics(currentRecords, current.report.run.config.success)
      : current.report.metrics;
  const metrics = computeMetricDeltas(
    gatherEvidence(
      baseMetrics,
      base.report.cases,
      baseRecords === null ? null : scoreRecords(baseRecords),
    ),
    gatherEvidence(
      currentMetrics,
      current.report.cases,
      currentRecords === null ? null : scoreRecords(currentRecords),
    ),
  );
  return { base: baseMetrics, current: currentMetrics, metrics, recomputed };
}

/** The smallest share of `n` pairs that must all move one way to reach p < alpha; null if none can. */
function measurePower(alpha: number, cases: number, trialPairs: number | null): Diff["power"] {
  const m = minDiscordantPairs(alpha);
  const detectable = (n: number | null): number | null =>
    n === null || m === null || n < m ? null : m / n;
  return {
    alpha,
    min_discordant: m,
    cases,
    min_case_change: detectable(cases),
    trial_pairs: trialPairs,
    min_trial_change: detectable(trialPairs),
  };
}

export function compareRuns(base: DiffInput, current: DiffInput, options: CompareOptions): Diff {
  const ids = splitCaseIds(base.report, current.report);
  const differ = ids.onlyBase.length > 0 || ids.onlyCurrent.length > 0;
  const compared = compareMetrics(base, current, new Set(ids.shared), differ);
  const flips = computeFlips(base.report.cases, current.report.cases);
  const counts = countKinds(flips);
  const pairedCases = counts.fixed + counts.regressed + counts.still_failing + counts.still_passing;
  const trials = compared.metrics.find((m) => m.metric === "end_to_end_accuracy")?.trials ?? null;
  const { definitions } = base.report.run;
  const after = current.report.run.definitions;
  const diff: Diff = {
    schema_version: DIFF_SCHEMA_VERSION,
    base: describeInput(base),
    current: describeInput(current),
    comparability: checkComparability(base.report, current.report, options.force),
    scope: {
      shared_cases: ids.shared.length,
      only_base: ids.onlyBase,
      only_current: ids.onlyCurrent,
      metrics_over: compared.recomputed ? "shared_cases" : "all_cases",
      trial_pairs: trials?.pairs ?? null,
      notes: scopeNotes(base, current, differ, ids.shared.length),
    },
    outcome: {
      flips: counts,
      cases: pairedTest(counts.fixed, counts.regressed, pairedCases),
      trials,
    },
    power: measurePower(options.alpha, pairedCases, trials?.pairs ?? null),
    metrics: compared.metrics,
    flips,
    noise: testCaseNoise(flips, {
      alpha: options.alpha,
      quarantine: options.quarantine,
      remeasure: options.remeasure,
    }),
    reliability: summariseReliability(flips),
    confusions: findConfusionMoves(
      compared.base.confusion_matrix,
      compared.current.confusion_matrix,
    ),
    definitions: {
      base_recorded: Object.keys(definitions).length > 0,
      current_recorded: Object.keys(after).length > 0,
      changes: findDefinitionChanges(definitions, after, flips, sightingsOf(base, current)),
    },
    gates: [],
    verdict: "pass",
  };
  labelContents(diff, base, current);
  return diff;
}

/**
 * A description edited without bumping the registry's revision leaves both runs with the same
 * snapshot@revision: each side's label then carries a short hash of its definitions, so the
 * header reads commerce@1 (content 3f2a9c) → commerce@1 (content 8d01e4), not the same label twice.
 */
function labelContents(diff: Diff, base: DiffInput, current: DiffInput): void {
  if (diff.definitions.changes.length === 0) return;
  const label = (r: { snapshot: string; revision: string }) => `${r.snapshot}@${r.revision}`;
  const before = new Set(diff.base.registries.map(label));
  const same = diff.current.registries.filter((r) => before.has(label(r))).map(label);
  if (same.length === 0) return;
  const tag = (input: DiffInput) => shortContentHash(input.report.run.definitions).slice(0, 6);
  for (const [info, input] of [
    [diff.base, base],
    [diff.current, current],
  ] as const)
    for (const r of info.registries) if (same.includes(label(r))) r.content = tag(input);
}
