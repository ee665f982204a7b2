/** Metrics: part of the records of route-eval (see ../types.ts). */
import type { RateName } from "./rates.js";
import type { CallSetError, SelectionError, Stage } from "./records.js";

/** A rate with its evidence: value is null when the denominator is 0. */
export interface Rate {
  numerator: number;
  denominator: number;
  value: number | null;
  /**
   * 95% interval; null when the denominator is 0. Wilson on the trials when each case has one;
   * with repeated trials, cluster-robust: Wilson on the effective sample size (the case is the unit).
   */
  ci: [number, number] | null;
  /** Cases in the population (trial-level rates). */
  cases?: number;
  /** The sample size the interval is computed on: the trials, shrunk by the design effect of repeated trials. */
  effective_n?: number;
}

/** A mean over cases of a per-case estimate (pass^k, pass@k): numerator is the sum of estimates. */
export type CaseMean = Rate;

export interface Confusion {
  /** Sorted acceptable names joined by "|". */
  acceptable: string;
  /** Selected tool, or "(no call)". */
  selected: string;
  count: number;
  /** Of them, trials that passed every rung (absent in reports before schema_version 2). */
  correct?: number;
}

export interface Rival {
  /** The expected label (sorted acceptable joined by "|"). */
  expected: string;
  /** The tool most often selected instead. */
  rival: string;
  count: number;
  of: number;
}

/** Where the first acceptable tool stood in the order shown: thirds of visible_order. */
export const POSITION_THIRDS = ["first", "middle", "last"] as const;
export type PositionThird = (typeof POSITION_THIRDS)[number];

/**
 * Every rate of the rate table (types/rates.ts) with its evidence, and the figures that are not
 * rates: recall@k by budget, failure profile, confusions, reliability, retrieval quality, tokens.
 */
export interface Metrics extends Record<RateName, Rate> {
  trials: number;
  errored: number;
  scored: number;
  /** Keyed by k; trials without a retriever are keyed "all" (the funnel's discovery_recall is over every k). */
  tool_recall_at_k: Record<string, Rate>;
  mean_visible: number | null;
  failure_profile: Record<Stage, number>;
  /** By type; missed_call and wrong_order (call sets only) are present only when counted. */
  selection_errors: SelectionErrorCounts;
  selection_confusions: Confusion[];
  confusion_matrix: Confusion[];
  rivals: Rival[];
  /** Keyed by k = 1..(the fewest scored trials of any scored case), over the same cases at every k. */
  pass_hat_k: Record<string, CaseMean>;
  pass_at_k: Record<string, CaseMean>;
  /** Cases with fewer scored trials than the most any case has (errored trials): they bound k. */
  pass_k_short_cases: { case_id: string; scored: number }[];
  /** Mean over cases with ≥ 2 scored trials of the modal selection's share; null when no case has two. */
  consistency: number | null;
  /** The same as a case mean: Σ shares over those cases, with its Wilson interval over cases (absent in reports before it). */
  consistency_rate?: CaseMean | null;
  /** Ranking quality of the acceptable set, over exposed trials whose retriever recorded scores. */
  retrieval: RetrievalQuality;
  /** Mean input tokens per scored trial: the endpoint's count, else route-eval's estimate. */
  input_tokens: InputTokens;
  /** selection_accuracy split by the third of visible_order holding the first acceptable tool. */
  selection_by_position?: Record<PositionThird, Rate>;
  unstable_cases: {
    case_id: string;
    modal: string;
    modal_count: number;
    n: number;
    selections: Record<string, number>;
  }[];
  /** Over the conversation cases' turns; absent when the run has none. */
  conversations?: ConversationMetrics;
  /** Over the decisions asked with tool search on; absent when the run has none. */
  tool_search?: ToolSearchMetrics;
  /** Over the decisions whose case expected calls (calls:); absent when the run has none. */
  call_sets?: CallSetMetrics;
  /** Over the hierarchical decisions (acceptable: target > tool); absent when the run has none. */
  hierarchy?: HierarchyMetrics;
}

/** Hierarchical decisions (docs/targets.md): where a wrong choice failed first. Rates clustered by case. */
export interface HierarchyMetrics {
  /** Scored decisions whose case wrote acceptable: target > tool. */
  decisions: number;
  /** Decisions whose selection failed at the target: the wrong agent or server. */
  wrong_target: Rate;
  /** Decisions with the right target and the wrong tool inside it. */
  wrong_inside: Rate;
  /** Of the decisions with the right target, those whose tool inside was right (and every rung passed). */
  right_inside_given_target: Rate;
}

/** Counts of selection failures by type: the call-set types only when some was counted. */
export type SelectionErrorCounts = Record<Exclude<SelectionError, CallSetError>, number> &
  Partial<Record<CallSetError, number>>;

/**
 * Call sets (docs/call-sets.md): over the scored decisions whose case expected calls. Rates are
 * clustered by case; recall and precision count calls, with the case as the unit of the interval.
 */
