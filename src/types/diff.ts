/**
 * The diff of two runs, in reading order: which runs, whether they compare, how the headline
 * outcome moved, every metric's delta with its paired tests, the cases that flipped, reliability
 * classes, confusion cells that moved, definitions that changed and their blast radius, gates.
 * Serialised as diff.json: a versioned contract (`schema_version` first; a breaking change bumps it).
 */
import type { Direction } from "./rates.js";
import type { DiscoveryConfig, Effect, Report } from "../types.js";

export const DIFF_SCHEMA_VERSION = 1;

/** What a diff reads of a report: run metadata, metrics and case rows (breakdowns are not needed). */
export type DiffReport = Pick<Report, "run" | "metrics" | "cases">;

export const CHANGES = ["improved", "regressed", "unchanged", "changed", "unmeasured"] as const;
export type Change = (typeof CHANGES)[number];

/** How a case moved. A case passes when every scored trial of it is correct. */
export const FLIP_KINDS = [
  "regressed",
  "fixed",
  "still_failing",
  "new",
  "removed",
  "errored",
  "still_passing",
] as const;
export type FlipKind = (typeof FLIP_KINDS)[number];

/** Per-case reliability over its scored trials; `errored` when none was scored. */
export const RELIABILITY_CLASSES = ["always_pass", "flaky", "always_fail", "errored"] as const;
export type ReliabilityClass = (typeof RELIABILITY_CLASSES)[number];

export const DEFINITION_CHANGES = ["changed", "added", "removed"] as const;
export type DefinitionChangeKind = (typeof DEFINITION_CHANGES)[number];

/** Where a run's numbers came from: its trial records, or a report.json alone. */
export type RunSource = "records" | "report";

/** The settings two runs must share to be compared without --force. */
export const COMPARED_SETTINGS = [
  "cases",
  "trials",
  "endpoint",
  "model",
  "temperature",
  "discovery",
] as const;
export type ComparedSetting = (typeof COMPARED_SETTINGS)[number];

export interface DiffRunInfo {
  /** The path as given on the command line. */
  label: string;
  run_id: string;
  endpoint: string;
  model: string;
  /**
   * Each registry as its run recorded it; `content` (a short hash of the run's model-facing
   * definitions) only when both runs carry the same snapshot@revision but their definitions
   * differ — a description edited without bumping the revision.
   */
  registries: { snapshot: string; revision: string; content?: string }[];
  cases: number;
  trials: number;
  temperature: number;
  discovery: DiscoveryConfig;
  source: RunSource;
}

export interface Difference {
  setting: ComparedSetting;
  base: string;
  current: string;
  message: string;
}

export interface Comparability {
  comparable: boolean;
  forced: boolean;
  /** Why the runs do not compare (each one blocks without --force). */
  differences: Difference[];
  /** Differences that do not block: registry revisions, system prompt, phases, versions. */
  notes: string[];
}

export interface DiffScope {
  /** Cases present in both runs. */
  shared_cases: number;
  only_base: string[];
  only_current: string[];
  /** Whether the metrics compared are each run's own, or recomputed over the shared cases. */
  metrics_over: "all_cases" | "shared_cases";
  /** Trial pairs (same case, same trial index, both scored); null when a run has no records. */
  trial_pairs: number | null;
  notes: string[];
}

export interface MetricValue {
  value: number | null;
  /** Null for metrics that are not rates (consistency, mean visible set size). */
  numerator: number | null;
  denominator: number | null;
}

export interface MetricDelta {
  /** A gate-style name: selection_accuracy, tool_recall_at_k.8, pass_hat_k.3, consistency… */
  metric: string;
  label: string;
  direction: Direction;
  base: MetricValue;
  current: MetricValue;
  /** current − base; null when either is unmeasured. */
  delta: number | null;
  change: Change;
  /** Sign test over shared cases whose own value of the metric moved; null when unavailable. */
  cases: PairedTest | null;
  /** Exact McNemar over trial pairs in the metric's population in both runs; null without records. */
  trials: PairedTest | null;
}

export interface CaseSide {
  passed: boolean;
  reliability: ReliabilityClass;
  /** The most frequent failed stage, "correct" when none failed, "errored" when none was scored. */
  stage: string;
  scored: number;
  correct: number;
  stages: Record<string, number>;
  selections: Record<string, number>;
}

export interface CaseFlip {
  case_id: string;
  kind: FlipKind;
  base: CaseSide | null;
  current: CaseSide | null;
  /** Its drop tested against its own trial noise; null when either run scored none of its trials. */
  test?: CaseNoiseTest | null;
  /** Listed in the quarantine file: reported, never gated. */
  quarantined?: boolean;
}

