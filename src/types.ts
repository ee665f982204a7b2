/**
 * The records of route-eval, in pipeline order:
 * Tool → Registry → Case → Exposure → Request → Response → TrialRecord → Metrics → Report.
 * Everything past the loaders trusts these types; validation happens once at the boundary.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

// ── Tools and registries ────────────────────────────────────────────────────────────────────

/** Ordered effect levels: none < read_only < mutating < destructive. */
export const EFFECTS = ["none", "read_only", "mutating", "destructive"] as const;
export type Effect = (typeof EFFECTS)[number];

/** Runtime-owned pseudo-tools. Trusted, always visible, never count against k. */
export const CONTROL_NAMES = ["ask_user", "wait_for_event", "no_applicable_tool"] as const;
export type ControlName = (typeof CONTROL_NAMES)[number];
export const CONTROL_FAMILY = "control";
export const ABSTAIN: ControlName = "no_applicable_tool";
export const ASK: ControlName = "ask_user";

export interface Tool {
  name: string;
  family: string;
  purpose: string;
  use_when: string[];
  avoid_when: string[];
  input_schema?: JsonObject;
  output_schema?: JsonObject;
  effect: Effect;
  idempotent: boolean;
  open_world: boolean;
}

/** A registry snapshot: everything that exists. `tools` holds ordinary tools only. */
export interface Registry {
  snapshot: string;
  revision: string;
  /** Absolute path of the snapshot file ("" when built in memory). */
  file: string;
  tools: Tool[];
}

/** What the model sees for one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonObject;
}

// ── Configuration ──────────────────────────────────────────────────────────────────────────

export interface PhasePolicy {
  /** Families admitted; absent = every family. */
  families?: string[];
  /** Highest effect admitted; absent = destructive. */
  max_effect?: Effect;
  /** Whether open-world tools are admitted; absent = true. */
  open_world?: boolean;
}

export const RETRIEVERS = ["none", "bm25", "embeddings"] as const;
export type RetrieverName = (typeof RETRIEVERS)[number];

export interface DiscoveryConfig {
  retriever: RetrieverName;
  /** Budget of ordinary tools kept by the retriever; controls never count against it. */
  k?: number;
  /** Settings of the `embeddings` retriever; absent keys take EMBEDDINGS_DEFAULTS. */
  embeddings?: Partial<EmbeddingsConfig>;
}

/** Any OpenAI-compatible `/embeddings` endpoint. The key is read from the environment only. */
export interface EmbeddingsConfig {
  model: string;
  base_url: string;
  /** Name of the environment variable that holds the API key. */
  api_key_env: string;
}

export const EMBEDDINGS_DEFAULTS: EmbeddingsConfig = {
  model: "text-embedding-3-small",
  base_url: "https://api.openai.com/v1",
  api_key_env: "OPENAI_API_KEY",
};

/** A gate: `"OP NUMBER"` on a rate (e.g. ">= 0.9"), or pass^k with a minimum. */
export type GateSpec = string | { k: number; min: number };

/** How endpoint answers are fetched: always call, store first then call, or store only. */
export const STORE_MODES = ["live", "cached", "replay"] as const;
export type StoreMode = (typeof STORE_MODES)[number];

export interface Config {
  /** Absolute path of route-eval.yaml, or null when running on defaults and flags. */
  file: string | null;
  /** Directory relative paths resolve against. */
  root: string;
  cases: string[];
  /** Registry override for every case file (absolute), or null to use each file's own. */
  registry: string | null;
  phases: Record<string, PhasePolicy>;
  controls: ControlName[];
  discovery: DiscoveryConfig;
  endpoint: string;
  model: string | null;
  trials: number;
  concurrency: number;
  temperature: number;
  system_prompt: string;
  seed: number;
  out_dir: string;
  /** Content-addressed store of endpoint answers (absolute). */
  store_dir: string;
  mode: StoreMode;
  /** Base URL of the provider API (any OpenAI-compatible server for `openai`); null = the provider's own. */
  base_url: string | null;
  /** Environment variable holding the API key; null = the provider's (OPENAI_API_KEY, ANTHROPIC_API_KEY). */
  api_key_env: string | null;
  /** Output token budget of each call. */
  max_tokens: number;
  /** Time limit of one attempt of one call. */
  timeout_ms: number;
  /** Attempts after the first on 408/409/429/5xx, timeouts and connection resets. */
  max_retries: number;
  /** Base of the exponential backoff (full jitter) between attempts. */
  retry_base_ms: number;
  /** Permute the visible tools per trial, seeded by (seed, case, trial). */
  shuffle_tools: boolean;
  gates: Record<string, GateSpec>;
}

