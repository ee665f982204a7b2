/** Trial records: part of the records of route-eval (see ../types.ts). */
import type { JsonValue } from "./json.js";
import type { EndpointCall, Usage } from "./endpoint.js";
import type { RetrievalSummary } from "./discovery.js";
import type { CallSetSpec, ConversationTurn } from "./cases.js";

export const STAGES = ["coverage", "exposure", "discovery", "selection"] as const;
export type Stage = (typeof STAGES)[number];

export const SELECTION_ERRORS = [
  "wrong_tool",
  "phantom_tool",
  "no_call",
  "abstained",
  "asked",
  "malformed",
  "missed_call",
  "wrong_order",
] as const;
export type SelectionError = (typeof SELECTION_ERRORS)[number];
/** The selection errors only a call set can have (reports list them only when counted). */
export const CALL_SET_ERRORS = ["missed_call", "wrong_order"] as const satisfies SelectionError[];
export type CallSetError = (typeof CALL_SET_ERRORS)[number];

/** The selection-error types a table lists: every one but a call-set type nobody made. */
export function listedSelectionErrors(
  counts: Partial<Record<SelectionError, number>>,
): SelectionError[] {
  return SELECTION_ERRORS.filter(
    (type) => (counts[type] ?? 0) > 0 || !(CALL_SET_ERRORS as readonly string[]).includes(type),
  );
}

/**
 * One decision, with every set along the way, as route-eval holds it in memory. On disk
 * (records.jsonl) the registry and exposed sets are named by content id and kept once in
 * sets.jsonl; see run-files/records-io.ts for both forms.
 */
export interface TrialRecord {
  case_id: string;
  trial: number;
  /** The case's goal (the newest user turn), so `show` can explain a case from its records alone; absent in records written before it was added. */
  goal?: string;
  phase: string | null;
  family: string | null;
  tags: string[];
  acceptable: string[];
  forbidden: string[];
  registry_names: string[];
  exposed_names: string[];
  retrieved_names: string[];
  visible_order: string[];
  retrieval_k: number | null;
  selected: string | null;
  arguments: JsonValue;
  /** null = not checked (no call, tool not visible, or no input_schema); [] = valid. */
  argument_errors: string[] | null;
  /** null = the case states no expectation for the selected tool. */
  argument_match: boolean | null;
  failed_stage: Stage | null;
  /** Exposure assertions of the case (checked against exposed_names by the report). */
  must_see: string[];
  must_not_see: string[];
  /** The retriever's ranking (top of it, and the acceptable tools' ranks); null without scores. */
  retrieval: RetrievalSummary | null;
  selection_error: SelectionError | null;
  violated: boolean;
  response_text: string | null;
  tool_calls: number;
  usage: Usage;
  /** This run's time for the answer (a store read's when the store answered); null when the call failed for good. */
  latency_ms: number | null;
  /** When the store answered: the original call's latency (absent otherwise). */
  recorded_latency_ms?: number;
  endpoint: string;
  model: string;
  request_hash: string;
  error: string | null;
  /** The provider's request id, for support tickets (absent in records of other tools). */
  provider_request_id?: string | null;
  /** Attempts after the first. */
  retries?: number;
  /** 0-based positions in visible_order of the acceptable tools that were visible, ascending. */
  acceptable_positions?: number[];
  /** Whether visible_order was a seeded permutation (--shuffle-tools). */
  tools_shuffled?: boolean;
  /** Every call of the reply, when it made more than one (`selected` and `arguments` are the first's). */
  calls?: EndpointCall[];
  /** In counterfactual/records.jsonl: which failed trial this re-asks, and what was changed. */
  counterfactual?: CounterfactualInfo;
  /** A conversation's turn (case_id is `<conversation>@<turn>`): which one, and its tool surface's changes. */
  turn?: ConversationTurn;
  /** Tool search was on: the searches the decision made, what they loaded and how it ended. */
  search?: SearchRecord;
  /** The case expected calls (`calls:`): what was expected, how the calls made matched it, the steps taken (`calls` lists every call made). */
  call_set?: CallSetRecord;
  /** A hierarchical case (`acceptable: target > tool`, docs/targets.md): the target and the tool inside it chosen, and the level that failed first. */
  hierarchy?: HierarchyRecord;
}

/**
 * A hierarchical decision (docs/targets.md). `by: agent` — the ladder judges the agent chosen
 * (acceptable and selected are agents); once the right one was handed the task it was asked
 * again with its own tools (`offered`), and `inside` is its pick. `by: server` — the ladder judges
 * the tool chosen (acceptable and selected are tools); `target` is the server that groups it.
 */
export interface HierarchyRecord {
  by: "agent" | "server";
  /** The acceptable paths, [target, tool]. */
  paths: [string, string][];
  /** The target chosen: the agent handed the task, or the server of the tool chosen (null: none). */
  target: string | null;
  /** The tool chosen inside it (null: none, or not asked). */
  inside: string | null;
  /** by agent: the agent's own tools it was offered when asked again (absent: not asked). */
  offered?: string[];
  /** The first level that failed a selection (null: right, or a rung before selection failed). */
  level: "target" | "inside" | null;
}

