/**
 * The message shapes traces carry, turned into route-eval's provider-neutral messages, and each
 * shape's calls into traced calls (arguments kept as the text the model wrote): what every shape
 * shares, OpenAI Chat Completions, and the tools a request offered. The other shapes, one module
 * each: responses-messages.ts, anthropic-messages.ts, parts-messages.ts. Content that is not text
 * (images, files) is left out; what is text is kept whole.
 */
import { createBoundedMap } from "../text/bounded-map.js";
import { nestsDeeper } from "../text/json-depth.js";
import type { JsonObject, JsonValue, Message, ToolCall, TracedCall, TracedTool } from "../types.js";

/** A shape this reader does not know, at a JSON path (relative to the traced value). */
export class TraceShapeError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

export function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string that holds JSON (`[` or `{` first) parsed; anything else as it is. Attributes may be either. */
export function structured(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== "string") return value;
  const first = value.trimStart()[0];
  if (first !== "[" && first !== "{") return value;
  try {
    const parsed = JSON.parse(value) as JsonValue;
    // Nested past the depth every later reader can walk: kept as the text it came as.
    return nestsDeeper(parsed) ? value : parsed;
  } catch {
    return value;
  }
}

/** The text of a content value: a string, or the text parts of a list (`text`, `content`, `input_text`…) joined by newlines. */
export function textOf(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content))
    return isObject(content) ? textOf(content.text ?? content.content) : "";
  return content
    .map((part) =>
      typeof part === "string"
        ? part
        : isObject(part) && typeof (part.text ?? part.content) === "string"
          ? ((part.text ?? part.content) as string)
          : "",
    )
    .filter((text) => text !== "")
    .join("\n");
}

/** A call's arguments as traced: a string kept as written (and parsed when it is a JSON object), an object written as JSON. */
export function tracedCall(
  id: JsonValue | undefined,
  name: JsonValue | undefined,
  args: JsonValue | undefined,
  path: string,
): TracedCall {
  if (typeof name !== "string" || name === "")
    throw new TraceShapeError(`${path}.name`, "expected the called tool's name");
  const raw = unwrapTwice(args);
  const text =
    typeof raw === "string" ? raw : raw === undefined || raw === null ? "{}" : JSON.stringify(raw);
  let parsed: JsonObject | null = null;
  if (isObject(raw)) parsed = raw;
  else if (typeof raw === "string") {
    try {
      const value = JSON.parse(raw) as JsonValue;
      parsed = isObject(value) && !nestsDeeper(value) ? value : null;
    } catch {
      parsed = null;
    }
  } else if (raw === undefined || raw === null) parsed = {};
  return {
    id: typeof id === "string" && id.trim() !== "" ? id.trim() : null,
    name,
    arguments: text,
    parsed,
  };
}

/** Arguments a tracer encoded twice ("\"{\\\"city\\\":…}\""): the text the model wrote, inside; anything else as it is. */
function unwrapTwice(args: JsonValue | undefined): JsonValue | undefined {
  if (typeof args !== "string" || !args.trimStart().startsWith('"')) return args;
  try {
    const inner = JSON.parse(args) as JsonValue;
    if (typeof inner !== "string" || !inner.trimStart().startsWith("{")) return args;
    JSON.parse(inner);
    return inner;
  } catch {
    return args;
  }
}

/** A traced call as a prior message's call (arguments that are not an object become {}: a case's history holds objects). */
export function historyCall(call: TracedCall, index: number): ToolCall {
  return { id: call.id ?? `call_${index + 1}`, name: call.name, arguments: call.parsed ?? {} };
}

export interface Conversation {
  system: string | null;
  messages: Message[];
}

/** Appends a system text (several system messages are joined). */
export function addSystem(conversation: Conversation, text: string): void {
  if (text === "") return;
  conversation.system = conversation.system === null ? text : `${conversation.system}\n\n${text}`;
}

