/** The `anthropic` endpoint: Messages tool use through the official SDK. */

import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { lazy } from "../text/lazy.js";
import { normaliseAnthropicReply, renderAnthropicRequest } from "./anthropic-wire.js";
import { maskSecrets, redactUrl, urlSecrets } from "../text/redact-url.js";
import { classifyApiFailure, describeError, isUnreadableBody, type ApiFailure } from "./http-failure.js";
import { describeProvider, sdkClientOptions, sentAs, timed, type ProviderSettings, type WireEndpoint } from "./wire-endpoint.js";

export const ANTHROPIC_KEY_VARIABLE = "ANTHROPIC_API_KEY";
export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";

export function createAnthropicWire(settings: ProviderSettings): WireEndpoint<MessageCreateParamsNonStreaming> {
  const baseUrl = settings.baseUrl ?? ANTHROPIC_BASE_URL;
  const secret = settings.key.key;
  // The URL is used for the call only; what is stored, printed or written has no credentials in it.
  const secrets = [...(secret === null ? [] : [secret]), ...urlSecrets(baseUrl)];
  const shownUrl = redactUrl(baseUrl);
  const client = lazy(async () => {
    const { default: AnthropicClient } = await loadSdk();
    return new AnthropicClient(sdkClientOptions(settings, baseUrl));
  });
  const context = describeProvider("anthropic", settings, shownUrl);
  const renderOptions = { model: settings.model, maxTokens: settings.maxTokens, controls: settings.controls };
  return {
    id: "anthropic",
    model: settings.model,
    baseUrl: shownUrl,
    unavailable: secret === null && settings.baseUrl === null ? `${settings.key.variable} is not set` : null,
    render: (request) => renderAnthropicRequest(request, renderOptions),
    send: async (body, json) => {
      const anthropic = await client();
      const { value, latency_ms } = await timed(() => anthropic.messages.create(body, sentAs(json)).withResponse());
      return { body: value.data, request_id: value.request_id ?? null, latency_ms };
    },
    normalise: normaliseAnthropicReply,
    classify: (error, where) => classifyApiFailure(readAnthropicError(error, secrets), { ...context, where }),
  };
}

/** The SDK loads on the first call, so commands that never call a model do not pay for it. */
type AnthropicSdk = typeof import("@anthropic-ai/sdk");
let sdk: AnthropicSdk | null = null;
const loadSdk = lazy(async () => (sdk = await import("@anthropic-ai/sdk")));

function readAnthropicError(error: unknown, secrets: string[]): ApiFailure {
  const detail = maskSecrets(describeError(error), secrets);
  if (isUnreadableBody(error)) return { type: "malformed", detail };
  if (sdk === null) return { type: "other", detail };
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = sdk;
  if (error instanceof APIConnectionTimeoutError) return { type: "timeout" };
  if (error instanceof APIConnectionError) return { type: "connection", detail };
  if (error instanceof APIError && typeof error.status === "number") {
    const message = error.apiMessage ?? error.message.replace(/^\d{3} /, "");
    return { type: "http", status: error.status, headers: error.headers, detail: maskSecrets(message, secrets) };
  }
  return { type: "other", detail };
}