export interface CallSetMetrics {
  /** Scored decisions whose case expected calls. */
  decisions: number;
  /** Decisions with every expected call made with its arguments right, no extra call, the order kept. */
  call_set_exact: Rate;
  /** Of the expected calls, those made (matched by tool). */
  call_recall: Rate;
  /** Of the calls made that count (matched or extra; allowed look-ups are neither), those expected. */
  call_precision: Rate;
  /** Of the `order: sequence` decisions that made their calls (or broke the order), those in order. */
  order_kept: Rate;
  /** Decisions still calling at max_steps. */
  step_limit: Rate;
  steps_per_decision: MeanEstimate;
  calls_per_decision: MeanEstimate;
}

/** A mean over scored trials with a cluster-robust interval (the case is the unit); null mean when n is 0. */
export interface MeanEstimate {
  mean: number | null;
  /** The sum of the values: mean = total / n. */
  total: number;
  /** Trials averaged over. */
  n: number;
  cases: number;
  /** 95%: mean ± 1.96 cluster-robust standard errors; null with fewer than two cases. */
  ci: [number, number] | null;
}

/**
 * Tool search (docs/tool-search.md): how the searches the model drove went. "Needed a search":
 * the acceptable tool was exposed but deferred (no acceptable tool was always loaded).
 */
export interface ToolSearchMetrics {
  /** Scored decisions asked with tool search on. */
  decisions: number;
  /** Of the decisions that needed a search, those where some search returned an acceptable tool. */
  search_recall: Rate;
  /** Of the same decisions, those whose first search returned one (no search at all counts as a miss). */
  first_search_recall: Rate;
  /** Of the decisions with an acceptable tool loaded, those that chose something else. */
  found_but_not_chosen: Rate;
  /** Of all decisions, those that asked for a search past the bound (tool_search.max_searches). */
  search_limit: Rate;
  /** Searches that could not run (bad arguments, a regex that does not compile): recorded, returned nothing. */
  failed_searches: number;
  searches_per_decision: MeanEstimate;
  /** route-eval's estimate of the tool-definition tokens a decision sent, over its calls. */
  definition_tokens: MeanEstimate;
  /** The same estimate with every deferred tool loaded in one call: what the decisions would have sent without search. */
  definition_tokens_unsearched: MeanEstimate;
}

/**
 * A conversation's trial t is its turns' trial t (each turn asked teacher-forced). It succeeds when
 * every turn of it is correct; a trial with an errored turn is not scored.
 */
export interface ConversationMetrics {
  /** Conversation cases with at least one scored trial. */
  conversations: number;
  /** Their turns: the decisions (cases <conversation>@<turn>) they add to the run. */
  turns: number;
  /** Scored (conversation, trial) runs whose every turn is correct; the interval clustered by conversation. */
  success: Rate;
  /** pass^k over conversations: the chance that k trials of a conversation all succeed, averaged over conversations. */
  pass_hat_k: Record<string, CaseMean>;
  /** The ladder by turn index (1-based): scored turns, correct ones, failures by the rung that failed. */
  by_turn: {
    turn: number;
    scored: number;
    correct: number;
    failure_profile: Record<Stage, number>;
  }[];
  /** Scored (conversation, trial) runs by the turn of their first failure ("none": every turn correct). */
  first_failure: Record<string, number>;
  /** Selection failures at the turn that added an acceptable tool: the model answered as if it were absent. */
  exposure_lag: number;
  /** On-policy runs only: what came after a wrong turn, the model's own reply fed forward. */
  on_policy?: {
    /** Scored turns after the first failed turn of their trial. */
    after_miss: number;
    /** Of those, the correct ones: recovered after a miss. */
    recovered: number;
    /** Of those, the failed ones: failures downstream of an earlier wrong turn. */
    downstream_failures: number;
    /** Scored turns whose history held a call the case gave no result for (an error result was fed). */
    unstubbed: number;
  };
}

/**
 * Relevant = acceptable ordinary tools that were exposed; ranking = the retriever's order (top-k as
 * shown, the rest by recorded score, ties by name). Each is a mean over trials, as a CaseMean.
 */
export interface RetrievalQuality {
  /** Share of the relevant tools in the top k. */
  recall_at_k: CaseMean;
  /** 1 / rank of the first relevant tool. */
  mrr: CaseMean;
  /** Binary-relevance nDCG over the top k. */
  ndcg_at_k: CaseMean;
}

export interface InputTokens {
  /** Mean over the scored trials that have a count; null when none has. */
  mean: number | null;
  /** Trials whose count the endpoint reported. */
  reported: number;
  /** Trials whose count is route-eval's estimate (the endpoint reported none). */
  estimated: number;
}

export interface CaseRow {
  case_id: string;
  family: string | null;
  tags: string[];
  phase: string | null;
  acceptable: string[];
  forbidden: string[];
  trials: number;
  errored: number;
  correct: number;
  violated: number;
  /** Count of trials per failed stage ("correct" for null). */
  stages: Record<string, number>;
  /** Count of trials per selected tool ("(no call)" for null). */
  selections: Record<string, number>;
  passed: boolean;
}
