/**
 * Counterfactual attribution: each failed trial re-asked under one change to what the model saw.
 * counterfactual.json holds the headroom computed from counterfactual/records.jsonl alone; a
 * versioned contract (`schema_version` first).
 */
import type { CounterfactualKind, FixKind, Rate, Stage } from "../types.js";
export {
  COUNTERFACTUAL_KINDS,
  FIX_KINDS,
  type CounterfactualKind,
  type FixKind,
  type Placement,
} from "../types.js";

export const COUNTERFACTUAL_SCHEMA_VERSION = 2;

/** One failed trial's outcome under one kind: correct repeats of `repeats`. */
export interface CounterfactualOutcome {
  case_id: string;
  trial: number;
  stage: Stage;
  kind: CounterfactualKind;
  repeats: number;
  correct: number;
  /** The share of repeats that came out correct: 1 = the change fixes this trial (the placebo: it recovers unchanged). */
  flip_rate: number;
  /** What the model picked under the change, by count. */
  selections: Record<string, number>;
}

/**
 * One fix arm against the placebo on the same failed trials and repeats. Flip rates are summed
 * over the failed trials tested; headroom is their paired difference per failed trial, with a
 * case-clustered interval (the placebo's and the fix's intervals combined, MOVER).
 */
export interface ArmHeadroom {
  kind: FixKind;
  /** Failed trials this arm and the placebo were both asked for. */
  tested: number;
  /** Sums of flip rates over those trials: under the change, and re-asked unchanged. */
  fix: number;
  placebo: number;
  /** (fix − placebo) / tested: the share of failures the change recovers beyond chance. */
  headroom: Rate;
  /** The recovered trials beyond chance over all scored trials: the end-to-end points the change is worth. */
  gain: Rate;
  /** Whether the headroom interval reaches 0: the change's effect is inside the placebo's noise. */
  within_noise: boolean;
}

export interface StageHeadroom {
  stage: Stage;
  /** Failed trials at this stage, and those a counterfactual was asked for. */
  failures: number;
  tested: number;
  /** The arm the figures below are of: the one whose headroom interval has the highest lower bound. */
  kind: FixKind | null;
  /** Its flip-rate sums under the change and under the placebo. */
  fix: number;
  placebo: number;
  /** fix − placebo: the failures the change turns correct beyond chance (fractional with repeats). */
  binding: number;
  /** End-to-end accuracy now, and if this stage's tested failures flipped as observed beyond chance. */
  now: Rate;
  if_fixed: Rate;
  /** binding over all scored trials: the points this stage is worth, with a paired, case-clustered interval. */
  gain: Rate;
  within_noise: boolean;
  /** Every arm asked at this stage, in kind order. */
  arms: ArmHeadroom[];
}

/** Explanations of a selection failure, in the order a failed trial is attributed to the first that holds. */
export const SELECTION_EXPLANATIONS = [
  "rival",
  "position",
  "crowding",
  "chance",
  "inseparable",
  "unexplained",
] as const;
export type SelectionExplanation = (typeof SELECTION_EXPLANATIONS)[number];

/**
 * A partition of the selection failures tested: each failed trial counted once, under the first
 * explanation that holds — rival (removing it recovers more repeats than the placebo), position
 * (moving the acceptable tool first does), crowding (only the pair does), chance (re-asking
 * unchanged recovers it at least as often as each change does), inseparable (the pair alone still
 * fails), unexplained (no change was tried that could tell). A change is credited only when its
 * arm recovers failures beyond the placebo's noise (`beyond_noise`).
 */
export type SelectionBreakdown = {
  tested: number;
  /** The changes whose arm recovered failures beyond the placebo's noise: only these are credited. */
  beyond_noise: FixKind[];
} & Record<SelectionExplanation, number>;

export interface RivalPair {
  acceptable: string;
  rival: string;
  failures: number;
  /** Failures that remove-rival recovers (sum of flip rates), and that the placebo recovers. */
  recovered: number;
  placebo: number;
}

export interface CounterfactualReport {
  schema_version: number;
  run_id: string;
  endpoint: string;
  model: string;
  kinds: CounterfactualKind[];
  repeats: "as the run" | number;
  scored: number;
  correct: number;
  calls: number;
  stages: StageHeadroom[];
  selection: SelectionBreakdown;
  rival_pairs: RivalPair[];
  outcomes: CounterfactualOutcome[];
  notes: string[];
}