/**
 * How a decision's calls met its expected calls (classify/call-set.ts): the expectation, kept so
 * the record is judged from itself, and the matching — tool first, then arguments; in order for
 * `order: sequence`.
 */
export interface CallSetRecord extends CallSetSpec {
  /** Per expected call: the index in `calls` of the call matched to it, or null (missed). */
  matched: (number | null)[];
  /** Per expected call: whether the matched call's arguments met `args` (null: unmatched, or no expectation). */
  args_match: (boolean | null)[];
  /** Per expected call: whether the matched call's arguments were valid against the schema shown (null: unmatched or not checked). */
  args_valid: (boolean | null)[];
  /** Indices in `calls` of the calls matched to nothing and not allowed: extra calls. */
  extra: number[];
  /** Whether the calls met the expected order (always true for `order: any`): false when the calls matched only out of order. */
  in_order: boolean;
  /** Every expected call matched by tool, no extra call, order kept: the selection verdict. */
  exact: boolean;
  /** Model calls the decision took (1 unless max_steps > 1). */
  steps: number;
  /** text: the last reply made no call; control: it called a control; step_limit: it still made calls at max_steps; single: max_steps is 1. */
  ended: CallSetEnding;
}

export const CALL_SET_ENDINGS = ["single", "text", "control", "step_limit"] as const;
export type CallSetEnding = (typeof CALL_SET_ENDINGS)[number];

/** One search of a decision: what was asked, what came back, who ran it. */
export interface SearchStep {
  /** The query as the model wrote it (a regex for a regex search); null when the call's arguments held none. */
  query: string | null;
  /** Ordinary tools the search returned, best first. */
  returned: string[];
  /** route-eval (client-side search) or the provider (its hosted search). */
  by: "route-eval" | "provider";
  /** Why the search could not run (bad arguments, a regex that does not compile); it returned nothing. */
  error?: string;
}

/**
 * moved: the model made a non-search move; search_limit: it asked for another search past
 * tool_search.max_searches, and the decision ended without a call.
 */
export type SearchOutcome = "moved" | "search_limit";

/** What a decision with tool search on did before its move (visible_order is the loaded set). */
export interface SearchRecord {
  mode: "provider" | "client";
  kind: "bm25" | "regex" | "embeddings";
  /** Ordinary tools behind the search (exposed, not always loaded). */
  deferred: number;
  /** Ordinary tools loaded from the start (tool_search.always_loaded that were exposed). */
  always_loaded: string[];
  searches: SearchStep[];
  outcome: SearchOutcome;
  /** Endpoint calls the decision took (a hosted search runs inside one call). */
  calls: number;
  /** route-eval's estimate of the tool-definition tokens the decision sent, over its calls (docs/tool-search.md). */
  definition_tokens: number;
  /** The same estimate for one call with every deferred tool loaded: what search saves. */
  definition_tokens_unsearched: number;
}

/** "case\u0000trial": the identity of one decision, which a run records once. */
export function trialKey(caseId: string, trial: number): string {
  return `${caseId}\u0000${trial}`;
}

/**
 * placebo: the failed trial re-asked with its visible set unchanged (fresh draws: the chance a
 * failure recovers by itself); inject: the acceptable tool(s) exposed, then the retriever runs
 * (coverage, exposure) or added to the visible set (discovery); inject-visible: past exposure and
 * retrieval both, straight into the visible set (coverage, exposure); remove-rival: the tool
 * picked instead removed; first: the acceptable tool moved to the front; pair: only the
 * acceptable tool, the rival and the controls (selection failures); load: a tool-search run's
 * decision asked again with the acceptable tool loaded up front, no search needed (discovery).
 */
export const COUNTERFACTUAL_KINDS = [
  "placebo",
  "inject",
  "inject-visible",
  "remove-rival",
  "first",
  "pair",
  "load",
] as const;
export type CounterfactualKind = (typeof COUNTERFACTUAL_KINDS)[number];
/** The kinds that change something (every batch also asks the placebo). */
export const FIX_KINDS = COUNTERFACTUAL_KINDS.filter(
  (k): k is Exclude<CounterfactualKind, "placebo"> => k !== "placebo",
);
export type FixKind = (typeof FIX_KINDS)[number];

/** Where an injected tool was placed: at the retriever's rank, or a seeded random position. */
export type Placement =
  | "retriever rank"
  | "seeded random"
  | "moved first"
  | "kept order"
  | "retriever ran"
  | "loaded up front";

/** What a counterfactual trial record carries beside the usual fields. */
export interface CounterfactualInfo {
  kind: CounterfactualKind;
  /** The failed trial it re-asks. */
  of: { case_id: string; trial: number };
  /**
   * 0-based counterfactual repeat (the request's trial index). Its seed is drawn from (run seed,
   * case, failed trial, repeat): shared by the placebo and every fix arm of the failed trial, and
   * never the failed trial's own.
   */
  repeat: number;
  placement: Placement;
  /** The tools this counterfactual added or removed. */
  changed: string[];
}