/** A case's drop tested against its own trial noise. */
export interface CaseNoiseTest {
  /** The base side's trials tested: the run's, plus those --remeasure-base asked. */
  base: { correct: number; scored: number };
  current: { correct: number; scored: number };
  /** One-sided Fisher exact p that the current rate is lower, and that p Holm-adjusted across the cases tested. */
  p_value: number;
  p_holm: number;
  /** p_holm < alpha: the drop is beyond the case's trial noise. */
  beyond_noise: boolean;
}

/** The per-case noise model behind --fail-on-regressed-case. */
export interface NoiseSummary {
  test: "one-sided Fisher exact per case";
  correction: "holm";
  alpha: number;
  /** Cases in the family (scored in both runs). */
  tested: number;
  /** Cases whose drop is beyond their trial noise, quarantined ones apart (what the gate fails on). */
  regressed: string[];
  /** Cases that passed before and fail now, within their trial noise (not gated). */
  within_noise: string[];
  /** Cases whose own trials disagree with each other in either run (base remeasure included). */
  flaky: string[];
  /** Quarantined cases present in the diff, and those of them stable in both runs now (candidates to release). */
  quarantined: string[];
  stable_quarantined: string[];
  /** The smallest Holm-adjusted p any case could reach with these trials (all correct before, none after); null without cases. */
  best_reachable: number | null;
  /** When no case can reach α (best_reachable ≥ α): the trials per case, on each side, with which one could. */
  trials_needed: number | null;
  /** Extra trials per case asked of the base side by --remeasure-base; null when not asked. */
  remeasured: number | null;
  /** The quarantine file read, if any. */
  quarantine_file: string | null;
}

export interface ReliabilitySummary {
  base: Record<ReliabilityClass, number>;
  current: Record<ReliabilityClass, number>;
  /** Shared cases whose class changed. */
  changed: { case_id: string; base: ReliabilityClass; current: ReliabilityClass }[];
}

export interface ConfusionMove {
  acceptable: string;
  selected: string;
  /** Whether the selected tool is acceptable (a diagonal cell of the matrix). */
  correct: boolean;
  base: number;
  current: number;
  delta: number;
}

export interface WordSegment {
  op: "same" | "removed" | "added";
  text: string;
}

export interface DefinitionSide {
  family: string;
  effect: Effect;
  open_world: boolean;
  hash: string;
  description: string;
}

export interface BlastRadius {
  /** visible_sets: cases that saw the tool (records); case_rows: cases naming it (report only). */
  basis: "visible_sets" | "case_rows";
  cases: { case_id: string; kind: FlipKind }[];
  counts: Record<FlipKind, number>;
  /** Correct over scored trials of those cases, in each run. */
  base: { correct: number; scored: number };
  current: { correct: number; scored: number };
}

export interface DefinitionChange {
  tool: string;
  change: DefinitionChangeKind;
  base: DefinitionSide | null;
  current: DefinitionSide | null;
  /** description, input_schema (inferred: hash changed, text did not), family, effect, open_world. */
  fields: string[];
  words: WordSegment[];
  blast_radius: BlastRadius;
}

export interface GateCheck {
  rule: string;
  passed: boolean;
  reason: string;
  /**
   * Set when the gate could not have failed with the trials it has (its best reachable test is
   * not below α): what it needs to be evaluable. It does not fail the run, and is never shown as
   * passed.
   */
  not_evaluable?: string;
}

export interface Diff {
  schema_version: number;
  base: DiffRunInfo;
  current: DiffRunInfo;
  comparability: Comparability;
  scope: DiffScope;
  /** The headline: case flips, McNemar on case pass/fail, and on trial correct/incorrect. */
  outcome: { flips: Record<FlipKind, number>; cases: PairedTest; trials: PairedTest | null };
  /** What the sample can detect at all at `alpha`. */
  power: {
    alpha: number;
    min_discordant: number | null;
    cases: number;
    min_case_change: number | null;
    trial_pairs: number | null;
    min_trial_change: number | null;
  };
  metrics: MetricDelta[];
  flips: CaseFlip[];
  reliability: ReliabilitySummary;
  confusions: ConfusionMove[];
  definitions: { base_recorded: boolean; current_recorded: boolean; changes: DefinitionChange[] };
  noise: NoiseSummary;
  gates: GateCheck[];
  verdict: "pass" | "fail";
  /** How headroom moved, when both runs have a counterfactual.json (route-eval counterfactual). */
  headroom?: HeadroomMove[];
}

/** One stage's counterfactual headroom in each run. */
export interface HeadroomMove {
  stage: string;
  base: { failures: number; binding: number; gain: number | null };
  current: { failures: number; binding: number; gain: number | null };
}

/** A paired comparison: how many pairs moved up, how many down, and the exact two-sided p-value. */
export interface PairedTest {
  /** Pairs whose outcome rose (false → true, or a per-case share that went up). */
  up: number;
  /** Pairs whose outcome fell. */
  down: number;
  /** Pairs compared (concordant ones included). */
  pairs: number;
  p_value: number;
}

/** Differences smaller than this are float noise, not change. */
export const EPSILON = 1e-9;
