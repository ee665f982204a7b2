/**
 * The Chat Completions wire (the `openai` endpoint, and every OpenAI-compatible host's row: Groq,
 * Ollama, vLLM, …): tool calling through the official SDK, at the URL the provider row names.
 */
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import { lazy } from "../text/lazy.js";
import { normaliseOpenAIReply, renderOpenAIRequest } from "./openai-wire.js";
import { connectSdk, type Sdk } from "./sdk-connection.js";
import { sentAs, timed, type ProviderSettings, type WireEndpoint } from "./wire-endpoint.js";

export function createOpenAIWire(
  settings: ProviderSettings,
): WireEndpoint<ChatCompletionCreateParamsNonStreaming> {
  const connection = connectOpenAI(settings);
  const renderOptions = {
    model: settings.model,
    maxTokens: settings.maxTokens,
    official: isOfficialApi(connection.baseUrl),
    controls: settings.controls,
  };
  return {
    ...connection.identity,
    render: (request) => renderOpenAIRequest(request, renderOptions),
    send: async (body, json) => {
      const openai = await connection.client();
      const { value, latency_ms } = await timed(() =>
        openai.chat.completions.create(body, sentAs(json)).withResponse(),
      );
      return {
        body: value.data,
        request_id: value.request_id,
        latency_ms,
        headers: value.response.headers,
      };
    },
    normalise: normaliseOpenAIReply,
    classify: connection.classify,
  };
}

/** Both OpenAI endpoints (Chat Completions, Responses) connect through the one SDK. */
export function connectOpenAI(settings: ProviderSettings) {
  return connectSdk(settings, loadOpenAISdk);
}

/** api.openai.com itself, named or by default (compatible servers take max_tokens instead). */
function isOfficialApi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

const loadOpenAISdk = lazy(async (): Promise<Sdk<import("openai").OpenAI>> => {
  const sdk = await import("openai");
  return {
    Client: sdk.default,
    APIConnectionError: sdk.APIConnectionError,
    APIConnectionTimeoutError: sdk.APIConnectionTimeoutError,
    APIError: sdk.APIError,
  };
});
