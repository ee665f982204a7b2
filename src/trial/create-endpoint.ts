import type { ResponseStore } from "../types/endpoint.js";
import { InputError } from "../errors.js";
import { openResponseStore } from "../store/response-store.js";
import type { Config, Endpoint } from "../types.js";
import { createAnthropicWire } from "../endpoint/anthropic.js";
import { readApiKey } from "../endpoint/api-key.js";
import { createBaselineEndpoint } from "../endpoint/baseline.js";
import { createOpenAIWire } from "../endpoint/openai.js";
import { redactUrl } from "../text/redact-url.js";
import { createBreaker, START_FAILURES } from "../endpoint/breaker.js";
import { createPace } from "../endpoint/pace.js";
import {
  DEFAULT_MAX_DELAY_MS,
  sleep,
  type CallGuards,
  type RetryPolicy,
} from "../endpoint/retry.js";
import { createStoredEndpoint, type StoredEndpointOptions } from "./stored-endpoint.js";
import type { ProviderSettings, WireEndpoint } from "../endpoint/wire-endpoint.js";
import { createTransport, type FetchLike } from "../endpoint/http-transport.js";
import {
  describeEndpoints,
  providerOf,
  PROVIDERS,
  type ProviderRow,
  type ProviderTable,
  type Wire,
} from "../types/providers.js";
import { createCommandWire } from "../endpoint/command.js";
import { createHttpWire } from "../endpoint/http-endpoint.js";
import { createResponsesWire } from "../endpoint/openai-responses.js";
import type { NeutralControls } from "../endpoint/neutral-wire.js";
import type { ToolControls } from "../types.js";

/** How many times a command endpoint's processes may die (or be killed) before the run stops. */
const COMMAND_RESTARTS = 5;

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
  /** The provider table the endpoint is looked up in (default: route-eval's own, PROVIDERS); a library user adds rows. */
  providers?: ProviderTable;
  /** A batch run's hook on a store miss (see StoredEndpointOptions.onMiss). */
  onMiss?: StoredEndpointOptions["onMiss"];
  /** A miss answered by a given reply and stored (see StoredEndpointOptions.replyOnMiss). */
  replyOnMiss?: StoredEndpointOptions["replyOnMiss"];
}

/**
 * The endpoint named by config: `baseline`, or `provider:model` (`openai:gpt-4.1-mini`,
 * `groq:llama-3.3-70b-versatile`); config `model`, when set, names the model instead. The
 * provider's row (types/providers.ts) says which wire it speaks, where and with which key;
 * provider endpoints answer through the response store in config `mode`.
 */
export function createEndpoint(config: Config, environment: EndpointEnvironment): Endpoint {
  const table = environment.providers ?? PROVIDERS;
  const found = providerOf(config.endpoint, table);
  if (found === null)
    throw new InputError(
      `unknown endpoint "${config.endpoint}" (expected ${describeEndpoints(table)})`,
    );
  const separator = config.endpoint.indexOf(":");
  const named = separator === -1 ? null : config.endpoint.slice(separator + 1);
  checkControls(found.name, found.row, config, table);
  let transport: FetchLike | null = null;
  const request = {
    provider: found.name,
    row: found.row,
    model: config.model ?? named,
    config,
    environment,
    // Made for the wires that send requests (the baseline and a command never read it).
    get fetch() {
      return (transport ??= createTransport(environment.env));
    },
  };
  return WIRES[found.row.wire](request);
}

interface WireRequest {
  provider: string;
  row: ProviderRow;
  /** The model named by config `model` or after the colon; null when neither names one. */
  model: string | null;
  config: Config;
  environment: EndpointEnvironment;
  /** The endpoint's transport: one connection pool, through the proxy the environment names. */
  fetch: FetchLike;
}

/** How each wire's endpoint is built. */
const WIRES: Record<Wire, (request: WireRequest) => Endpoint> = {
  builtin: () => createBaselineEndpoint(),
  "openai-chat": (r) => createProviderEndpoint(r, createOpenAIWire),
  "openai-responses": (r) => createProviderEndpoint(r, createResponsesWire),
  "anthropic-messages": (r) => createProviderEndpoint(r, createAnthropicWire),
  command: (r) => createCommandEndpoint(r.model ?? "command", r.config, r.environment),
  http: (r) => createHttpEndpoint(r.model ?? "http", r.config, r.environment, r.fetch),
};

function checkControls(
  provider: string,
  row: ProviderRow,
  config: Config,
  table: ProviderTable,
): void {
  const set: [keyof ToolControls, boolean][] = [
    ["tool_choice", config.tool_choice !== null],
    ["parallel_tool_calls", config.parallel_tool_calls !== null],
    ["strict", config.strict],
    ["disable_parallel_tool_use", config.disable_parallel_tool_use !== null],
  ];
  for (const [name, isSet] of set) {
    if (!isSet || row.controls.includes(name)) continue;
    const takers = Object.keys(table)
      .filter((p) => table[p].controls.includes(name))
      .join(", ");
    throw new InputError(
      `${name}: endpoint ${provider} has no such control (it applies to ${takers}); remove it or choose one of those endpoints`,
    );
  }
}

