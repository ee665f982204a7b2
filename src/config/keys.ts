/**
 * The config key table: every setting of route-eval.yaml, once. The command-line options, the
 * flag → config overrides, the defaults, the JSON Schema of the file (schemas/config.schema.json
 * is checked against it by a test) and the settings pinned in run.json (run-config.ts) all come from here.
 * Adding a key is one row here plus its field in `Config` (the compiler insists on both).
 */
import { describeEndpoints } from "../types/providers.js";
import { resolve } from "node:path";
import { CONTROL_NAMES } from "../types/tools.js";
import {
  CONVERSATION_MODES,
  DESCRIPTION_MODES,
  SEARCH_KINDS,
  TOOL_SEARCH_MODES,
  EXPOSURE_MODES,
  RETRIEVERS,
  STORE_MODES,
  SUCCESS_KINDS,
  type Config,
  type SettingKey,
} from "../types/config.js";
import type { ControlName } from "../types/tools.js";
import type { JsonObject } from "../types/json.js";
import {
  MOST_SEARCHES,
  MOST_TRIALS,
  wholeNumberUpTo,
  nonNegativeInt,
  nonNegativeNumber,
  parseBoolean,
  parseTarget,
  parseTrials,
  parseUnitInterval,
  positiveInt,
} from "./parse-number.js";

export interface KeySpec<T> {
  /** Commander's option spec, e.g. "-n, --trials <n>"; absent = file only. */
  flags?: string;
  /** One line for --help; " (config: PATH)" is appended. */
  help: string;
  /** Turns the flag's text into the value (a bad one is a usage error, exit 2). */
  parse?: (raw: string) => T;
  /** The accepted values, shown in --help and checked by commander. */
  choices?: readonly string[];
  /** The value when neither the file nor a flag sets it; a function of the config's directory for paths. */
  default: T | ((root: string) => T);
  /** JSON Schema of the value as written in route-eval.yaml. */
  schema: JsonObject;
  /** How a relative path is read: against the file's directory (or cwd for a flag), or as case globs. */
  path?: "file" | "glob";
  /** Turns the value as written (already valid against `schema`) into the setting, e.g. controls "off" → []. */
  read?: (written: unknown) => T;
}

/** The type of the setting at a dotted path of Config ("discovery.k" → number). */
type ValueAt<T, P extends string> = P extends `${infer Head}.${infer Rest}`
  ? Head extends keyof T
    ? ValueAt<NonNullable<T[Head]>, Rest>
    : never
  : P extends keyof T
    ? T[P]
    : never;

type TopOf<P> = P extends `${infer Head}.${string}` ? Head : P;

function defineKeys<T extends { [P in keyof T]: KeySpec<ValueAt<Config, P & string>> }>(
  table: T,
): T {
  return table;
}

const URL_PATTERN = {
  pattern: "^https?://",
  patternErrorMessage: "expected an http:// or https:// URL such as http://localhost:8000/v1",
};
const ENV_NAME = {
  pattern: "^[A-Za-z_][A-Za-z0-9_]*$",
  patternErrorMessage:
    "expected the name of an environment variable, such as MY_PROVIDER_KEY (not the key itself)",
};

export const DEFAULT_SYSTEM_PROMPT =
  "You are the tool router of an assistant. Choose the single best tool for the user's request " +
  "from the tools provided and call it, taking argument values from the request and the context " +
  "without inventing any. If a tool fits but information it needs is missing, call ask_user to " +
  "ask for it. If the request can only proceed once something outside the conversation happens, " +
  "call wait_for_event. If none of the tools can serve the request, call no_applicable_tool. " +
  "Make exactly one tool call.";

