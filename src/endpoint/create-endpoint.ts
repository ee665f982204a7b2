import { InputError } from "../errors.js";
import { openResponseStore, type ResponseStore } from "../store/response-store.js";
import type { Config, Endpoint } from "../types.js";
import { ANTHROPIC_KEY_VARIABLE, createAnthropicWire } from "./anthropic.js";
import { readApiKey } from "./api-key.js";
import { createBaselineEndpoint } from "./baseline.js";
import { createOpenAIWire, OPENAI_KEY_VARIABLE } from "./openai.js";
import { redactUrl } from "../text/redact-url.js";
import { createBreaker, START_FAILURES } from "./breaker.js";
import { createPace } from "./pace.js";
import { DEFAULT_MAX_DELAY_MS, sleep, type CallGuards, type RetryPolicy } from "./retry.js";
import { createStoredEndpoint } from "./stored-endpoint.js";
import type { ProviderSettings } from "./wire-endpoint.js";

export const PROVIDERS = ["baseline", "openai", "anthropic"] as const;
export type Provider = (typeof PROVIDERS)[number];

const KEY_VARIABLES: Record<Exclude<Provider, "baseline">, string> = {
  openai: OPENAI_KEY_VARIABLE,
  anthropic: ANTHROPIC_KEY_VARIABLE,
};

export interface EndpointEnvironment {
  /** Where keys are read from (only ever the environment, from the run context). */
  env: NodeJS.ProcessEnv;
  /** Retry timing, replaceable in tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Milliseconds clock of the retry budget and the breaker (default performance.now). */
  clock?: () => number;
  /** Where warnings go (a store entry that was asked again). */
  warn?: (message: string) => void;
  /** A store shared with other runs (an experiment's variants): used instead of opening config.store_dir, and left open. */
  store?: ResponseStore;
}

/**
 * The endpoint named by config: `baseline`, or `provider:model` (`openai:gpt-4.1-mini`,
 * `anthropic:claude-sonnet-4-5`); config `model`, when set, names the model instead.
 * Provider endpoints answer through the response store in config `mode`.
 */
export function createEndpoint(config: Config, environment: EndpointEnvironment): Endpoint {
  const separator = config.endpoint.indexOf(":");
  const provider = separator === -1 ? config.endpoint : config.endpoint.slice(0, separator);
  const named = separator === -1 ? null : config.endpoint.slice(separator + 1);
  switch (provider) {
    case "baseline":
      return createBaselineEndpoint();
    case "openai":
    case "anthropic":
      return createProviderEndpoint(provider, config.model ?? named, config, environment);
    default:
      throw new InputError(`unknown endpoint "${config.endpoint}" (expected baseline, openai:MODEL or anthropic:MODEL)`);
  }
}

function createProviderEndpoint(provider: "openai" | "anthropic", model: string | null, config: Config, environment: EndpointEnvironment): Endpoint {
  if (model === null || model === "") {
    throw new InputError(`endpoint "${config.endpoint}" needs a model: write ${provider}:MODEL or pass --model`);
  }
  const key = readApiKey(environment.env, config.api_key_env, KEY_VARIABLES[provider]);
  const settings: ProviderSettings = { model, baseUrl: config.base_url, key, maxTokens: config.max_tokens, timeoutMs: config.timeout_ms };
  if (config.mode === "live" && key.key === null && config.base_url === null) {
    const other = key.isDefault ? ", or name another variable with --api-key-env" : "";
    throw new InputError(`${key.variable} is not set: endpoint ${provider}:${model} needs an API key in mode live; export ${key.variable}${other}`);
  }
  const now = environment.clock ?? (() => performance.now());
  const retry: RetryPolicy = {
    budgetMs: config.retry_budget_ms,
    maxRetries: config.max_retries,
    baseMs: config.retry_base_ms,
    maxDelayMs: DEFAULT_MAX_DELAY_MS,
    sleep: environment.sleep ?? sleep,
    random: environment.random ?? Math.random,
    now,
  };
  const guards: CallGuards = {
    pace: createPace(config.concurrency),
    breaker: createBreaker(`${provider}:${model} at ${config.base_url === null ? "the provider's API" : redactUrl(config.base_url)}`, {
      windowMs: config.breaker_window_ms,
      startFailures: START_FAILURES,
      now,
    }),
  };
  const shared = environment.store;
  const store = shared ?? openResponseStore(config.store_dir);
  const options = { store, ownsStore: shared === undefined, mode: config.mode, retry, guards, warn: environment.warn ?? (() => undefined) };
  return provider === "openai"
    ? createStoredEndpoint(createOpenAIWire(settings), options)
    : createStoredEndpoint(createAnthropicWire(settings), options);
}
