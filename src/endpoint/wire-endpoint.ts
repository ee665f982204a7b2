/**
 * A provider endpoint split into its steps, so that the response store and the retry loop sit
 * between rendering and sending: render (TrialRequest → the provider's request body, which is
 * what gets hashed and stored), send (one HTTP attempt), normalise (reply → EndpointResponse).
 */
import type { EndpointResponse, ToolControls, TrialRequest } from "../types.js";
import { PLACEHOLDER_KEY, type KeySource } from "./api-key.js";
import type { FailureContext } from "./http-failure.js";
import type { FetchLike } from "./http-transport.js";
import type { AttemptVerdict, HeaderReader } from "./retry.js";

/** One successful HTTP attempt: the parsed JSON body as sent, the provider's request id, the time taken. */
export interface WireReply {
  body: unknown;
  request_id: string | null;
  latency_ms: number;
  /** The reply's headers, when the wire has them (rate-limit headers pace the endpoint). */
  headers?: HeaderReader;
}

export interface WireEndpoint<Body> {
  /** The provider's name: `openai`, `anthropic`, `groq` … */
  id: string;
  model: string;
  /** The effective base URL (part of the store key). */
  baseUrl: string;
  /** Why no live call can be made (e.g. the key variable is unset), or null. */
  unavailable: string | null;
  render(request: TrialRequest): Body;
  /** One attempt. `json` is the body's JSON text (canonical: keys sorted), sent as it is — see sentAs. */
  send(body: Body, json: string): Promise<WireReply>;
  /**
   * The normalised answer, or why the reply cannot be read. `final`: the reply is whole and says
   * it failed (a provider's tool search that errored): the trial errors at once, unretried.
   */
  normalise(reply: WireReply): EndpointResponse | NotAnswered;
  /** `where` names the case and trial for messages. */
  classify(error: unknown, where: string): AttemptVerdict;
  /** Stops what it keeps running (a command endpoint's processes). */
  close?(): Promise<void>;
}

/**
 * The SDK request options that send `json` verbatim as the request body. Both SDKs document the
 * `body` option for replacing what a method sends, and pass a string with a content-type through
 * untouched, so a request is serialised once (for its store key) instead of again by the SDK.
 */
export function sentAs(json: string) {
  return { body: json, headers: { "content-type": "application/json" } };
}

/** Time one attempt. */
/** A reply that is not an answer: unreadable (retried), or whole and failed (`final`: errored at once). */
export interface NotAnswered {
  error: string;
  final?: boolean;
}

export async function timed<T>(send: () => Promise<T>): Promise<{ value: T; latency_ms: number }> {
  const started = performance.now();
  const value = await send();
  return { value, latency_ms: Math.round((performance.now() - started) * 1000) / 1000 };
}

/** What a provider endpoint is built from (config, and the key read from the environment). */
export interface ProviderSettings {
  /** The provider's name in the table (types/providers.ts): what the endpoint calls itself, in records and the store. */
  provider: string;
  model: string;
  /** Where it is asked: config base_url, else the provider row's. */
  baseUrl: string;
  key: KeySource;
  /** Whether a live call needs the key (the provider's own API); a server named by base_url, or a local host, takes none. */
  keyRequired: boolean;
  maxTokens: number;
  timeoutMs: number;
  /** The run's tool controls (config tool_choice, parallel_tool_calls, strict, disable_parallel_tool_use). */
  controls: ToolControls;
  /** The run's transport (http-transport.ts): its connection pool, through the environment's proxy. */
  fetch: FetchLike;
}

/** What failure messages name about a provider endpoint (all but the case and trial). */
export function describeProvider(
  id: string,
  settings: ProviderSettings,
  baseUrl: string,
): Omit<FailureContext, "where"> {
  return {
    endpoint: `${id}:${settings.model}`,
    model: settings.model,
    baseUrl,
    keyVariable: settings.key.variable,
    keySet: settings.key.key !== null,
    keyVariableIsDefault: settings.key.isDefault,
    timeoutMs: settings.timeoutMs,
  };
}

/**
 * Options for either SDK's client. An explicit key keeps the SDK from looking for credentials
 * anywhere else; maxRetries 0 leaves retries to our loop (the SDK's would hide 429s and double
 * the waits); the fetch: see http-transport.ts.
 */
export function sdkClientOptions(settings: ProviderSettings, baseUrl: string) {
  return {
    apiKey: settings.key.key ?? PLACEHOLDER_KEY,
    baseURL: baseUrl,
    timeout: settings.timeoutMs,
    maxRetries: 0,
    fetch: settings.fetch,
  };
}
