/** Configuration: part of the records of route-eval (see ../types.ts). */
import type { ControlName, Effect } from "./tools.js";

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

/** Which correctness pass^k, JUnit and flips use: the ladder's (selection), or the right call (call). */
export const SUCCESS_KINDS = ["selection", "call"] as const;
export type Success = (typeof SUCCESS_KINDS)[number];

/** How endpoint answers are fetched: always call, store first then call, or store only. */
export const STORE_MODES = ["live", "cached", "replay"] as const;
export type StoreMode = (typeof STORE_MODES)[number];

/** What each tool's model-facing description holds: purpose, use_when and avoid_when (full), or the purpose alone. */
export const DESCRIPTION_MODES = ["full", "purpose"] as const;
export type DescriptionMode = (typeof DESCRIPTION_MODES)[number];

/** Whether phase policies apply (on), or every registry tool is exposed in every phase (off). */
export const EXPOSURE_MODES = ["on", "off"] as const;
export type ExposureMode = (typeof EXPOSURE_MODES)[number];
/** Tool search: off (every visible tool loaded), the provider's own search, or route-eval's client-side search. */
export const TOOL_SEARCH_MODES = ["off", "provider", "client"] as const;
export type ToolSearchMode = (typeof TOOL_SEARCH_MODES)[number];
/** What answers a search: bm25 or a regular expression (the provider's variant, or route-eval's), or the embeddings retriever (client only). */
export const SEARCH_KINDS = ["bm25", "regex", "embeddings"] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The exposed ordinary tools behind a search the model drives (docs/tool-search.md). */
export interface ToolSearchConfig {
  mode: ToolSearchMode;
  /** Tools one search returns (route-eval's search; a provider's own search decides for itself). */
  k: number;
  kind: SearchKind;
  /** Tools loaded from the start: tool names, or `family:NAME` for a whole family. */
  always_loaded: string[];
  /** Searches one decision may make; a search asked for beyond it ends the decision ("search_limit"). */
  max_searches: number;
  /** openai-responses' own search: the deferred tools grouped into one namespace per family (as OpenAI recommends). */
  namespaces: boolean;
}

/** How a conversation's turns are asked: with the gold history, or with the model's own calls fed forward. */
export const CONVERSATION_MODES = ["teacher-forced", "on-policy"] as const;
export type ConversationMode = (typeof CONVERSATION_MODES)[number];

export interface Config {
  /** Absolute path of route-eval.yaml, or null when running on defaults and flags. */
  file: string | null;
  /** Directory relative paths resolve against. */
  root: string;
  /** Where the command runs (from the run context): paths in messages are shown relative to it. */
  cwd: string;
  cases: string[];
  /** Registry override for every case file (absolute), or null to use each file's own. */
  registry: string | null;
  phases: Record<string, PhasePolicy>;
  /** off: the phases are not applied (every registry tool exposed); the cases keep their phase. */
  exposure: ExposureMode;
  /** teacher-forced: each turn with the gold history before it; on-policy: the model's own calls and the stub results fed forward. */
  conversation_mode: ConversationMode;
  controls: ControlName[];
  /** full: purpose + use_when + avoid_when; purpose: the purpose alone (the ablation's "vague" rung). */
  descriptions: DescriptionMode;
  discovery: DiscoveryConfig;
  /** Deferred loading: the exposed ordinary tools behind a search the model drives. */
  tool_search: ToolSearchConfig;
  endpoint: string;
  model: string | null;
  /** Trials per case; with adaptive trials, the most per case (max_trials). */
  trials: number;
  /**
   * Adaptive trials: each case sampled until an anytime-valid test decides it against this target
   * (a per-case success probability θ), or "auto" (θ from the gates); null = a fixed number of trials.
   */
  adaptive: number | "auto" | null;
  /** The family-wise error of the adaptive decisions, split evenly across the cases (Bonferroni). */
  adaptive_alpha: number;
  /** The most trials a case is given under adaptive trials (it is "undecided" there). */
  max_trials: number;
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
  /** Time one trial may spend on retries (408/409/429/5xx, timeouts, resets, unreadable replies). */
  retry_budget_ms: number;
  /** An extra cap on attempts after the first; null = the budget alone decides. */
  max_retries: number | null;
  /** No successful call for this long, while calls fail, stops the run (the circuit breaker). */
  breaker_window_ms: number;
  /** Base of the exponential backoff (full jitter) between attempts. */
  retry_base_ms: number;
  /** Permute the visible tools per trial, seeded by (seed, case, trial). */
  shuffle_tools: boolean;
  /** What a correct trial is for pass^k, JUnit and flips: the ladder passed (selection), or also the arguments (call). */
  success: Success;
  gates: Record<string, GateSpec>;
  /** The `command` endpoint's command line (run by the shell, once per concurrent worker). */
  command: string | null;
  /** A version string of your agent or router: part of every content address of `command` and `http` answers. */
  endpoint_version: string | null;
  /** `http` endpoint: request header → the environment variable holding its value (never the value itself). */
  headers_env: Record<string, string>;
  /** Provider tool controls (null: the provider's default); mapped per provider, an unsupported one is an error. */
  tool_choice: string | null;
  parallel_tool_calls: boolean | null;
  /** OpenAI strict function schemas. */
  strict: boolean;
  /** Anthropic's tool_choice.disable_parallel_tool_use. */
  disable_parallel_tool_use: boolean | null;
  /** Prices per model (USD per million tokens) for the report's cost estimate; none built in. */
  prices: Record<string, ModelPrice>;
  /** Ask through the provider's batch API (run, ablate; `--batch` / `--no-batch` override it). */
  batch: boolean;
  /** route-eval.yaml `variants:`, each resolved to a whole Config (none inside a variant's own Config). */
  variants: Variant[];
  /** `gates.variants`: thresholds on a variant's metrics, against the base, the previous rung or a number. */
  variant_gates: VariantGate[];
}

