/**
 * A raw provider request/response pair, as a gateway or an application logs it:
 * `{"request": {…}, "response": {…}}` (optionally with `time` and `metadata`). The API is told
 * by the reply's shape — `choices` (Chat Completions), `output` (Responses), `content` blocks
 * with `stop_reason` (Anthropic Messages) — and the request is read the same way.
 */
import type { JsonObject, JsonValue, TracedApi, TracedTurn } from "../types.js";
import {
  chatCalls,
  fromChatMessages,
  isObject,
  readTracedTools,
  textOf,
  TraceShapeError,
} from "./trace-messages.js";
import { anthropicReply, fromAnthropicMessages } from "./anthropic-messages.js";
import { fromResponsesInput, responsesReply } from "./responses-messages.js";

export function isPair(value: JsonObject): boolean {
  return isObject(value.request) && isObject(value.response);
}

type Source = TracedTurn["source"];

export function readPair(value: JsonObject, where: Omit<Source, "format">): TracedTurn {
  const request = value.request as JsonObject;
  const response = value.response as JsonObject;
  const api = apiOf(request, response);
  const read = READERS[api](request, response);
  const metadata = isObject(value.metadata) ? value.metadata : {};
  return {
    source: { ...where, format: api },
    trace_id: stringOr(value.trace_id ?? metadata.trace_id),
    span_id: stringOr(value.span_id ?? metadata.span_id ?? response.id),
    time: timeOf(value.time ?? value.timestamp, response),
    provider: api === "anthropic-messages" ? "anthropic" : "openai",
    api,
    model: stringOr(request.model) ?? stringOr(response.model),
    ...read,
    tool_choice: toolChoiceOf(request, response),
    replied: true,
    stages: [],
    attributes: scalars(metadata),
    reply: response,
  };
}

type Read = Pick<TracedTurn, "system" | "messages" | "tools" | "calls" | "text">;

const READERS: Record<TracedApi, (request: JsonObject, response: JsonObject) => Read> = {
  "openai-chat": (request, response) => {
    const conversation = fromChatMessages(request.messages, "request.messages");
    const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message))
      throw new TraceShapeError("response.choices[0].message", "expected the reply's message");
    const text = textOf(choice.message.content);
    return {
      ...conversation,
      tools: readTracedTools(request.tools, "request.tools"),
      calls: chatCalls(choice.message.tool_calls, "response.choices[0].message.tool_calls"),
      text: text === "" ? null : text,
    };
  },
  "openai-responses": (request, response) => {
    const conversation = fromResponsesInput(request.input, "request.input");
    const instructions = stringOr(request.instructions ?? response.instructions);
    const system = [instructions, conversation.system]
      .filter((s): s is string => s !== null)
      .join("\n\n");
    // The response object echoes the request's tools: either will do.
    const tools = request.tools ?? response.tools;
    return {
      system: system === "" ? null : system,
      messages: conversation.messages,
      tools: readTracedTools(
        tools,
        request.tools === undefined ? "response.tools" : "request.tools",
      ),
      ...responsesReply(response.output, "response.output"),
    };
  },
  "anthropic-messages": (request, response) => ({
    ...fromAnthropicMessages(request.system, request.messages, "request.messages"),
    tools: readTracedTools(request.tools, "request.tools"),
    ...anthropicReply(response.content, "response.content"),
  }),
};

/** A provider's reply object on its own (an OpenInference span's `output.value`): its calls and text, or null when it is none of the three shapes. */
export function replyOf(response: JsonObject): Pick<TracedTurn, "calls" | "text"> | null {
  let api: TracedApi;
  try {
    api = apiOf({}, response);
  } catch {
    return null;
  }
  const { calls, text } = READERS[api]({ messages: [], input: [], model: "" }, response);
  return { calls, text };
}

function apiOf(request: JsonObject, response: JsonObject): TracedApi {
  if (Array.isArray(response.choices)) return "openai-chat";
  if (Array.isArray(response.output) || response.object === "response") return "openai-responses";
  if (Array.isArray(response.content) && (response.type === "message" || "stop_reason" in response))
    return "anthropic-messages";
  if (Array.isArray(request.input) || typeof request.input === "string") return "openai-responses";
  throw new TraceShapeError(
    "response",
    "expected a Chat Completions (choices), Responses (output) or Anthropic Messages (content) reply",
  );
}

/** The request's tool choice; a Responses reply echoes it. Neither: `auto`, inferred (the providers' default). */
function toolChoiceOf(request: JsonObject, response: JsonObject): TracedTurn["tool_choice"] {
  const value = request.tool_choice ?? response.tool_choice;
  return value === undefined || value === null
    ? { value: "auto", provenance: "inferred" }
    : { value, provenance: "traced" };
}

function stringOr(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

/** The pair's own time, else the reply's `created` / `created_at` (Unix seconds). */
function timeOf(value: JsonValue | undefined, response: JsonObject): string | null {
  if (typeof value === "string" && !Number.isNaN(Date.parse(value)))
    return new Date(value).toISOString();
  const created = response.created ?? response.created_at;
  return typeof created === "number" ? new Date(created * 1000).toISOString() : null;
}

/** The scalar values of an object, as text (nested ones are left out). */
export function scalars(object: JsonObject): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(object)) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      out[key] = String(value);
  }
  return out;
}
