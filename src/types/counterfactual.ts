/**
 * Counterfactual attribution: each failed trial re-asked under one change to what the model saw.
 * counterfactual.json holds the headroom computed from counterfactual/records.jsonl alone; a
 * versioned contract (`schema_version` first).
 */
import type { CounterfactualKind, Rate, Stage } from "../types.js";
export { COUNTERFACTUAL_KINDS, type CounterfactualKind, type Placement } from "../types.js";

export const COUNTERFACTUAL_SCHEMA_VERSION = 1;

/** One failed trial's outcome under one kind: correct repeats of `repeats`. */
export interface CounterfactualOutcome {
  case_id: string;
  trial: number;
  stage: Stage;
  kind: CounterfactualKind;
  repeats: number;
  correct: number;
  /** The share of repeats that came out correct: 1 = the change fixes this trial. */
  flip_rate: number;
  /** What the model picked under the change, by count. */
  selections: Record<string, number>;
}

export interface StageHeadroom {
  stage: Stage;
  /** Failed trials at this stage, and those a counterfactual was asked for. */
  failures: number;
  tested: number;
  /** Sum of flip rates: the failures the fix turns correct (fractional with repeats). */
  binding: number;
  /** End-to-end accuracy now, and if this stage's tested failures flipped as observed. */
  now: Rate;
  if_fixed: Rate;
  /** The recovered trials over all scored trials: the points this stage is worth, with a case-clustered interval. */
  gain: Rate;
}

export interface SelectionBreakdown {
  tested: number;
  /** Failures each kind flips (sums of flip rates), and those none of the three flips. */
  by_rival: number;
  by_position: number;
  /** pair still fails: the two tools cannot be told apart from their descriptions. */
  inseparable: number;
  unexplained: number;
}

export interface RivalPair {
  acceptable: string;
  rival: string;
  failures: number;
  /** Failures that remove-rival recovers (sum of flip rates). */
  recovered: number;
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