/** One named variant of the base config: its settings, which of them it changes, where it is written. */
export interface Variant {
  name: string;
  config: Config;
  /** The settings (top-level keys) whose value differs from the base's, in key-table order. */
  changes: string[];
  /** Its line in route-eval.yaml (null: built, as the ablation ladder's rungs are). */
  line: number | null;
}

export interface VariantGate {
  variant: string;
  metric: string;
  /** As written, e.g. ">= base". */
  threshold: string;
  line: number | null;
}

/** Every key of Config that is a setting (file, root and cwd say where it came from). */
export type SettingKey = Exclude<
  keyof Config,
  "file" | "root" | "cwd" | "variants" | "variant_gates"
>;

/** Pinned only when set to other than their default (so run.json of a run that does not use them is unchanged). */
export const OPTIONAL_RUN_KEYS = [
  "exposure",
  "descriptions",
  "command",
  "endpoint_version",
  "tool_choice",
  "parallel_tool_calls",
  "strict",
  "disable_parallel_tool_use",
  "prices",
  "conversation_mode",
  "adaptive",
  "adaptive_alpha",
  "max_trials",
  "tool_search",
] as const satisfies readonly SettingKey[];

/** A model's prices, as the user writes them (nothing is built in that could go stale silently). */
export interface ModelPrice {
  input_per_mtok: number;
  output_per_mtok: number;
  /** The share a batch run saves (0.5 = half price); applied only to batch runs. */
  batch_discount?: number;
}

/** Settings pinned in run.json's `config` (what a report and a diff may read back). */
export const RUN_KEYS = [
  "cases",
  "phases",
  "controls",
  "discovery",
  "trials",
  "concurrency",
  "temperature",
  "seed",
  "system_prompt",
  "gates",
] as const satisfies readonly SettingKey[];
/**
 * Recorded when set to other than their default, like OPTIONAL_RUN_KEYS, but operational: a
 * resume does not pin or compare them (they change how a run asks, not what it measures).
 */
export const NOTED_RUN_KEYS = [
  "retry_budget_ms",
  "max_retries",
  "breaker_window_ms",
  "retry_base_ms",
  "headers_env",
  "store_dir",
] as const satisfies readonly SettingKey[];

/** The settings run.json records outside its `config`, and where (a test holds these lists to the config schema). */
export const RECORDED_ELSEWHERE = {
  endpoint: "run.json endpoint (the provider's name) and model",
  model: "run.json model",
  registry: "run.json registries (each snapshot, revision and file)",
  batch: "run.json batch (true for a batch run)",
  out_dir: "the folder that holds the run's own folder",
  variants: "experiment.json (each variant's run records its own settings)",
} as const satisfies Partial<Record<SettingKey | "variants", string>>;

/** Pinned too, but absent from run.json files written before they existed. */
export const LATER_RUN_KEYS = [
  "mode",
  "base_url",
  "api_key_env",
  "max_tokens",
  "shuffle_tools",
  "success",
  "timeout_ms",
] as const satisfies readonly SettingKey[];
