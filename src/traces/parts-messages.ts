/** OpenTelemetry GenAI messages in traces (`{role, parts}`): input and output, as route-eval's messages and traced calls. */
import type { JsonObject, JsonValue, TracedCall } from "../types.js";
import {
  TraceShapeError,
  isObject,
  textOf,
  tracedCall,
  historyCall,
  type Conversation,
  addSystem,
  resultText,
  joinText,
} from "./trace-messages.js";

/**
 * OpenTelemetry GenAI messages (`gen_ai.input.messages`): `{role, parts: [{type: text|tool_call|
 * tool_call_response, …}]}`. A tool_call_response's `response` is required by the schema; the
 * spec's own attribute example writes `result`, so both are read.
 */
export function fromPartsMessages(list: JsonValue | undefined, path: string): Conversation {
  if (!Array.isArray(list))
    throw new TraceShapeError(path, "expected a list of messages with parts");
  const conversation: Conversation = { system: null, messages: [] };
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(value)) throw new TraceShapeError(at, "expected a message object");
    const parts = value.parts;
    if (!Array.isArray(parts)) throw new TraceShapeError(`${at}.parts`, "expected a list of parts");
    const text = joinText(
      parts.map((part) => (isObject(part) && part.type === "text" ? textOf(part.content) : "")),
    );
    if (value.role === "system") {
      addSystem(conversation, text ?? "");
      return;
    }
    if (value.role === "user") {
      if (text !== null) conversation.messages.push({ role: "user", content: text });
    } else if (value.role === "assistant") {
      const calls = partsCalls(parts, `${at}.parts`).map(historyCall);
      conversation.messages.push({
        role: "assistant",
        ...(text === null ? {} : { content: text }),
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      });
      return;
    } else if (value.role !== "tool")
      throw new TraceShapeError(
        `${at}.role`,
        `expected system, user, assistant or tool, got ${JSON.stringify(value.role ?? null)}`,
      );
    // Tool results may come in a tool message, or in a user message (as Anthropic sends them).
    parts.forEach((part) => {
      if (!isObject(part) || part.type !== "tool_call_response") return;
      conversation.messages.push({
        role: "tool",
        tool_call_id: String(part.id ?? "").trim(),
        content: resultText(part.response ?? part.result),
      });
    });
  });
  return conversation;
}

/** The tool_call parts of an OpenTelemetry GenAI message. */
export function partsCalls(parts: JsonValue[], path: string): TracedCall[] {
  return parts.flatMap((part, i) =>
    isObject(part) && part.type === "tool_call"
      ? [tracedCall(part.id, part.name, part.arguments, `${path}[${i}]`)]
      : [],
  );
}

/** An OpenTelemetry GenAI output (`gen_ai.output.messages`): the first assistant message's calls and text. */
export function partsReply(
  list: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of output messages");
  const index = list.findIndex(
    (m) => isObject(m) && (m.role === "assistant" || m.role === undefined),
  );
  if (index === -1) return { calls: [], text: null };
  const message = list[index] as JsonObject;
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return {
    calls: partsCalls(parts, `${path}[${index}].parts`),
    text: joinText(
      parts.map((part) => (isObject(part) && part.type === "text" ? textOf(part.content) : "")),
    ),
  };
}
