/**
 * The one table of endpoints (DESIGN §6): each provider's wire (the protocol its requests are
 * written in), the variable its API key is read from, its batch API, the tool controls it takes
 * and how its name is written. Endpoint creation, the config's help and validation, batch runs
 * and the docs read it; adding a provider that speaks a known wire (an OpenAI-compatible host
 * with its own key, say) is one row here.
 */
import type { ToolControls } from "./endpoint.js";

/** The protocols route-eval writes requests in; trial/create-endpoint.ts builds each. */
export type Wire = "builtin" | "openai-chat" | "openai-responses" | "anthropic-messages" | "command" | "http";

/** The providers' batch APIs (endpoint/batch-api.ts). */
export const BATCH_APIS = ["openai", "anthropic"] as const;
export type BatchApiName = (typeof BATCH_APIS)[number];

export interface ProviderRow {
  wire: Wire;
  /** How the endpoint is written in config and on the command line. */
  usage: string;
  /** What it is, for help and docs. */
  about: string;
  /** The variable the API key is read from (api_key_env overrides it); null: no key. */
  key: string | null;
  /** The batch API its requests can go through (run --batch), or null: asked live. */
  batch: BatchApiName | null;
  /** The tool controls it takes; setting another is an error naming the endpoint. */
  controls: readonly (keyof ToolControls)[];
}

export const PROVIDERS = {
  baseline: { wire: "builtin", usage: "baseline", about: "the built-in deterministic lexical router (no key, no network)", key: null, batch: null, controls: [] },
  openai: { wire: "openai-chat", usage: "openai:MODEL", about: "OpenAI Chat Completions, or any OpenAI-compatible base_url (vLLM, Ollama, llama.cpp)", key: "OPENAI_API_KEY", batch: "openai", controls: ["tool_choice", "parallel_tool_calls", "strict"] },
  "openai-responses": { wire: "openai-responses", usage: "openai-responses:MODEL", about: "OpenAI Responses API", key: "OPENAI_API_KEY", batch: null, controls: ["tool_choice", "parallel_tool_calls", "strict"] },
  anthropic: { wire: "anthropic-messages", usage: "anthropic:MODEL", about: "Anthropic Messages tool use", key: "ANTHROPIC_API_KEY", batch: "anthropic", controls: ["tool_choice", "disable_parallel_tool_use"] },
  command: { wire: "command", usage: "command", about: "any executable: newline-delimited JSON over stdin/stdout (config `command`)", key: null, batch: null, controls: ["tool_choice", "parallel_tool_calls"] },
  http: { wire: "http", usage: "http", about: "the same JSON POSTed to a service (config `base_url`)", key: null, batch: null, controls: ["tool_choice", "parallel_tool_calls"] },
} as const satisfies Record<string, ProviderRow>;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/** "baseline, openai:MODEL, …, command or http": every endpoint as it is written. */
export function describeEndpoints(): string {
  const usages = PROVIDER_NAMES.map((name) => PROVIDERS[name].usage);
  return `${usages.slice(0, -1).join(", ")} or ${usages[usages.length - 1]}`;
}
