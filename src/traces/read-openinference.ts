/**
 * OpenInference spans (`openinference.span.kind = LLM`, or Phoenix's `span_kind`):
 * `llm.input_messages.N.message.*`, `llm.output_messages.N.message.*` (else the reply in
 * `output.value`), `llm.tools.N.tool.*`, `llm.invocation_parameters` (tool_choice, and the system
 * prompt Anthropic's instrumentation keeps only there), `metadata` (LangChain's `ls_provider`).
 */
import type { JsonObject, JsonValue, TracedTool, TracedTurn } from "../types.js";
import { unflatten, type Attributes } from "./otlp-values.js";
import { replyOf } from "./read-pair.js";
import { asList, chatReply, stringOf, type SpanRead, type SpanSkip } from "./span-read.js";
import {
  fromChatMessages,
  isObject,
  readTracedTools,
  structured,
  textOf,
  TraceShapeError,
} from "./trace-messages.js";

export function readOpenInference(attributes: Attributes): SpanRead | SpanSkip {
  const input = asList(unflatten(attributes, "llm.input_messages")).map((entry) =>
    isObject(entry) && isObject(entry.message) ? openInferenceMessage(entry.message) : entry,
  );
  const conversation = fromChatMessages(input, "attributes[llm.input_messages]");
  const parameters = structured(attributes.get("llm.invocation_parameters"));
  // Anthropic's instrumentation keeps the system prompt only in the request's parameters.
  if (conversation.system === null && isObject(parameters)) {
    const system = textOf(parameters.system);
    if (system !== "") conversation.system = system;
  }
  const output = asList(unflatten(attributes, "llm.output_messages"));
  const first =
    output.length > 0 && isObject(output[0]) && isObject(output[0].message)
      ? openInferenceMessage(output[0].message)
      : undefined;
  const reply =
    first !== undefined
      ? chatReply(first, "attributes[llm.output_messages.0.message]")
      : outputValueReply(attributes);
  const tools = readOpenInferenceTools(attributes);
  if (input.length === 0 && reply === null && tools.length === 0)
    return { skip: "no-content", seen: "OpenInference LLM spans" };
  const choice = isObject(parameters) ? parameters.tool_choice : undefined;
  return {
    // LangChain's spans name it only in their run metadata (ls_provider).
    provider: stringOf(
      attributes.get("llm.provider") ??
        attributes.get("llm.system") ??
        metadataOf(attributes).ls_provider,
    ),
    api: null,
    model: stringOf(attributes.get("llm.model_name")),
    ...conversation,
    tools,
    tool_choice:
      choice === undefined
        ? { value: "auto" as JsonValue, provenance: "inferred" as const }
        : { value: choice, provenance: "traced" as const },
    calls: reply?.calls ?? [],
    text: reply?.text ?? null,
    replied: reply !== null,
  };
}

/** OpenInference's `metadata` attribute (a JSON object as text), or nothing. */
function metadataOf(attributes: Attributes): JsonObject {
  const metadata = structured(attributes.get("metadata"));
  return isObject(metadata) ? metadata : {};
}

/** A reply held only in `output.value`: the provider's reply object (JSON), or the text itself. */
function outputValueReply(attributes: Attributes): Pick<TracedTurn, "calls" | "text"> | null {
  const value = attributes.get("output.value");
  if (typeof value !== "string" || value === "") return null;
  const parsed = structured(value);
  if (isObject(parsed)) return replyOf(parsed);
  return attributes.get("output.mime_type") === "application/json"
    ? null
    : { calls: [], text: value };
}

/** An OpenInference message (`role`, `content` or `contents[].message_content.text`, `tool_calls[].tool_call.{id, function}`) in the Chat Completions shape. */
function openInferenceMessage(message: JsonObject): JsonObject {
  const contents = asList(message.contents).map((c) =>
    isObject(c) && isObject(c.message_content) ? c.message_content : c,
  );
  const calls = asList(message.tool_calls).map((c) =>
    isObject(c) && isObject(c.tool_call) ? c.tool_call : c,
  );
  // Anthropic's instrumentation writes a tool result as a user message with the call's id.
  const role =
    message.role === "user" && message.tool_call_id !== undefined ? "tool" : message.role;
  return {
    role: role ?? "user",
    content: message.content ?? contents,
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
    ...(message.tool_call_id === undefined ? {} : { tool_call_id: message.tool_call_id }),
    ...(message.name === undefined ? {} : { name: message.name }),
  };
}

/** `llm.tools.N.tool.json_schema` (the provider's own definition as JSON text), or `llm.tools.N.tool.name|description`, preferred when given. */
function readOpenInferenceTools(attributes: Attributes): TracedTool[] {
  return asList(unflatten(attributes, "llm.tools")).flatMap((entry, i): TracedTool[] => {
    const tool = isObject(entry) && isObject(entry.tool) ? entry.tool : {};
    const path = `attributes[llm.tools.${i}.tool]`;
    const fromSchema =
      tool.json_schema === undefined
        ? []
        : readTracedTools([structured(tool.json_schema) ?? null], path);
    const own = fromSchema[0];
    if (typeof tool.name !== "string") {
      if (own === undefined)
        throw new TraceShapeError(path, "expected tool.name or tool.json_schema");
      return [own];
    }
    const description =
      typeof tool.description === "string" && tool.description !== ""
        ? tool.description
        : own?.description;
    const schema =
      own?.input_schema ??
      (isObject(structured(tool.parameters))
        ? (structured(tool.parameters) as JsonObject)
        : undefined);
    return [
      {
        name: tool.name,
        ...(description === undefined ? {} : { description }),
        ...(schema === undefined ? {} : { input_schema: schema }),
      },
    ];
  });
}
