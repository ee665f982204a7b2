import type {
  CaseMean,
  InputTokens,
  MeanEstimate,
  Rate,
  RetrievalQuality,
  RetrieverName,
  ToolSearchMode,
} from "../types.js";

export const THRESHOLD_STATUSES = ["interpolated", "not_reached", "below_at_smallest"] as const;
export type ThresholdStatus = (typeof THRESHOLD_STATUSES)[number];

/** A bootstrap bound: a size, or beyond the sizes swept. */
export type ThresholdBound = number | "below" | "above";

export interface Threshold {
  threshold: number;
  /** The interpolated size, or null when not reached or already below at the smallest size. */
  size: number | null;
  status: ThresholdStatus;
  /**
   * 95% case-bootstrap interval of the size (the same resampled cases at every point); a bound is
   * "below" where the resamples' quantile is already below at the smallest size, "above" where it
   * is not reached by the largest. Absent on sweeps written before it.
   */
  ci?: [ThresholdBound, ThresholdBound] | null;
  /** How the bootstrap resamples ended: crossed, not reached, below at the smallest size. */
  resamples?: {
    count: number;
    interpolated: number;
    not_reached: number;
    below_at_smallest: number;
  };
}

export const DISTRACTOR_POLICIES = ["random", "similar"] as const;
/** random: a seeded shuffle; similar: hard negatives first (most similar to the acceptable tools). */
export type DistractorPolicy = (typeof DISTRACTOR_POLICIES)[number];

export const SWEEP_SCHEMA_VERSION = 1;

/** size: vary how many ordinary tools are visible; k: vary the configured retriever's budget. */
export const SWEEP_KINDS = ["size", "k"] as const;
export type SweepKind = (typeof SWEEP_KINDS)[number];

/** One size or k of a sweep: a full run of its own, summarised. */
export interface SweepPoint {
  /** The requested size or k. */
  value: number;
  /** The point's run directory, relative to the sweep directory (e.g. "size-05"). */
  run: string;
  /** True count of visible ordinary tools per case (controls excluded). */
  visible: { mean: number | null; min: number | null; max: number | null };
  /** Cases shown fewer ordinary tools than requested (fewer were exposed). */
  capped_cases: string[];
  cases: number;
  trials: number;
  scored: number;
  errored: number;
  selection_accuracy: Rate;
  end_to_end_accuracy: Rate;
  abstention_accuracy: Rate;
  violation_rate: Rate;
  argument_validity: Rate;
  /** acceptable ∩ visible ≠ ∅ over exposed trials (tool_recall_at_k of this point's k). */
  tool_recall: Rate;
  /** pass^k at k = the configured trials per case. */
  pass_hat_k: { k: number; mean: CaseMean } | null;
  /** Per case: [correct, trials in the selection population], for N90/N50's case bootstrap. */
  selection_by_case?: Record<string, [number, number]>;
  retrieval: RetrievalQuality;
  input_tokens: InputTokens;
  latency_ms: { p50: number | null; p95: number | null };
  /** A tool_search sweep (--tool-search-axis): the series this point belongs to. */
  tool_search?: ToolSearchMode;
  /** With --tool-search-axis: route-eval's estimate of the tool-definition tokens a decision sent (search: over its calls). */
  definition_tokens?: MeanEstimate;
  /** With --tool-search-axis, on a point with search: an acceptable tool returned by a search (docs/tool-search.md). */
  search_recall?: Rate;
}

export interface SweepReport {
  schema_version: number;
  sweep_id: string;
  kind: SweepKind;
  tool_version: string;
  started_at: string;
  finished_at: string;
  endpoint: string;
  model: string;
  settings: {
    values: number[];
    trials: number;
    seed: number;
    cases: string[];
    /** Size sweeps: how distractors are drawn. */
    distractors: DistractorPolicy | null;
    distractor_registry: { snapshot: string; revision: string; file: string } | null;
    /** k sweeps: the retriever whose budget varies. */
    retriever: RetrieverName | null;
    /** Size sweeps with --tool-search-axis: each size run once per tool_search mode, in this order. */
    tool_search?: ToolSearchMode[];
  };
  points: SweepPoint[];
  /** Size sweeps: where selection accuracy falls below 0.9 and 0.5 (x = true mean visible size); with --tool-search-axis, of the first mode's points. */
  thresholds: { n90: Threshold; n50: Threshold } | null;
  /** This sweep holds one shard of every point's (case, trial) units (`sweep --shard I/N`); `route-eval merge` combines the shards. */
  shard?: { index: number; count: number };
}

/** The visible ordinary-tool counts a size sweep runs without --sizes. */
export const DEFAULT_SIZES = [5, 10, 20, 40];
