/** The `anthropic` endpoint: Messages tool use through the official SDK. */

import type { MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { lazy } from "../text/lazy.js";
import {
  continuation,
  joinContinued,
  MAX_CONTINUATIONS,
  normaliseAnthropicReply,
  renderAnthropicRequest,
} from "./anthropic-wire.js";
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
      const once = (request: MessageCreateParamsNonStreaming, text: string) =>
        timed(() => anthropic.messages.create(request, sentAs(text)).withResponse());
      let { value, latency_ms } = await once(body, json);
      // A paused turn (a server tool, e.g. tool search, still working) is sent back to be continued;
      // the reply stored under the request is the whole turn.
      let reply: unknown = value.data;
      for (let n = 0; n < MAX_CONTINUATIONS && value.data.stop_reason === "pause_turn"; n += 1) {
        const next = continuation(body, reply);
        const more = await once(next, JSON.stringify(next));
        reply = joinContinued(reply, more.value.data);
        value = more.value;
        latency_ms += more.latency_ms;
      }
      return {
        body: reply,
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
