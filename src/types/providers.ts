/**
 * The one table of endpoints (docs/endpoints.md): each provider's wire (the protocol its requests
 * are written in), where it answers by default, the variable its API key is read from, its batch
 * API, the tool controls it takes and whether it runs a tool search of its own. Endpoint creation,
 * the config's help and checks, freeze, the trace readers, batch runs and the docs read it; a
 * provider that speaks a known wire (an OpenAI-compatible host, say) is one row here and nothing
 * else: the endpoint takes its name, URL and key variable from the row.
 */
import type { ToolControls } from "./endpoint.js";

/** The protocols route-eval writes requests in; trial/create-endpoint.ts builds each. */
export type Wire =
  "builtin" | "openai-chat" | "openai-responses" | "anthropic-messages" | "command" | "http";

/** The wires whose replies the response store holds as the provider sent them (freeze writes them). */
export const STORED_WIRES = [
  "openai-chat",
  "openai-responses",
  "anthropic-messages",
] as const satisfies readonly Wire[];
export type StoredWire = (typeof STORED_WIRES)[number];

/** The providers' batch APIs (endpoint/batch-api.ts). */
export const BATCH_APIS = ["openai", "anthropic"] as const;
export type BatchApiName = (typeof BATCH_APIS)[number];

export interface ProviderRow {
  wire: Wire;
  /** How the endpoint is written in config and on the command line. */
  usage: string;
  /** What it is, for help and docs. */
  about: string;
  /** Where it answers when config base_url is not set; null: the wire has no default (config names it, or none is needed). */
  base_url: string | null;
  /** The variable the API key is read from (api_key_env overrides it); null: no key (a local server). */
  key: string | null;
  /** The batch API its requests can go through (run --batch), or null: asked live. */
  batch: BatchApiName | null;
  /** The tool controls it takes; setting another is an error naming the endpoint. */
  controls: readonly (keyof ToolControls)[];
  /** Whether it runs a tool search of its own (tool_search.mode: provider). */
  tool_search: boolean;
  /** The names traces give it (OpenTelemetry `gen_ai.provider.name` / `gen_ai.system`): a frozen turn replays through it. */
  traced_as: readonly string[];
}

const OPENAI_CHAT = ["tool_choice", "parallel_tool_calls", "strict"] as const;
/** What OpenAI-compatible hosts take of the tool controls (`strict` is OpenAI's own). */
const COMPATIBLE = ["tool_choice", "parallel_tool_calls"] as const;

/** An OpenAI-compatible host: Chat Completions at its own URL, with its own key variable (or none, locally). */
function compatible(
  usage: string,
  about: string,
  base_url: string,
  key: string | null,
  traced_as: readonly string[] = [],
): ProviderRow {
  return {
    wire: "openai-chat",
    usage,
    about,
    base_url,
    key,
    batch: null,
    controls: COMPATIBLE,
    tool_search: false,
    traced_as,
  };
}

