/**
 * An experiment: several variants of one config run over the same cases, side by side.
 * Serialised as experiment.json beside variants/<name>/ (one full run directory per variant): a
 * versioned contract (`schema_version` first; a breaking change bumps it).
 */
import type { Direction } from "./rates.js";
import type { ConfusionMove, Diff, MetricDelta } from "./diff.js";
import type { RunConfig, Stage, VariantGate } from "../types.js";

export const EXPERIMENT_SCHEMA_VERSION = 1;

/** variants: the config's `variants:` against its base; ladder: the built-in ablation ladder, each rung against the one before. */
export type ExperimentKind = "variants" | "ladder";

/** How each kind of experiment is named, run and compared: one row a kind, read by every renderer and command. */
export interface ExperimentKindRow {
  /** What one of its runs is called: "rung", "variant". */
  member: string;
  /** Its title in the one-line description and the Markdown heading. */
  title: string;
  /** Its name in an HTML page's title. */
  page: string;
  /** "an ablation", "a variants experiment" (in messages). */
  article: string;
  /** The command that runs it (and continues it with --resume). */
  command: "ablate" | "run";
  /** The run-id prefix of a new one. */
  id: string;
  /** The HTML section of its runs side by side, and of its comparisons. */
  sideBySide: string;
  comparisons: string;
  /** Whether each member is compared with the one before it (else with the base), and gates may name "previous". */
  chained: boolean;
  /** Whether its base is a run with its own gates (the config's). */
  gatedBase: boolean;
}

export const EXPERIMENT_KINDS: Record<ExperimentKind, ExperimentKindRow> = {
  variants: {
    member: "variant",
    title: "variants",
    page: "variants",
    article: "a variants experiment",
    command: "run",
    id: "variants",
    sideBySide: "Variants",
    comparisons: "Each variant against the base",
    chained: false,
    gatedBase: true,
  },
  ladder: {
    member: "rung",
    title: "ablation ladder",
    page: "ablation",
    article: "an ablation",
    command: "ablate",
    id: "ablate",
    sideBySide: "The ladder",
    comparisons: "Each rung against the one before",
    chained: true,
    gatedBase: false,
  },
};

/** Where a trial ended: the stage that failed first, "correct", or "errored". */
export type TrialEnd = string;

export interface ExperimentVariant {
  name: string;
  /** Its run directory, relative to the experiment directory (variants/<slug>). */
  dir: string;
  /** The variant it is compared with (null for the base, and the ladder's first rung). */
  reference: string | null;
  /** The settings that differ from the reference, with this variant's values (run.json form). */
  changes: Record<string, unknown>;
  endpoint: string;
  model: string;
}

/** One metric's value in one variant, with its evidence and 95% interval. */
export interface VariantValue {
  value: number | null;
  numerator: number | null;
  denominator: number | null;
  ci: [number, number] | null;
  /** Cases in the population (trial-level rates). */
  cases: number | null;
}

export interface MetricRow {
  metric: string;
  label: string;
  direction: Direction;
  /** One value per variant, in the order of `variants`. */
  values: VariantValue[];
}

export interface FailureProfile {
  trials: number;
  errored: number;
  correct: number;
  /** Scored trials by the first stage that failed. */
  stages: Record<Stage, number>;
}

/** Trial pairs (same case, same trial index) that went from one end to another. */
export interface Transition {
  from: TrialEnd;
  to: TrialEnd;
  trials: number;
}

export type Verdict = "helped" | "hurt" | "no detectable change" | "unmeasured";

/** A variant against its reference: diff's paired statistics, what moved, and a verdict. */
export interface Comparison {
  variant: string;
  reference: string;
  /** Case flips, the sign test on case pass/fail and McNemar on trial pairs (as `route-eval diff`). */
  outcome: Diff["outcome"];
  power: Diff["power"];
  /** Every metric: values, delta, change, sign test over cases, McNemar over trial pairs (diff's rows). */
  metrics: MetricDelta[];
  /** Cases that pass in the variant and fail in the reference (fixed), and the reverse (broken). */
  fixed: string[];
  broken: string[];
  /** Confusion cells whose count moved. */
  confusions: ConfusionMove[];
  /** Failures per stage, reference → variant. */
  profile: { stage: string; reference: number; variant: number; delta: number }[];
  transitions: Transition[];
  /** One sentence: what the change moved ("moved 14 selection failures to correct; …"). */
  movement: string;
  verdict: Verdict;
  /** Why: the test the verdict rests on, or the smallest effect this budget could detect. */
  because: string;
  /** The verdict's sign-test p, Holm-adjusted across the experiment's comparisons; null without a test. */
  p_holm: number | null;
  /** Cases whose drop is beyond their own trial noise (diff's per-case exact test, Holm across cases). */
  regressed_beyond_noise: string[];
  notes: string[];
}

export interface VariantGateCheck {
  variant: string;
  rule: string;
  passed: boolean;
  reason: string;
}

export interface Experiment {
  schema_version: number;
  experiment_id: string;
  kind: ExperimentKind;
  tool_version: string;
  started_at: string;
  /** null while it runs (an interrupted experiment resumes from here). */
  finished_at: string | null;
  /** The base config's endpoint and pinned settings: what `--resume` continues with. */
  base: { endpoint: string; model: string; config: RunConfig };
  cases: number;
  trials: number;
  variants: ExperimentVariant[];
  /** Ladder rungs the config cannot express, and why. */
  skipped: { name: string; reason: string }[];
  metrics: MetricRow[];
  /** Each variant's trials by where they ended, in the order of `variants`. */
  profiles: FailureProfile[];
  comparisons: Comparison[];
  gates: VariantGateCheck[];
  verdict: "pass" | "fail";
  notes: string[];
  /** This experiment holds one shard of its (case, trial) units (`run --shard I/N`); `route-eval merge` combines the shards. */
  shard?: { index: number; count: number };
  /** The rules `gates` was evaluated with (gates.variants, --fail-if-worse), when there are any: `merge` evaluates them again. */
  gate_rules?: GateRules;
}

export interface GateRules {
  variants: VariantGate[];
  fail_if_worse: string[];
}

/** The name (and directory) of the run every variant is compared with. */
export const BASE_NAME = "base";

/** The directory name of a variant under variants/: "+ exposure" → "exposure", "GPT 4.1" → "gpt-4.1". */
export function variantSlug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9._]+/g, "-")
      .replace(/^[-.]+|-+$/g, "") || "variant"
  );
}

/** The variant of that name (matched by its directory name). */
export function findVariant<T extends { slug: string }>(
  variants: T[],
  name: string,
): T | undefined {
  return variants.find((v) => v.slug === variantSlug(name));
}
