/**
 * The one table of rates (docs/metrics.md): each rate's population and success as yes/no facts of a
 * scored trial, its label, which way is better, and where renderers list it. Metrics count it,
 * diff pairs it trial by trial, gates accept its name, renderers label it, the report's schema
 * requires it — all from this row. Adding a rate with its gate is one row here (plus its fact's
 * predicate in metrics/trial-facts.ts when the fact is new); the compiler asks for the rest.
 */
import type { Stage } from "./records.js";

/** What a scored trial is, as yes/no facts; metrics/trial-facts.ts decides each (an exhaustive Record). */
export const FACTS = [
  "covered",
  "exposed",
  "retrieved",
  "picked_acceptable",
  "end_to_end",
  "abstain_acceptable",
  "abstained",
  "violated",
  "tool_arguments",
  "arguments_valid",
  "arguments_checked",
  "arguments_match",
  "right_call",
  "asked",
  "phantom",
  "no_call",
  "extra_call",
] as const;
export type Fact = (typeof FACTS)[number];

/** Which way a metric is better. Neutral signals (e.g. abstention rate) only "change". */
export type Direction = "higher" | "lower" | "neutral";

export interface RateRow {
  /** The trials counted: scored trials with every one of these facts (none: every scored trial). */
  population: readonly Fact[];
  /** The successes: trials of the population with every one of these facts too. */
  success: readonly Fact[];
  /** The label every renderer shows. */
  label: string;
  /** For diff deltas, regression gates and ablation verdicts. */
  better: Direction;
  /** Where the report lists it: a rung of the ladder's funnel, the end-to-end line under it, or the "other rates" table. */
  shown: "funnel" | "end-to-end" | "other";
}

/**
 * Every rate, in report order. A gate names a rate by its key (`selection_accuracy: ">= 0.8"`);
 * `tool_recall_at_k.<k>`, pass^k, pass@k, consistency and mean_visible are the other gateable names.
 */
export const RATES = {
  capability_coverage: {
    population: [],
    success: ["covered"],
    label: "capability coverage",
    better: "higher",
    shown: "funnel",
  },
  exposure_recall: {
    population: ["covered"],
    success: ["exposed"],
    label: "exposure recall",
    better: "higher",
    shown: "funnel",
  },
  discovery_recall: {
    population: ["exposed"],
    success: ["retrieved"],
    label: "discovery recall",
    better: "higher",
    shown: "funnel",
  },
  selection_accuracy: {
    population: ["retrieved"],
    success: ["picked_acceptable"],
    label: "selection accuracy",
    better: "higher",
    shown: "funnel",
  },
  call_accuracy: {
    population: ["retrieved"],
    success: ["right_call"],
    label: "call accuracy (right tool, right arguments)",
    better: "higher",
    shown: "other",
  },
  end_to_end_accuracy: {
    population: [],
    success: ["end_to_end"],
    label: "end-to-end accuracy",
    better: "higher",
    shown: "end-to-end",
  },
  abstention_accuracy: {
    population: ["abstain_acceptable"],
    success: ["abstained"],
    label: "abstention accuracy",
    better: "higher",
    shown: "other",
  },
  violation_rate: {
    population: [],
    success: ["violated"],
    label: "violation rate",
    better: "lower",
    shown: "other",
  },
  argument_validity: {
    population: ["tool_arguments"],
    success: ["arguments_valid"],
    label: "argument validity",
    better: "higher",
    shown: "other",
  },
  argument_match: {
    population: ["arguments_checked"],
    success: ["arguments_match"],
    label: "argument match",
    better: "higher",
    shown: "other",
  },
  clarification_rate: {
    population: [],
    success: ["asked"],
    label: "clarification rate (ask_user)",
    better: "neutral",
    shown: "other",
  },
  abstention_rate: {
    population: [],
    success: ["abstained"],
    label: "abstention rate (no_applicable_tool)",
    better: "neutral",
    shown: "other",
  },
  phantom_rate: {
    population: [],
    success: ["phantom"],
    label: "phantom rate",
    better: "lower",
    shown: "other",
  },
  no_call_rate: {
    population: [],
    success: ["no_call"],
    label: "no-call rate",
    better: "lower",
    shown: "other",
  },
  extra_call_rate: {
    population: [],
    success: ["extra_call"],
    label: "extra-call rate (several calls)",
    better: "lower",
    shown: "other",
  },
} as const satisfies Record<string, RateRow>;

export type RateName = keyof typeof RATES;

/** The rates in report order. */
export const RATE_NAMES = Object.keys(RATES) as RateName[];

/** The rates of the "other rates" table, in report order. */
export const OTHER_RATES: readonly RateName[] = RATE_NAMES.filter(
  (name) => RATES[name].shown === "other",
);

/** The funnel rate of each rung of the ladder. */
export const STAGE_RATES: Record<Stage, RateName> = {
  coverage: "capability_coverage",
  exposure: "exposure_recall",
  discovery: "discovery_recall",
  selection: "selection_accuracy",
};

export function isRateName(name: string): name is RateName {
  return Object.hasOwn(RATES, name);
}