// ── Cases ───────────────────────────────────────────────────────────────────────────────────

/** An expectation on one argument: an exact JSON value, or a regular expression on its string form. */
export type ArgExpectation = JsonValue | { pattern: string };

export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonObject;
}

/** A provider-neutral prior turn. */
export type Message =
  | { role: "user"; content: string }
  | { role: "assistant"; content?: string; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; name?: string; content: string };

export interface Case {
  id: string;
  goal: string;
  phase: string | null;
  acceptable: string[];
  forbidden: string[];
  family: string | null;
  tags: string[];
  /** tool name → argument name → expectation. */
  args: Record<string, Record<string, ArgExpectation>>;
  context: JsonObject;
  messages: Message[];
  must_see: string[];
  must_not_see: string[];
  /** Where the case was written: absolute file path and 1-based line. */
  source: { file: string; line: number };
  registry: Registry;
}

// ── Exposure and discovery ──────────────────────────────────────────────────────────────────

export type HiddenReason = "family" | "effect" | "open_world";

export interface Exposure {
  /** Controls first, then exposed ordinary tools in registry order. */
  exposed: string[];
  /** Ordinary tools the phase hid, with the first rule that hid each. */
  hidden: Record<string, HiddenReason>;
}

export interface Discovery {
  /** Controls ∪ retrieved ordinary tools, in the order shown to the model. */
  visible: string[];
  /** Ordinary tools kept by the retriever (no controls). */
  retrieved: string[];
  /** The budget used, or null when there is no retriever (visible = exposed). */
  k: number | null;
  /** Retriever score of each ordinary exposed tool, when the retriever scores. */
  scores: Record<string, number> | null;
}

// ── Endpoints ───────────────────────────────────────────────────────────────────────────────

export interface TrialRequest {
  case_id: string;
  trial: number;
  system: string;
  context: JsonObject;
  messages: Message[];
  goal: string;
  tools: ToolDefinition[];
  temperature: number;
  /** Sampling seed, for APIs that take one; derived from (run seed, case, trial). */
  seed?: number;
}

export interface Usage {
  /** As reported by the endpoint; null when it reports none. */
  input_tokens: number | null;
  output_tokens: number | null;
  /**
   * route-eval's own estimate of the request's input tokens: ceil(characters / 4) of the JSON of
   * system + context + messages + goal + tool definitions. Never mixed into input_tokens.
   */
  input_tokens_estimated?: number | null;
}

export interface EndpointResponse {
  /** The first tool called, or null when the endpoint answered in text. */
  selected: string | null;
  /** Parsed arguments of the first call; null when no call or unparseable. */
  arguments: JsonValue;
  /** Set when the call's arguments could not be parsed as a JSON object. */
  arguments_error: string | null;
  tool_calls: number;
  text: string | null;
  usage: Usage;
  latency_ms: number;
  /** The provider's id of the request (x-request-id / request-id header, else the response id). */
  provider_request_id?: string | null;
}

/**
 * How a failed call ends: `errored` — the trial is recorded as errored (counted, excluded from
 * rates); `fatal` — the run stops early with exit 3 (400/401/403/404, a replay miss, a missing key).
 */