/** OpenAI Chat Completions messages (also LangSmith's, OpenLLMetry's and the old gen_ai.prompt events'). */
export function fromChatMessages(list: JsonValue | undefined, path: string): Conversation {
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of messages");
  const conversation: Conversation = { system: null, messages: [] };
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(value)) throw new TraceShapeError(at, "expected a message object");
    const role = value.role;
    if (role === "system" || role === "developer") addSystem(conversation, textOf(value.content));
    else if (role === "user" || role === "human")
      conversation.messages.push({ role: "user", content: textOf(value.content) });
    else if (role === "assistant" || role === "ai") {
      const calls = chatCalls(value.tool_calls, `${at}.tool_calls`).map(historyCall);
      const content = textOf(value.content);
      conversation.messages.push({
        role: "assistant",
        ...(content === "" ? {} : { content }),
        ...(calls.length === 0 ? {} : { tool_calls: calls }),
      });
    } else if (role === "tool" || role === "function") {
      // A result traced without its call's id (LangChain's spans) answers the next call not yet answered.
      const traced = String(value.tool_call_id ?? value.id ?? "");
      conversation.messages.push({
        role: "tool",
        tool_call_id: traced !== "" ? traced : (unanswered(conversation.messages) ?? ""),
        ...(typeof value.name === "string" ? { name: value.name } : {}),
        content: resultText(value.content),
      });
    } else
      throw new TraceShapeError(
        `${at}.role`,
        `expected system, developer, user, assistant or tool, got ${JSON.stringify(role ?? null)}`,
      );
  });
  return conversation;
}

/** The id of the first call of the last assistant message that no tool message after it answers. */
export function unanswered(messages: Message[]): string | undefined {
  let at = messages.length - 1;
  while (at >= 0 && messages[at].role === "tool") at -= 1;
  const last = messages[at];
  if (last?.role !== "assistant") return undefined;
  const answered = new Set(
    messages.slice(at + 1).map((m) => (m.role === "tool" ? m.tool_call_id : "")),
  );
  return last.tool_calls?.find((call) => !answered.has(call.id))?.id;
}

/** `tool_calls` of a Chat Completions message: `{id, type: "function", function: {name, arguments}}` (also the flat `{id, name, arguments}`). */
export function chatCalls(list: JsonValue | undefined, path: string): TracedCall[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of tool calls");
  return list.map((value, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(value)) throw new TraceShapeError(at, "expected a tool call object");
    const fn = isObject(value.function) ? value.function : value;
    return tracedCall(
      value.id,
      fn.name,
      fn.arguments,
      isObject(value.function) ? `${at}.function` : at,
    );
  });
}

export function resultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  const text = textOf(content);
  return text !== "" || content === undefined ? text : JSON.stringify(content);
}

/**
 * Tools as traced: OpenAI Chat (`{type: "function", function: {…}}`), Responses and OTel GenAI
 * (flat `{type, name, description, parameters}`), Anthropic (`{name, description, input_schema}`),
 * or a bare name. Built-in tools (web search…) are not client tools and are left out.
 */
/** Tool lists read from their JSON text, by the text (shared between turns, never changed): the last 1,000 to 2,000, and 8 to 16 M characters of their text. */
const toolTexts = createBoundedMap<string, TracedTool[]>(1_000, 8 << 20);

/**
 * readTracedTools of an attribute that may hold the list as JSON text: each distinct text read
 * once, for production sends the same definitions in span after span.
 */
export function readToolsAttribute(value: JsonValue | undefined, path: string): TracedTool[] {
  if (typeof value !== "string") return readTracedTools(value, path);
  let tools = toolTexts.get(value);
  if (tools === undefined)
    toolTexts.set(value, (tools = readTracedTools(structured(value), path)), value.length);
  return tools;
}

export function readTracedTools(list: JsonValue | undefined, path: string): TracedTool[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of tools");
  return list.flatMap((value, i): TracedTool[] => {
    const at = `${path}[${i}]`;
    const tool = structured(value);
    if (typeof tool === "string") return tool === "" ? [] : [{ name: tool }];
    if (!isObject(tool)) throw new TraceShapeError(at, "expected a tool definition or name");
    const type = tool.type;
    if (type !== undefined && type !== "function" && type !== "custom") return [];
    const fn = isObject(tool.function) ? tool.function : tool;
    if (typeof fn.name !== "string" || fn.name === "")
      throw new TraceShapeError(`${at}.name`, "expected the tool's name");
    const schema = structured(fn.parameters ?? fn.input_schema);
    return [
      {
        name: fn.name,
        ...(typeof fn.description === "string" && fn.description !== ""
          ? { description: fn.description }
          : {}),
        ...(isObject(schema) ? { input_schema: schema } : {}),
      },
    ];
  });
}

export function joinText(texts: string[]): string | null {
  const kept = texts.filter((text) => text !== "");
  return kept.length === 0 ? null : kept.join("\n");
}