export const PROVIDERS = {
  baseline: {
    wire: "builtin",
    usage: "baseline",
    about: "the built-in deterministic lexical router (no key, no network)",
    base_url: null,
    key: null,
    batch: null,
    controls: [],
    tool_search: false,
    traced_as: [],
  },
  openai: {
    wire: "openai-chat",
    usage: "openai:MODEL",
    about: "OpenAI Chat Completions, or any OpenAI-compatible server at base_url",
    base_url: "https://api.openai.com/v1",
    key: "OPENAI_API_KEY",
    batch: "openai",
    controls: OPENAI_CHAT,
    tool_search: false,
    traced_as: ["openai", "azure.ai.openai"],
  },
  "openai-responses": {
    wire: "openai-responses",
    usage: "openai-responses:MODEL",
    about: "OpenAI Responses API",
    base_url: "https://api.openai.com/v1",
    key: "OPENAI_API_KEY",
    batch: null,
    controls: OPENAI_CHAT,
    tool_search: true,
    traced_as: [],
  },
  anthropic: {
    wire: "anthropic-messages",
    usage: "anthropic:MODEL",
    about: "Anthropic Messages tool use",
    base_url: "https://api.anthropic.com",
    key: "ANTHROPIC_API_KEY",
    batch: "anthropic",
    controls: ["tool_choice", "parallel_tool_calls", "disable_parallel_tool_use"],
    tool_search: true,
    traced_as: ["anthropic"],
  },
  groq: compatible(
    "groq:MODEL",
    "Groq (OpenAI-compatible)",
    "https://api.groq.com/openai/v1",
    "GROQ_API_KEY",
    ["groq"],
  ),
  together: compatible(
    "together:MODEL",
    "Together AI (OpenAI-compatible)",
    "https://api.together.xyz/v1",
    "TOGETHER_API_KEY",
  ),
  openrouter: compatible(
    "openrouter:MODEL",
    "OpenRouter (OpenAI-compatible)",
    "https://openrouter.ai/api/v1",
    "OPENROUTER_API_KEY",
  ),
  fireworks: compatible(
    "fireworks:MODEL",
    "Fireworks AI (OpenAI-compatible)",
    "https://api.fireworks.ai/inference/v1",
    "FIREWORKS_API_KEY",
  ),
  deepseek: compatible(
    "deepseek:MODEL",
    "DeepSeek (OpenAI-compatible)",
    "https://api.deepseek.com",
    "DEEPSEEK_API_KEY",
    ["deepseek"],
  ),
  gemini: compatible(
    "gemini:MODEL",
    "Gemini's OpenAI-compatible endpoint",
    "https://generativelanguage.googleapis.com/v1beta/openai",
    "GEMINI_API_KEY",
    ["gcp.gemini"],
  ),
  ollama: compatible(
    "ollama:MODEL",
    "a local Ollama server (no key)",
    "http://localhost:11434/v1",
    null,
  ),
  vllm: compatible("vllm:MODEL", "a local vLLM server (no key)", "http://localhost:8000/v1", null),
  lmstudio: compatible(
    "lmstudio:MODEL",
    "a local LM Studio server (no key)",
    "http://localhost:1234/v1",
    null,
  ),
  "llama-cpp": compatible(
    "llama-cpp:MODEL",
    "a local llama.cpp server (no key)",
    "http://localhost:8080/v1",
    null,
  ),
  command: {
    wire: "command",
    usage: "command",
    about: "any executable: newline-delimited JSON over stdin/stdout (config `command`)",
    base_url: null,
    key: null,
    batch: null,
    controls: COMPATIBLE,
    tool_search: false,
    traced_as: [],
  },
  http: {
    wire: "http",
    usage: "http",
    about: "the same JSON POSTed to a service (config `base_url`)",
    base_url: null,
    key: null,
    batch: null,
    controls: COMPATIBLE,
    tool_search: false,
    traced_as: [],
  },
} as const satisfies Record<string, ProviderRow>;

/** A provider table: route-eval's own (PROVIDERS), or one a library user or test extends with rows. */
export type ProviderTable = Readonly<Record<string, ProviderRow>>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/** The row of an endpoint ("groq:MODEL", or a store entry's "groq"), or null for an unknown one. */
export function providerOf(
  endpoint: string,
  table: ProviderTable = PROVIDERS,
): { name: string; row: ProviderRow } | null {
  const colon = endpoint.indexOf(":");
  const name = colon === -1 ? endpoint : endpoint.slice(0, colon);
  return Object.hasOwn(table, name) ? { name, row: table[name] } : null;
}

/** The providers whose replies freeze can store (their wire's reply is the provider's own body). */
export function storesReplies(row: ProviderRow): row is ProviderRow & { wire: StoredWire } {
  return (STORED_WIRES as readonly Wire[]).includes(row.wire);
}

/** The provider a trace names (`gen_ai.provider.name`, `llm.provider`), by the row that lists it. */
export function providerTracedAs(traced: string): ProviderName | null {
  return (
    PROVIDER_NAMES.find((name) =>
      (PROVIDERS[name].traced_as as readonly string[]).includes(traced),
    ) ?? null
  );
}

/** "baseline, openai:MODEL, …, command or http": every endpoint as it is written. */
export function describeEndpoints(table: ProviderTable = PROVIDERS): string {
  const usages = Object.values(table).map((row) => row.usage);
  return `${usages.slice(0, -1).join(", ")} or ${usages[usages.length - 1]}`;
}

/** "openai:MODEL, openai-responses:MODEL or anthropic:MODEL": the first provider of each wire whose replies the store holds. */
export function describeStoredEndpoints(): string {
  const usages = STORED_WIRES.map(
    (wire) =>
      PROVIDERS[PROVIDER_NAMES.find((name) => PROVIDERS[name].wire === wire) ?? "openai"].usage,
  );
  return `${usages.slice(0, -1).join(", ")} or ${usages[usages.length - 1]}`;
}