/** The tool controls as a request carries them. */
export function toolControlsOf(config: Config): ToolControls {
  return {
    tool_choice: config.tool_choice,
    parallel_tool_calls: config.parallel_tool_calls,
    strict: config.strict,
    disable_parallel_tool_use: config.disable_parallel_tool_use,
  };
}

/** Retries and the guards (pace for 429s, breaker for outages) of one endpoint. */
function callPolicy(
  label: string,
  config: Config,
  environment: EndpointEnvironment,
): { retry: RetryPolicy; guards: CallGuards } {
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
    pace: createPace(config.concurrency, now),
    breaker: createBreaker(label, {
      windowMs: config.breaker_window_ms,
      startFailures: START_FAILURES,
      now,
    }),
  };
  return { retry, guards };
}

function storeOptions(
  config: Config,
  environment: EndpointEnvironment,
  policy: { retry: RetryPolicy; guards: CallGuards },
) {
  const shared = environment.store;
  const store = shared ?? openResponseStore(config.store_dir);
  return {
    store,
    ownsStore: shared === undefined,
    mode: config.mode,
    ...policy,
    warn: environment.warn ?? (() => undefined),
    onMiss: environment.onMiss,
    replyOnMiss: environment.replyOnMiss,
  };
}

function createCommandEndpoint(
  model: string,
  config: Config,
  environment: EndpointEnvironment,
): Endpoint {
  if (config.command === null) {
    throw new InputError(
      `endpoint command needs the command line to run: set command: in route-eval.yaml (e.g. command: "node my-router.js") or pass --command`,
    );
  }
  const wire = createCommandWire({
    command: config.command,
    version: config.endpoint_version,
    model,
    cwd: config.cwd,
    env: environment.env,
    workers: config.concurrency,
    timeoutMs: config.timeout_ms,
    controls: neutralControls(config),
    maxRestarts: COMMAND_RESTARTS,
  });
  return createStoredEndpoint(
    wire,
    storeOptions(
      config,
      environment,
      callPolicy(`endpoint command \`${config.command}\``, config, environment),
    ),
  );
}

function createHttpEndpoint(
  model: string,
  config: Config,
  environment: EndpointEnvironment,
  fetch: FetchLike,
): Endpoint {
  if (config.base_url === null) {
    throw new InputError(
      "endpoint http needs the URL to POST each trial to: set base_url: in route-eval.yaml (e.g. http://localhost:8080/route) or pass --base-url",
    );
  }
  const wire = createHttpWire({
    url: config.base_url,
    version: config.endpoint_version,
    model,
    headers: readHeaders(config.headers_env, environment.env),
    timeoutMs: config.timeout_ms,
    controls: neutralControls(config),
    fetch,
  });
  return createStoredEndpoint(
    wire,
    storeOptions(
      config,
      environment,
      callPolicy(`endpoint http at ${redactUrl(config.base_url)}`, config, environment),
    ),
  );
}

function neutralControls(config: Config): NeutralControls {
  return {
    ...(config.tool_choice === null ? {} : { tool_choice: config.tool_choice }),
    ...(config.parallel_tool_calls === null
      ? {}
      : { parallel_tool_calls: config.parallel_tool_calls }),
  };
}

/** Each header's value from its variable; a variable that is not set is an error naming it. */
function readHeaders(
  headersEnv: Record<string, string>,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [header, variable] of Object.entries(headersEnv)) {
    const value = env[variable];
    if (value === undefined || value === "")
      throw new InputError(
        `headers_env.${header}: ${variable} is not set; export ${variable} (its value is the header's)`,
      );
    headers[header] = value;
  }
  return headers;
}

function createProviderEndpoint(
  { provider, row, model, config, environment, fetch }: WireRequest,
  createWire: (settings: ProviderSettings) => WireEndpoint<unknown>,
): Endpoint {
  if (model === null || model === "") {
    throw new InputError(
      `endpoint "${config.endpoint}" needs a model: write ${provider}:MODEL or pass --model`,
    );
  }
  const baseUrl = config.base_url ?? row.base_url;
  if (baseUrl === null)
    throw new InputError(
      `endpoint ${provider} has no default URL; set base_url: in route-eval.yaml or pass --base-url`,
    );
  const key = readApiKey(environment.env, config.api_key_env, row.key);
  // A key is needed for the provider's own API; a server named by base_url, or a row without a key variable (a local host), takes none.
  const keyRequired = config.base_url === null && key.variable !== null;
  const settings: ProviderSettings = {
    provider,
    model,
    baseUrl,
    key,
    keyRequired,
    maxTokens: config.max_tokens,
    timeoutMs: config.timeout_ms,
    controls: toolControlsOf(config),
    fetch,
  };
  if (config.mode === "live" && key.key === null && keyRequired) {
    const other = key.isDefault ? ", or name another variable with --api-key-env" : "";
    throw new InputError(
      `${key.variable} is not set: endpoint ${provider}:${model} needs an API key in mode live; export ${key.variable}${other}`,
    );
  }
  const policy = callPolicy(`${provider}:${model} at ${redactUrl(baseUrl)}`, config, environment);
  return createStoredEndpoint(createWire(settings), storeOptions(config, environment, policy));
}