/** Keyed by the dotted path in route-eval.yaml; rows in --help order. */
export const CONFIG_KEYS = defineKeys({
  cases: {
    flags: "--cases <glob...>",
    help: "case files or globs",
    default: ["cases/*.yaml"],
    path: "glob",
    schema: {
      description: "Glob(s) of routing-case files (*, ?, ** supported).",
      type: ["string", "array"],
      items: { type: "string", minLength: 1 },
      minItems: 1,
      minLength: 1,
    },
  },
  registry: {
    flags: "--registry <file>",
    help: "registry snapshot for every case file",
    default: null,
    path: "file",
    schema: {
      description:
        "Registry snapshot used by every case file, overriding each file's own `registry:`.",
      type: ["string", "null"],
      minLength: 1,
    },
  },
  endpoint: {
    flags: "-e, --endpoint <name>",
    help: `endpoint: ${describeEndpoints()}`,
    default: "baseline",
    schema: {
      description: `Endpoint: ${describeEndpoints()} (docs/endpoints.md).`,
      type: "string",
      minLength: 1,
    },
  },
  model: {
    flags: "-m, --model <name>",
    help: "model name for the endpoint",
    default: null,
    schema: { type: ["string", "null"], minLength: 1 },
  },
  trials: {
    flags: "-n, --trials <n>",
    help: "trials per case (auto: adaptive trials against the gates, up to --max-trials)",
    parse: parseTrials,
    default: 3,
    schema: {
      description:
        "Trials per case (n), or auto: adaptive trials against the gates (adaptive: auto), up to max_trials.",
      oneOf: [{ type: "integer", minimum: 1, maximum: MOST_TRIALS }, { const: "auto" }],
    },
    read: (written) => (written === "auto" ? Infinity : (written as number)),
  },
  adaptive: {
    flags: "--adaptive <target>",
    help: "sample each case until an anytime-valid test decides it against TARGET (a success probability, e.g. 0.9; auto: from the gates), up to --max-trials",
    parse: parseTarget,
    default: null,
    schema: {
      description:
        "Adaptive trials: each case sampled until a one-sided beta-binomial mixture e-process decides it against this per-case success probability (or auto: from the gates), up to max_trials.",
      oneOf: [
        { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
        { const: "auto" },
        { type: "null" },
      ],
    },
  },
  adaptive_alpha: {
    flags: "--adaptive-alpha <p>",
    help: "family-wise error of the adaptive decisions, split across the cases",
    parse: parseUnitInterval,
    default: 0.05,
    schema: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
  },
  max_trials: {
    flags: "--max-trials <n>",
    help: "adaptive trials: the most trials a case is given (it is undecided there)",
    parse: wholeNumberUpTo(MOST_TRIALS),
    default: 60,
    schema: { type: "integer", minimum: 1, maximum: MOST_TRIALS },
  },
  concurrency: {
    flags: "--concurrency <n>",
    help: "trials in flight at once",
    parse: positiveInt,
    default: 4,
    schema: { type: "integer", minimum: 1 },
  },
  temperature: {
    flags: "--temperature <t>",
    help: "sampling temperature",
    parse: nonNegativeNumber,
    default: 0,
    schema: { type: "number", minimum: 0, maximum: 2 },
  },
  "discovery.retriever": {
    flags: "--retriever <name>",
    help: "discovery retriever",
    choices: RETRIEVERS,
    default: "none",
    schema: { enum: [...RETRIEVERS] },
  },
  "discovery.k": {
    flags: "-k, --k <n>",
    help: "retrieval budget of ordinary tools",
    parse: positiveInt,
    default: undefined,
    schema: {
      description:
        "Budget of ordinary tools kept by the retriever (controls never count). Required with bm25 or embeddings.",
      type: "integer",
      minimum: 1,
    },
  },
  "discovery.embeddings.model": {
    flags: "--embeddings-model <name>",
    help: "embedding model",
    default: undefined,
    schema: {
      description: "Embedding model (default text-embedding-3-small).",
      type: "string",
      minLength: 1,
    },
  },
  "discovery.embeddings.base_url": {
    flags: "--embeddings-base-url <url>",
    help: "OpenAI-compatible API base URL",
    default: undefined,
    schema: {
      description:
        "Base URL of the API, e.g. http://127.0.0.1:11434/v1 (default https://api.openai.com/v1).",
      type: "string",
      pattern: "^https?://",
      patternErrorMessage: "expected an http:// or https:// URL",
    },
  },
  "discovery.embeddings.api_key_env": {
    flags: "--embeddings-api-key-env <var>",
    help: "environment variable holding its key",
    default: undefined,
    schema: {
      description:
        "Environment variable holding the API key (default OPENAI_API_KEY). Keys never go in a file.",
      type: "string",
      pattern: ENV_NAME.pattern,
      patternErrorMessage: "expected the name of an environment variable, not the key itself",
    },
  },
  "tool_search.mode": {
    flags: "--tool-search <mode>",
    help: "off: every visible tool loaded · provider: the endpoint's own tool search over deferred tools · client: route-eval's search_tools function",
    choices: TOOL_SEARCH_MODES,
    default: "off",
    schema: {
      description:
        "Deferred loading: off (default) = every visible tool is loaded; provider = the exposed ordinary tools are sent deferred with the provider's own tool search (openai-responses, anthropic); client = route-eval answers the model's searches (search_tools, or the provider's client-executed form). See docs/tool-search.md.",
      enum: [...TOOL_SEARCH_MODES],
    },
  },
  "tool_search.k": {
    flags: "--search-k <n>",
    help: "tools one search returns (route-eval's search)",
    parse: positiveInt,
    default: 5,
    schema: {
      description:
        "Tools one search returns when route-eval answers it (default 5; a provider's hosted search decides for itself).",
      type: "integer",
      minimum: 1,
    },
  },
  "tool_search.kind": {
    flags: "--search-kind <kind>",
    help: "what answers a search: bm25, regex, or embeddings (client only)",
    choices: SEARCH_KINDS,
    default: "bm25",
    schema: {
      description:
        "What answers a search: bm25 (default) or regex — the provider's variant (Anthropic) or route-eval's own — or embeddings (client only: the discovery.embeddings settings).",
      enum: [...SEARCH_KINDS],
    },
  },
  "tool_search.always_loaded": {
    flags: "--always-loaded <names...>",
    help: "tools loaded from the start: names, or family:NAME",
    default: [],
    schema: {
      description:
        "Tools that stay loaded (never deferred): tool names, or family:NAME for every tool of a family.",
      type: "array",
      items: { type: "string", minLength: 1 },
      uniqueItems: true,
    },
  },
  "tool_search.max_searches": {
    flags: "--max-searches <n>",
    help: "searches one decision may make (one more ends it: search_limit)",
    parse: wholeNumberUpTo(MOST_SEARCHES),
    default: 3,
    schema: {
      description:
        "Searches one decision may make; a search asked for beyond it ends the decision without a call (outcome search_limit). Default 3.",
      type: "integer",
      minimum: 1,
      maximum: MOST_SEARCHES,
    },
  },
  "tool_search.namespaces": {
    flags: "--search-namespaces",
    help: "openai-responses' own search: the deferred tools grouped into one namespace per family",
    default: false,
    schema: {
      description:
        "With tool_search.mode provider on openai-responses: send the deferred tools grouped into one namespace per family (OpenAI recommends namespaces; the model first sees each namespace's name and description). Default false: one deferred function per tool.",
      type: "boolean",
    },
  },
  seed: {
    flags: "--seed <n>",
    help: "run seed",
    parse: nonNegativeInt,
    default: 1,
    schema: { type: "integer" },
  },
  system_prompt: {
    flags: "--system-prompt <text>",
    help: "system prompt",
    default: DEFAULT_SYSTEM_PROMPT,
    schema: { type: "string", minLength: 1 },
  },
  out_dir: {
    flags: "--out-dir <dir>",
    help: "directory that receives <run-id>/ (formerly -o/--out)",
    default: (root) => resolve(root, "reports"),
    path: "file",
    schema: {
      description: "Directory that receives reports/<run-id>.",
      type: "string",
      minLength: 1,
    },
  },
  mode: {
    flags: "--mode <mode>",
    help: "live: always call · cached: store first · replay: store only",
    choices: STORE_MODES,
    default: "cached",
    schema: {
      description:
        "live: always call; cached: store first, call on a miss; replay: store only (a miss is an error).",
      enum: [...STORE_MODES],
    },
  },
  store_dir: {
    flags: "--store <dir>",
    help: "response store directory",
    default: (root) => resolve(root, ".route-eval", "store"),
    path: "file",
    schema: {
      description: "Content-addressed store of endpoint answers (default .route-eval/store).",
      type: "string",
      minLength: 1,
    },
  },
  base_url: {
    flags: "--base-url <url>",
    help: "provider base URL, e.g. an OpenAI-compatible server's http://localhost:8000/v1",
    default: null,
    schema: {
      description:
        "Base URL of the provider API, e.g. http://localhost:11434/v1 for Ollama; null = the provider's own.",
      type: ["string", "null"],
      ...URL_PATTERN,
    },
  },
  api_key_env: {
    flags: "--api-key-env <name>",
    help: "environment variable holding the API key",
    default: null,
    schema: {
      description:
        "Environment variable that holds the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY). The key itself never goes in a file.",
      type: ["string", "null"],
      ...ENV_NAME,
    },
  },
  max_tokens: {
    flags: "--max-tokens <n>",
    help: "output token budget per call",
    parse: positiveInt,
    default: 1024,
    schema: {
      description: "Output token budget of each call (default 1024).",
      type: "integer",
      minimum: 1,
    },
  },
  timeout_ms: {
    flags: "--timeout-ms <n>",
    help: "time limit of one attempt",
    parse: positiveInt,
    default: 60_000,
    schema: {
      description: "Time limit of one attempt (default 60000).",
      type: "integer",
      minimum: 1,
    },
  },
  retry_budget_ms: {
    flags: "--retry-budget-ms <n>",
    help: "time one trial may spend on retries (default 10 minutes)",
    parse: positiveInt,
    default: 600_000,
    schema: {
      description:
        "Time one trial may spend retrying 408/409/429/5xx, timeouts, resets and unreadable replies (default 600000 = 10 minutes).",
      type: "integer",
      minimum: 1,
    },
  },
  max_retries: {
    flags: "--max-retries <n>",
    help: "an extra cap on attempts after the first (default: none, the budget decides)",
    parse: nonNegativeInt,
    default: null,
    schema: {
      description:
        "An extra cap on attempts after the first; null (default) = only retry_budget_ms limits retries.",
      type: ["integer", "null"],
      minimum: 0,
    },
  },
  breaker_window_ms: {
    flags: "--breaker-window-ms <n>",
    help: "stop the run when no call has succeeded for this long (default 60 s)",
    parse: positiveInt,
    default: 60_000,
    schema: {
      description:
        "The circuit breaker: no successful call for this long while calls keep failing stops the run (exit 3); default 60000.",
      type: "integer",
      minimum: 1,
    },
  },
  retry_base_ms: {
    flags: "--retry-base-ms <n>",
    help: "base of the exponential backoff between attempts",
    parse: nonNegativeInt,
    default: 500,
    schema: {
      description:
        "Base of the exponential backoff between attempts, with full jitter (default 500).",
      type: "integer",
      minimum: 0,
    },
  },
  shuffle_tools: {
    flags: "--shuffle-tools",
    help: "permute the visible tools per trial, seeded",
    default: false,
    schema: {
      description:
        "Permute the visible tools per trial, seeded by (seed, case, trial), to measure position effects.",
      type: "boolean",
    },
  },
  success: {
    flags: "--success <which>",
    help: "what a correct trial is for pass^k, JUnit and flips: selection, or call (right tool and arguments)",
    choices: SUCCESS_KINDS,
    default: "selection",
    schema: {
      description:
        "selection (default): the ladder passed; call: also the arguments parse, are valid and meet the case's expectations (call_accuracy).",
      enum: [...SUCCESS_KINDS],
    },
  },
  phases: {
    help: "exposure policies by phase name",
    default: {},
    schema: {
      description: "Exposure policies by phase name.",
      type: "object",
      additionalProperties: { $ref: "#/$defs/phase" },
    },
  },
  exposure: {
    flags: "--exposure <on|off>",
    help: "off: ignore the phases, every registry tool is exposed",
    choices: EXPOSURE_MODES,
    default: "on",
    schema: {
      description:
        "on (default): each case's phase policy decides what is exposed; off: every registry tool is exposed (the cases keep their phase).",
      enum: [...EXPOSURE_MODES],
    },
  },
  controls: {
    help: "trusted control outcomes offered in every phase",
    default: [...CONTROL_NAMES],
    read: readControls,
    schema: {
      description:
        'Trusted control outcomes offered in every phase: a list, "on" (all three) or "off" (none).',
      anyOf: [
        { type: "array", items: { enum: [...CONTROL_NAMES] }, uniqueItems: true },
        { enum: ["on", "off"] },
      ],
      errorMessage: `expected a list of ${CONTROL_NAMES.join(", ")}, or "on" (all) or "off" (none)`,
    },
  },
  conversation_mode: {
    flags: "--conversation-mode <mode>",
    help: "teacher-forced: each turn with the gold history before it · on-policy: the model's own calls fed forward",
    choices: CONVERSATION_MODES,
    default: "teacher-forced",
    schema: {
      description:
        "How conversation cases (turns:) are asked: teacher-forced (default) — each turn with the gold history of the turns before it, every turn an independent decision; on-policy — the model's own calls of earlier turns fed forward, with the turns' results and stub results (results:), to show how a wrong turn propagates.",
      enum: [...CONVERSATION_MODES],
    },
  },
  descriptions: {
    flags: "--descriptions <which>",
    help: "full: purpose, use_when and avoid_when · purpose: the purpose alone",
    choices: DESCRIPTION_MODES,
    default: "full",
    schema: {
      description:
        "What each tool's model-facing description holds: full (default) = purpose, use_when and avoid_when; purpose = the purpose alone (vague descriptions, no second registry needed).",
      enum: [...DESCRIPTION_MODES],
    },
  },
  command: {
    flags: "--command <cmd>",
    help: "the command endpoint's command line (your agent or router; see docs/endpoints.md)",
    default: null,
    schema: {
      description:
        "The `command` endpoint: a command line run by the shell, once per concurrent worker, speaking newline-delimited JSON (schemas/endpoint-request.schema.json, endpoint-reply.schema.json).",
      type: ["string", "null"],
      minLength: 1,
    },
  },
  endpoint_version: {
    flags: "--endpoint-version <v>",
    help: "version of your agent or router (part of the store key of command/http answers)",
    default: null,
    schema: {
      description:
        "A version string of the agent or router behind `command` / `http`; change it to ask again instead of answering from the store.",
      type: ["string", "null"],
      minLength: 1,
    },
  },
  headers_env: {
    help: "http endpoint: header → environment variable holding its value",
    default: {},
    schema: {
      description:
        "Headers of the `http` endpoint, each read from an environment variable (values never go in a file), e.g. {Authorization: AGENT_TOKEN}.",
      type: "object",
      additionalProperties: { type: "string", ...ENV_NAME },
    },
  },
  tool_choice: {
    flags: "--tool-choice <choice>",
    help: "auto, required, none, or a tool's name (default: the provider's)",
    default: null,
    schema: {
      description:
        "auto | required | none | the name of a tool to force; null = the provider's default.",
      type: ["string", "null"],
      minLength: 1,
    },
  },
  parallel_tool_calls: {
    flags: "--parallel-tool-calls <bool>",
    help: "allow several tool calls in one reply (OpenAI)",
    parse: parseBoolean,
    default: null,
    schema: {
      description: "OpenAI parallel_tool_calls; null = the provider's default.",
      type: ["boolean", "null"],
    },
  },
  strict: {
    flags: "--strict",
    help: "OpenAI strict function schemas",
    default: false,
    schema: {
      description:
        "Send OpenAI function tools with strict: true (Structured Outputs for arguments).",
      type: "boolean",
    },
  },
  disable_parallel_tool_use: {
    flags: "--disable-parallel-tool-use <bool>",
    help: "Anthropic: at most one tool call per reply",
    parse: parseBoolean,
    default: null,
    schema: {
      description:
        "Anthropic tool_choice.disable_parallel_tool_use; null = the provider's default.",
      type: ["boolean", "null"],
    },
  },
  prices: {
    help: "USD per million tokens by model, for the report's cost estimate",
    default: {},
    schema: {
      description:
        "Prices by model name, for the report's estimated cost: {input_per_mtok, output_per_mtok, batch_discount?} (USD per million tokens; batch_discount 0.5 = half, applied to --batch runs). None is built in.",
      type: "object",
      additionalProperties: {
        type: "object",
        additionalProperties: false,
        required: ["input_per_mtok", "output_per_mtok"],
        properties: {
          input_per_mtok: { type: "number", minimum: 0 },
          output_per_mtok: { type: "number", minimum: 0 },
          batch_discount: { type: "number", minimum: 0, maximum: 1 },
        },
      },
    },
  },
  batch: {
    help: "ask through the provider's batch API (run and ablate; openai, anthropic)",
    default: false,
    schema: {
      description:
        "Ask through the provider's batch API (OpenAI Batch, Anthropic Message Batches) in route-eval run and ablate; --batch / --no-batch override it. See docs/batch-and-shards.md.",
      type: "boolean",
    },
  },
  gates: {
    help: "CI thresholds by metric name",
    default: {},
    schema: {
      description:
        'CI thresholds by metric name: a comparison such as ">= 0.9", or {k, min} for pass_hat_k.',
      type: "object",
      additionalProperties: { $ref: "#/$defs/gate" },
    },
  },
});

export type ConfigPath = keyof typeof CONFIG_KEYS;

/**
 * The settings a variant may change (route-eval.yaml `variants:`). Not trials (the paired tests
 * pair trial i of a case with trial i), nor the cases, nor operational settings (store, retries).
 */
export const VARIANT_KEYS = [
  "registry",
  "phases",
  "exposure",
  "controls",
  "descriptions",
  "discovery",
  "tool_search",
  "endpoint",
  "model",
  "base_url",
  "api_key_env",
  "temperature",
  "system_prompt",
  "shuffle_tools",
  "seed",
  "max_tokens",
  "command",
  "endpoint_version",
  "headers_env",
  "conversation_mode",
  "tool_choice",
  "parallel_tool_calls",
  "strict",
  "disable_parallel_tool_use",
] as const satisfies readonly TopOf<ConfigPath>[];

/** controls: "on" = every control, "off" = none, else the list as written. */
function readControls(written: unknown): ControlName[] {
  if (written === "on") return [...CONTROL_NAMES];
  if (written === "off") return [];
  return written as ControlName[];
}

/** Fails to compile when a setting of Config has no row, or a row names no setting. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const EVERY_SETTING_HAS_A_ROW: Same<TopOf<ConfigPath>, SettingKey> = true;
void EVERY_SETTING_HAS_A_ROW;

/** A setting's default: its row's, or for a group of rows (tool_search) the object of theirs. */
export function settingDefault(key: SettingKey, root?: string): unknown {
  const row = (CONFIG_KEYS as Record<string, KeySpec<unknown>>)[key];
  // A path's default depends on the config's folder.
  if (row !== undefined)
    return typeof row.default === "function" && root !== undefined
      ? row.default(root)
      : row.default;
  return Object.fromEntries(
    listConfigKeys()
      .filter(([path]) => path.startsWith(`${key}.`))
      .map(([path, spec]) => [path.slice(key.length + 1), spec.default]),
  );
}

/** Every row as [path, spec], in table order. */
export function listConfigKeys(): [ConfigPath, KeySpec<unknown>][] {
  return Object.entries(CONFIG_KEYS) as [ConfigPath, KeySpec<unknown>][];
}

/** Where a key sits in ConfigOverrides: its file path without the `discovery.` group (flat there). */
export function overridePath(path: ConfigPath): string[] {
  const parts = path.split(".");
  return parts[0] === "discovery" ? parts.slice(1) : parts;
}
