/** The renderings each command offers (its --format choices): closed vocabularies, one per command. */

export const FORMATS = ["terminal", "json", "markdown", "junit", "html"] as const;
/** A run's report. */
export type Format = (typeof FORMATS)[number];

export const DIFF_FORMATS = ["terminal", "json", "markdown", "junit", "html"] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

export const SWEEP_FORMATS = ["terminal", "markdown", "csv", "json", "html"] as const;
export type SweepFormat = (typeof SWEEP_FORMATS)[number];

export const EXPERIMENT_FORMATS = ["terminal", "markdown", "json", "junit", "html"] as const;
export type ExperimentFormat = (typeof EXPERIMENT_FORMATS)[number];

export const COUNTERFACTUAL_FORMATS = ["terminal", "markdown", "json"] as const;
export type CounterfactualFormat = (typeof COUNTERFACTUAL_FORMATS)[number];

export const SHADOW_FORMATS = ["terminal", "markdown", "json", "html"] as const;
export type ShadowFormat = (typeof SHADOW_FORMATS)[number];

export const MONITOR_FORMATS = ["terminal", "markdown", "json", "html"] as const;
export type MonitorFormat = (typeof MONITOR_FORMATS)[number];

export const LINT_FORMATS = ["text", "json"] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

/** What `route-eval import` reads. */
export const IMPORT_FORMATS = [
  "mcp",
  "openai",
  "anthropic",
  "skills",
  "agents",
  "a2a",
  "handoffs",
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const TUNE_FORMATS = ["terminal", "markdown", "json", "html"] as const;
export type TuneFormat = (typeof TUNE_FORMATS)[number];