export const FAILURE_KINDS = ["errored", "fatal"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** How a call went, beside its answer. */
export interface CallInfo {
  /** Content address of the rendered request (the response-store key), when the endpoint renders one. */
  request_hash?: string;
  /** Attempts after the first. */
  retries?: number;
  /** True when the answer came from the response store. */
  from_store?: boolean;
}

/** Endpoint failures are data: an errored trial is counted, listed and excluded from rates. */
export type EndpointOutcome = (
  | { ok: true; response: EndpointResponse }
  | { ok: false; error: string; /** absent = "errored" */ kind?: FailureKind }
) & CallInfo;

export interface Endpoint {
  /** e.g. "baseline", "openai". */
  id: string;
  model: string;
  call(request: TrialRequest): Promise<EndpointOutcome>;
  /** Finish background work (pending response-store writes); call once after the last call. */
  close?(): Promise<void>;
}

// ── Trial records ───────────────────────────────────────────────────────────────────────────

export const STAGES = ["coverage", "exposure", "discovery", "selection"] as const;
export type Stage = (typeof STAGES)[number];

export const SELECTION_ERRORS = ["wrong_tool", "phantom_tool", "no_call", "abstained", "asked", "malformed"] as const;
export type SelectionError = (typeof SELECTION_ERRORS)[number];

/** One line of records.jsonl: one decision, with every set along the way. */
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
  /** Retriever score per ordinary exposed tool, when the retriever scores (null otherwise). */
  retrieval_scores: Record<string, number> | null;
  selection_error: SelectionError | null;
  violated: boolean;
  response_text: string | null;
  tool_calls: number;
  usage: Usage;
  latency_ms: number;
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
}

// ── Metrics ─────────────────────────────────────────────────────────────────────────────────

/** A rate with its evidence: value is null when the denominator is 0. */
export interface Rate {
  numerator: number;
  denominator: number;
  value: number | null;
  /** 95% Wilson score interval; null when the denominator is 0. */
  ci: [number, number] | null;
}

/** A mean over cases of a per-case estimate (pass^k, pass@k): numerator is the sum of estimates. */
export type CaseMean = Rate;

export interface Confusion {
  /** Sorted acceptable names joined by "|". */
  acceptable: string;
  /** Selected tool, or "(no call)". */
  selected: string;
  count: number;
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

export interface Metrics {
  trials: number;
  errored: number;
  scored: number;
  capability_coverage: Rate;
  exposure_recall: Rate;
  /** Funnel row: acceptable ∩ retrieved ≠ ∅ over exposed trials, whatever k. */
  discovery_recall: Rate;
  /** Keyed by k; trials without a retriever are keyed "all". */
  tool_recall_at_k: Record<string, Rate>;
  selection_accuracy: Rate;
  end_to_end_accuracy: Rate;
  abstention_accuracy: Rate;
  violation_rate: Rate;
  argument_validity: Rate;
  argument_match: Rate;
  clarification_rate: Rate;
  abstention_rate: Rate;
  phantom_rate: Rate;
  no_call_rate: Rate;
  mean_visible: number | null;
  failure_profile: Record<Stage, number>;
  selection_errors: Record<SelectionError, number>;
  selection_confusions: Confusion[];
  confusion_matrix: Confusion[];
  rivals: Rival[];
  /** Keyed by k = 1..n. */
  pass_hat_k: Record<string, CaseMean>;
  pass_at_k: Record<string, CaseMean>;
  consistency: number | null;
  /** Ranking quality of the acceptable set, over exposed trials whose retriever recorded scores. */
  retrieval: RetrievalQuality;
  /** Mean input tokens per scored trial: the endpoint's count, else route-eval's estimate. */
  input_tokens: InputTokens;
  /** selection_accuracy split by the third of visible_order holding the first acceptable tool. */
  selection_by_position?: Record<PositionThird, Rate>;
  unstable_cases: { case_id: string; modal: string; modal_count: number; n: number; selections: Record<string, number> }[];
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

// ── Reports ─────────────────────────────────────────────────────────────────────────────────

export const REPORT_SCHEMA_VERSION = 1;

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
  config: {
    cases: string[];
    phases: Record<string, PhasePolicy>;
    controls: ControlName[];
    discovery: DiscoveryConfig;
    trials: number;
    concurrency: number;
    temperature: number;
    seed: number;
    system_prompt: string;
    gates: Record<string, GateSpec>;
    mode?: StoreMode;
    base_url?: string | null;
    /** The variable name the key came from — never the key. */
    api_key_env?: string | null;
    max_tokens?: number;
    shuffle_tools?: boolean;
  };
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
  errored: { case_id: string; trial: number; error: string }[];
  /** Cases whose must_see / must_not_see assertions failed (phase policy checks, no model needed). */
  exposure_assertions: { case_id: string; failures: string[] }[];
}

export interface GateResult {
  metric: string;
  spec: string;
  actual: number | null;
  passed: boolean;
  reason: string;
}
