/**
 * Readers for provider replies. What a server sends (or the store holds) is untrusted JSON:
 * OpenAI-compatible servers differ in what they omit, so every field is read defensively.
 */
import { MAX_JSON_DEPTH, nestsDeeper } from "../text/json-depth.js";
import type { EndpointCall, EndpointResponse, JsonObject, JsonValue } from "../types.js";
import type { WireReply } from "./wire-endpoint.js";

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isJsonObject(value: JsonValue): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined;
}

export function stringField(value: unknown, key: string): string | null {
  const v = field(value, key);
  return typeof v === "string" ? v : null;
}

export function numberField(value: unknown, key: string): number | null {
  const v = field(value, key);
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

export function arrayField(value: unknown, key: string): unknown[] {
  const v = field(value, key);
  return Array.isArray(v) ? v : [];
}

/** A parsed JSON value as the JSON type (it came from JSON.parse or JSON, so it is one). */
export function toJsonValue(value: unknown): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]));
  return null;
}

/**
 * Tool-call arguments as a JSON object. A string is parsed ("" means no arguments); anything that
 * does not give an object is an argument error, never a crash.
 */
export function parseArguments(raw: unknown): {
  arguments: JsonValue;
  arguments_error: string | null;
} {
  let value: JsonValue;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { arguments: {}, arguments_error: null };
    try {
      const parsed: unknown = JSON.parse(raw);
      if (nestsDeeper(parsed))
        return {
          arguments: null,
          arguments_error: `nested deeper than ${MAX_JSON_DEPTH} levels in ${quote(raw)}`,
        };
      value = toJsonValue(parsed);
    } catch (error) {
      return {
        arguments: null,
        arguments_error: `${error instanceof Error ? error.message : String(error)} in ${quote(raw)}`,
      };
    }
  } else {
    value = toJsonValue(raw ?? null);
  }
  if (isJsonObject(value)) return { arguments: value, arguments_error: null };
  return { arguments: null, arguments_error: `expected a JSON object, got ${describe(value)}` };
}

function describe(value: JsonValue): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

/** Every call of a reply as {tool, arguments}: `name` and the arguments under `key` of each (unparseable ones kept as sent). */
export function listCalls(calls: unknown[], key: string): EndpointCall[] {
  return calls.map((call) => {
    const raw = field(call, key);
    const parsed = parseArguments(raw ?? {});
    return {
      tool: stringField(call, "name") ?? "",
      arguments: parsed.arguments_error === null ? parsed.arguments : toJsonValue(raw),
    };
  });
}

/** What a provider's reader found in a reply, in the reply's own terms. */
export interface FoundReply {
  /** The tool calls, in order; each has `name` and its arguments under `argumentsKey`. */
  calls: unknown[];
  argumentsKey: string;
  /** Where a call keeps its id (`id`, Responses' `call_id`). */
  idKey: string;
  /** How the first call reads when it carries no arguments: an empty object (Anthropic's `input`), or not a JSON object. */
  absentArguments: "empty" | "invalid";
  text: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** The EndpointResponse of a provider reply: the first call is the selection, every call is kept when there are several, empty text is none. */
export function toEndpointResponse(reply: WireReply, found: FoundReply): EndpointResponse {
  const { calls, argumentsKey } = found;
  const ids = calls.map((call) => stringField(call, found.idKey));
  const first = calls[0];
  const raw = field(first, argumentsKey);
  const parsed =
    first === undefined
      ? { arguments: null, arguments_error: null }
      : parseArguments(found.absentArguments === "empty" ? (raw ?? {}) : raw);
  return {
    selected: first === undefined ? null : stringField(first, "name"),
    ...parsed,
    tool_calls: calls.length,
    ...(calls.length > 1 ? { calls: listCalls(calls, argumentsKey) } : {}),
    ...(calls.length > 0 && ids.every((id) => id !== null && id !== "")
      ? { call_ids: ids as string[] }
      : {}),
    text: found.text === null || found.text === "" ? null : found.text,
    usage: { input_tokens: found.inputTokens, output_tokens: found.outputTokens },
    latency_ms: reply.latency_ms,
    provider_request_id: reply.request_id ?? stringField(reply.body, "id"),
  };
}
