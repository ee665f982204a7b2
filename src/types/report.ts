/** Reports: part of the records of route-eval (see ../types.ts). */
import type { Effect } from "./tools.js";
import type {
  Config,
  LATER_RUN_KEYS,
  NOTED_RUN_KEYS,
  OPTIONAL_RUN_KEYS,
  RUN_KEYS,
} from "./config.js";
import type { CaseRow, Metrics } from "./metrics.js";

export const REPORT_SCHEMA_VERSION = 2;

/** The settings run.json pins (see RUN_KEYS). */
export type RunConfig = Pick<Config, (typeof RUN_KEYS)[number]> &
  Partial<
    Pick<
      Config,
      | (typeof LATER_RUN_KEYS)[number]
      | (typeof OPTIONAL_RUN_KEYS)[number]
      | (typeof NOTED_RUN_KEYS)[number]
    >
  >;

/** A snapshot of a run's progress, for a progress line. */
export interface RunProgress {
  /** Trials in the run, resumed ones included. */
  total: number;
  /** Trials recorded so far, resumed ones included. */
  done: number;
  /** Trials recorded before this session (by the interrupted run). */
  resumed: number;
  errored: number;
  retries: number;
  from_store: number;
  elapsed_ms: number;
  finished: boolean;
  /** Trials let run at once now, when rate limits have lowered it below the run's concurrency. */
  paced?: { now: number; max: number };
}

export interface DefinitionInfo {
  family: string;
  effect: Effect;
  open_world: boolean;
  hash: string;
  description: string;
}

/** Written to run.json when a run starts; metadata only, never metrics. */
export interface RunMeta {
  run_id: string;
  tool_version: string;
  started_at: string;
  finished_at: string | null;
  endpoint: string;
  model: string;
  registries: { snapshot: string; revision: string; file: string }[];
  definitions: Record<string, DefinitionInfo>;
  /** Content hashes of the inputs beyond the tool definitions: each case (what `--resume` compares). */
  inputs?: { cases: Record<string, string> };
  /** The settings the run used (see config/keys.ts RUN_KEYS). */
  config: RunConfig;
  /** A saved baseline's run id before it was saved (`run --save-baseline`); its run_id is then "baseline NAME". */
  baseline_of?: string;
  /** This run holds one shard of the experiment's (case, trial) units (`run --shard I/N`). */
  shard?: { index: number; count: number };
  /** Asked through the provider's batch API (`run --batch`). */
  batch?: boolean;
  /** Adaptive trials: the plan every case was decided by (θ, where it came from, α and its split, the cap). */
  adaptive?: AdaptivePlanInfo;
}

/** The plan of an adaptive run, as run.json records it. */
export interface AdaptivePlanInfo {
  target: number;
  source: string;
  alpha: number;
  case_alpha: number;
  max_trials: number;
}

/** One case of an adaptive run: its decision, the trials it rests on, and the e-values there. */
export interface AdaptiveCase {
  case_id: string;
  decision: "pass" | "fail" | "undecided";
  trials: number;
  correct: number;
  e_pass: number;
  e_fail: number;
}

/** The report's account of adaptive trials. */
export interface AdaptiveSummary extends AdaptivePlanInfo {
  test: string;
  pass: number;
  fail: number;
  undecided: number;
  /** Trials recorded, and what a fixed plan of max_trials per case would have asked. */
  calls: number;
  fixed_plan_calls: number;
  /** 1 − calls / fixed_plan_calls. */
  saved: number;
  /** The fewest all-correct trials that certify a pass at the per-case α (null beyond the cap × 10). */
  certify_pass_floor: number | null;
  cases: AdaptiveCase[];
}

/** The report's cost, when config `prices` names the run's model: an estimate, never a bill. */
export interface CostEstimate {
  estimate: true;
  model: string;
  usd: number;
  input_tokens: number;
  output_tokens: number;
  /** Trials whose input count is route-eval's estimate (the endpoint reported none). */
  input_estimated: number;
  /** Trials with no output count (counted as 0). */
  output_missing: number;
  /** The batch discount applied (0 for a live run). */
  batch_discount: number;
}

export interface Report {
  schema_version: number;
  run: RunMeta;
  metrics: Metrics;
  breakdowns: {
    family: Record<string, Metrics>;
    tag: Record<string, Metrics>;
    phase: Record<string, Metrics>;
  };
  cases: CaseRow[];
  /** Adaptive trials: each case's decision against the target, and the calls against the fixed plan. */
  adaptive?: AdaptiveSummary;
  errored: { case_id: string; trial: number; error: string }[];
  /** The run's gates (config `gates`), evaluated on these metrics; empty with --no-gates. */
  gates: GateResult[];
  /** Cases whose must_see / must_not_see assertions failed (phase policy checks, no model needed). */
  exposure_assertions: { case_id: string; failures: string[] }[];
  /** Present only when config `prices` names the run's model. */
  cost?: CostEstimate;
}

/** One CI gate's verdict, as report.json, stderr, JUnit and Markdown state it. */
export interface GateResult {
  /** The metric gated, e.g. "selection_accuracy" or "pass_hat_k". */
  name: string;
  /** The threshold as written, normalised: ">= 0.9", ">= 0.8 at k=3". */
  threshold: string;
  /** The measured value; null when its population was empty (the gate then fails). */
  value: number | null;
  passed: boolean;
  /** Why, with the population: "selection_accuracy 0.75 (6/8) is below 0.9". */
  reason: string;
}

/**
 * What a command's root tells its command: "failed" when a gate, an assertion or a regression
 * check failed (exit 1); "errored" when trials errored for good, the endpoint's failure (exit 3).
 */
export type Outcome = "ok" | "failed" | "errored";
