/** The Vercel AI SDK's telemetry spans (`ai.*`), read as traced turns. */
import type { JsonValue, TracedTurn } from "../types.js";
import type { Attributes } from "./otlp-values.js";
import { asList, stringOf, type SpanRead, type SpanSkip } from "./span-read.js";
import {
  fromChatMessages,
  isObject,
  readTracedTools,
  structured,
  textOf,
  tracedCall,
  TraceShapeError,
  type Conversation,
} from "./trace-messages.js";

/**
 * Vercel AI SDK telemetry (`ai.*`): the provider call is the `ai.generateText.doGenerate` /
 * `ai.streamText.doStream` span (`ai.prompt.messages` in the SDK's own prompt shape,
 * `ai.prompt.tools`, `ai.prompt.toolChoice`, `ai.response.text`, `ai.response.toolCalls`); the
 * spans around it (the whole generation, each tool run) are not model calls.
 */
export function readVercel(
  attributes: Attributes,
  name: JsonValue | undefined,
): SpanRead | SpanSkip {
  const operation = String(attributes.get("ai.operationId") ?? name ?? "");
  if (!/\.do(Generate|Stream)$/.test(operation))
    return { skip: "other", seen: `Vercel AI SDK ${operation} spans` };
  const prompt = structured(attributes.get("ai.prompt.messages"));
  if (prompt === undefined && !attributes.has("ai.response.text"))
    return { skip: "no-content", seen: "Vercel AI SDK model-call spans" };
  const conversation = fromVercelMessages(prompt ?? [], "attributes[ai.prompt.messages]");
  const tools = asList(attributes.get("ai.prompt.tools")).map((tool) => {
    const value = structured(tool);
    return isObject(value) && value.inputSchema !== undefined
      ? { ...value, parameters: value.inputSchema }
      : (value ?? null);
  });
  const choice = structured(attributes.get("ai.prompt.toolChoice"));
  const calls = asList(structured(attributes.get("ai.response.toolCalls"))).map((call, i) => {
    const at = `attributes[ai.response.toolCalls][${i}]`;
    if (!isObject(call)) throw new TraceShapeError(at, "expected a tool call object");
    return tracedCall(call.toolCallId, call.toolName, call.input ?? call.args, at);
  });
  const text = stringOf(attributes.get("ai.response.text"));
  const replied = text !== null || calls.length > 0 || attributes.has("ai.response.finishReason");
  const provider = stringOf(attributes.get("ai.model.provider"));
  return {
    provider: provider === null ? null : provider.split(".")[0],
    api: null,
    model: stringOf(attributes.get("ai.model.id") ?? attributes.get("gen_ai.request.model")),
    ...conversation,
    tools: readTracedTools(tools, "attributes[ai.prompt.tools]"),
    tool_choice: vercelChoice(choice),
    calls,
    text,
    replied,
  };
}

/** The AI SDK's tool choice ({type: auto | none | required | tool, toolName}) as the OpenAI value it sends. */
function vercelChoice(choice: JsonValue | undefined): TracedTurn["tool_choice"] {
  if (!isObject(choice) || typeof choice.type !== "string")
    return { value: "auto", provenance: "inferred" };
  return {
    value:
      choice.type === "tool"
        ? { type: "function", function: { name: String(choice.toolName ?? "") } }
        : choice.type,
    provenance: "traced",
  };
}

/** The AI SDK's prompt messages: content a string or parts (text, tool-call, tool-result). */
function fromVercelMessages(list: JsonValue, path: string): Conversation {
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of messages");
  const chat = list.flatMap((message, i): JsonValue[] => {
    if (!isObject(message)) throw new TraceShapeError(`${path}[${i}]`, "expected a message object");
    const parts = Array.isArray(message.content) ? message.content.filter(isObject) : [];
    const text =
      typeof message.content === "string"
        ? message.content
        : textOf(parts.filter((p) => p.type === "text"));
    if (message.role === "tool")
      return parts
        .filter((p) => p.type === "tool-result")
        .map((p) => ({
          role: "tool",
          tool_call_id: p.toolCallId ?? "",
          content: vercelResult(p.output ?? p.result),
        }));
    const calls = parts
      .filter((p) => p.type === "tool-call")
      .map((p) => ({
        id: p.toolCallId ?? null,
        type: "function",
        function: { name: p.toolName ?? null, arguments: p.input ?? p.args ?? {} },
      }));
    return [
      {
        role: message.role ?? null,
        content: text,
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      },
    ];
  });
  return fromChatMessages(chat, path);
}

/** A tool result part's output: `{type: "text" | "json", value}` (AI SDK 5), or the value itself. */
function vercelResult(output: JsonValue | undefined): JsonValue {
  if (isObject(output) && "value" in output && typeof output.type === "string")
    return typeof output.value === "string" ? output.value : JSON.stringify(output.value);
  return output ?? "";
}
