/** The `anthropic` endpoint: Messages tool use through the official SDK. */

import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { lazy } from "../text/lazy.js";
import { normaliseAnthropicReply, renderAnthropicRequest } from "./anthropic-wire.js";
import { connectSdk, type Sdk } from "./sdk-connection.js";
import { sentAs, timed, type ProviderSettings, type WireEndpoint } from "./wire-endpoint.js";

export function createAnthropicWire(
  settings: ProviderSettings,
): WireEndpoint<MessageCreateParamsNonStreaming> {
  const connection = connectSdk(settings, loadAnthropicSdk);
  const renderOptions = {
    model: settings.model,
    maxTokens: settings.maxTokens,
    controls: settings.controls,
  };
  return {
    ...connection.identity,
    render: (request) => renderAnthropicRequest(request, renderOptions),
    send: async (body, json) => {
      const anthropic = await connection.client();
      const { value, latency_ms } = await timed(() =>
        anthropic.messages.create(body, sentAs(json)).withResponse(),
      );
      return {
        body: value.data,
        request_id: value.request_id ?? null,
        latency_ms,
        headers: value.response.headers,
      };
    },
    normalise: normaliseAnthropicReply,
    classify: connection.classify,
  };
}

const loadAnthropicSdk = lazy(async (): Promise<Sdk<import("@anthropic-ai/sdk").Anthropic>> => {
  const sdk = await import("@anthropic-ai/sdk");
  return {
    Client: sdk.default,
    APIConnectionError: sdk.APIConnectionError,
    APIConnectionTimeoutError: sdk.APIConnectionTimeoutError,
    APIError: sdk.APIError,
  };
});
