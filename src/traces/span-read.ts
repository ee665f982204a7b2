/** What the span readers share: what a span reads as, why it reads as none, and small readers of values. */
import type { JsonValue, TracedCall, TracedTurn } from "../types.js";
import { chatCalls, isObject, textOf } from "./trace-messages.js";
import type { Attributes } from "./otlp-values.js";

/**
 * Why a span is not a turn: not a model call (an agent, a tool run, a retrieval — described by
 * what it carries, for the refusal of a file that holds no model call), or a model call whose
 * content was not captured (an SDK's own span beside an instrumentation's, content capture off).
 */
export type SpanSkip = { skip: "other"; seen: string } | { skip: "no-content"; seen: string };

export type SpanRead = Omit<
  TracedTurn,
  "source" | "trace_id" | "span_id" | "time" | "stages" | "attributes"
>;

/** What a span that is not a model call carries: its name and its attributes' leading words. */
export function seenIn(attributes: Attributes, name: JsonValue | undefined): string {
  const prefixes = new Set<string>();
  for (const key of attributes.keys()) {
    const [first, second] = key.split(".");
    if (first === "service" || first === "telemetry" || first === "process" || first === "host")
      continue;
    prefixes.add(second === undefined ? first : `${first}.${second}.*`);
  }
  const shown = [...prefixes].sort().slice(0, 4).join(", ");
  return `spans named ${JSON.stringify(typeof name === "string" ? name : "")}${shown === "" ? "" : ` (attributes ${shown})`}`;
}

/** Span events by name, each with its attributes (the older GenAI forms carry messages there). */
export type Events = { name: string; attributes: Attributes }[];

/** A Chat-Completions-shaped reply message: its tool_calls and content. */
export function chatReply(
  message: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!isObject(message)) return { calls: [], text: null };
  const text = textOf(message.content);
  return {
    calls: chatCalls(message.tool_calls, `${path}.tool_calls`),
    text: text === "" ? null : text,
  };
}

export function asList(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null) : [];
}

export function stringOf(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}
