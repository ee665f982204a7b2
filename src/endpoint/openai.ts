/**
 * The `openai` endpoint: Chat Completions tool calling through the official SDK, against the
 * OpenAI API or any OpenAI-compatible server (vLLM, Ollama, llama.cpp server, LM Studio).
 */
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { lazy } from "../text/lazy.js";
import { maskSecrets, redactUrl, urlSecrets } from "../text/redact-url.js";
import { classifyApiFailure, describeError, isUnreadableBody, type ApiFailure } from "./http-failure.js";
import { normaliseOpenAIReply, renderOpenAIRequest } from "./openai-wire.js";
import { describeProvider, sdkClientOptions, sentAs, timed, type ProviderSettings, type WireEndpoint } from "./wire-endpoint.js";

export const OPENAI_KEY_VARIABLE = "OPENAI_API_KEY";
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

export function createOpenAIWire(settings: ProviderSettings): WireEndpoint<ChatCompletionCreateParamsNonStreaming> {
  const connection = connectOpenAI(settings, "openai");
  const renderOptions = { model: settings.model, maxTokens: settings.maxTokens, official: isOfficialApi(connection.baseUrl), controls: settings.controls };
  return {
    ...connection.identity,
    render: (request) => renderOpenAIRequest(request, renderOptions),
    send: async (body, json) => {
      const openai = await connection.client();
      const { value, latency_ms } = await timed(() => openai.chat.completions.create(body, sentAs(json)).withResponse());
      return { body: value.data, request_id: value.request_id, latency_ms };
    },
    normalise: normaliseOpenAIReply,
    classify: connection.classify,
  };
}

/**
 * What both OpenAI endpoints (Chat Completions, Responses) share: the base URL, the SDK client
 * (loaded on the first call), the identity a wire shows (URL without credentials), and the
 * classification of the SDK's errors with every secret masked.
 */
export function connectOpenAI(settings: ProviderSettings, id: string) {
  const baseUrl = settings.baseUrl ?? OPENAI_BASE_URL;
  const secret = settings.key.key;
  // The URL is used for the call only; what is stored, printed or written has no credentials in it.
  const secrets = [...(secret === null ? [] : [secret]), ...urlSecrets(baseUrl)];
  const shownUrl = redactUrl(baseUrl);
  const client = lazy(async () => {
    const { default: OpenAIClient } = await loadOpenAISdk();
    return new OpenAIClient(sdkClientOptions(settings, baseUrl));
  });
  const context = describeProvider(id, settings, shownUrl);
  const identity = {
    id,
    model: settings.model,
    baseUrl: shownUrl,
    unavailable: secret === null && settings.baseUrl === null ? `${settings.key.variable} is not set` : null,
  };
  const classify = (error: unknown, where: string) => classifyApiFailure(readOpenAIError(error, secrets), { ...context, where });
  return { baseUrl, identity, client, classify };
}

/** api.openai.com itself, named or by default (compatible servers take max_tokens instead). */
function isOfficialApi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/** The SDK loads on the first call, so commands that never call a model do not pay for it. */
type OpenAISdk = typeof import("openai");
let sdk: OpenAISdk | null = null;
const loadOpenAISdk = lazy(async () => (sdk = await import("openai")));

/** The SDK's error (Chat Completions or Responses) as an ApiFailure, secrets masked. */
function readOpenAIError(error: unknown, secrets: string[]): ApiFailure {
  const detail = maskSecrets(describeError(error), secrets);
  if (isUnreadableBody(error)) return { type: "malformed", detail };
  if (sdk === null) return { type: "other", detail };
  const { APIConnectionError, APIConnectionTimeoutError, APIError } = sdk;
  if (error instanceof APIConnectionTimeoutError) return { type: "timeout" };
  if (error instanceof APIConnectionError) return { type: "connection", detail };
  if (error instanceof APIError && typeof error.status === "number") {
    return { type: "http", status: error.status, headers: error.headers, detail: maskSecrets(error.message.replace(/^\d{3} /, ""), secrets) };
  }
  return { type: "other", detail };
}
