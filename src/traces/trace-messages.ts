/**
 * The message shapes traces carry — OpenAI Chat Completions, OpenAI Responses items, Anthropic
 * Messages blocks, OpenTelemetry GenAI parts — turned into route-eval's provider-neutral
 * messages, and each shape's calls into traced calls (arguments kept as the text the model wrote).
 * Content that is not text (images, files) is left out; what is text is kept whole.
 */
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
function historyCall(call: TracedCall, index: number): ToolCall {
  return { id: call.id ?? `call_${index + 1}`, name: call.name, arguments: call.parsed ?? {} };
}

export interface Conversation {
  system: string | null;
  messages: Message[];
}

/** Appends a system text (several system messages are joined). */
function addSystem(conversation: Conversation, text: string): void {
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
function unanswered(messages: Message[]): string | undefined {
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

function resultText(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  const text = textOf(content);
  return text !== "" || content === undefined ? text : JSON.stringify(content);
}

/** OpenAI Responses `input`: a string, or items (messages, function_call, function_call_output). */
export function fromResponsesInput(input: JsonValue | undefined, path: string): Conversation {
  const conversation: Conversation = { system: null, messages: [] };
  if (typeof input === "string") {
    conversation.messages.push({ role: "user", content: input });
    return conversation;
  }
  if (!Array.isArray(input))
    throw new TraceShapeError(path, "expected a string or a list of input items");
  input.forEach((item, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(item)) throw new TraceShapeError(at, "expected an input item object");
    const type = item.type ?? "message";
    if (type === "function_call") {
      const call = historyCall(
        tracedCall(item.call_id ?? item.id, item.name, item.arguments, at),
        conversation.messages.length,
      );
      const last = conversation.messages[conversation.messages.length - 1];
      if (last?.role === "assistant" && last.tool_calls !== undefined) last.tool_calls.push(call);
      else conversation.messages.push({ role: "assistant", tool_calls: [call] });
    } else if (type === "function_call_output") {
      conversation.messages.push({
        role: "tool",
        tool_call_id: String(item.call_id ?? ""),
        content: resultText(item.output),
      });
    } else if (type === "message") {
      const role = item.role;
      if (role === "system" || role === "developer") addSystem(conversation, textOf(item.content));
      else if (role === "user")
        conversation.messages.push({ role: "user", content: textOf(item.content) });
      else if (role === "assistant")
        conversation.messages.push({ role: "assistant", content: textOf(item.content) });
      else
        throw new TraceShapeError(
          `${at}.role`,
          `expected system, developer, user or assistant, got ${JSON.stringify(role ?? null)}`,
        );
    }
    // Other items (reasoning, tool search, built-in tool calls) carry no routing decision of the client's tools.
  });
  return conversation;
}

/** OpenAI Responses `output` items: function_call items are calls; message items' output_text is the text. */
export function responsesReply(
  output: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!Array.isArray(output))
    throw new TraceShapeError(path, "expected the response's output list");
  const calls: TracedCall[] = [];
  const texts: string[] = [];
  output.forEach((item, i) => {
    if (!isObject(item))
      throw new TraceShapeError(`${path}[${i}]`, "expected an output item object");
    if (item.type === "function_call")
      calls.push(tracedCall(item.call_id ?? item.id, item.name, item.arguments, `${path}[${i}]`));
    else if (item.type === "message") texts.push(textOf(item.content));
  });
  return { calls, text: joinText(texts) };
}

/** Anthropic Messages: `system` (a string or text blocks) and messages whose content is a string or blocks. */
export function fromAnthropicMessages(
  system: JsonValue | undefined,
  list: JsonValue | undefined,
  path: string,
): Conversation {
  if (!Array.isArray(list)) throw new TraceShapeError(path, "expected a list of messages");
  const conversation: Conversation = { system: null, messages: [] };
  if (system !== undefined && system !== null) addSystem(conversation, textOf(system));
  list.forEach((value, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(value)) throw new TraceShapeError(at, "expected a message object");
    const blocks: JsonValue =
      typeof value.content === "string"
        ? [{ type: "text", text: value.content }]
        : (value.content ?? null);
    if (!Array.isArray(blocks))
      throw new TraceShapeError(`${at}.content`, "expected a string or a list of content blocks");
    if (value.role === "assistant") {
      const { calls, text } = anthropicReply(blocks, `${at}.content`);
      conversation.messages.push({
        role: "assistant",
        ...(text === null ? {} : { content: text }),
        ...(calls.length === 0 ? {} : { tool_calls: calls.map(historyCall) }),
      });
    } else if (value.role === "user") {
      const texts: string[] = [];
      for (const block of blocks) {
        if (!isObject(block)) continue;
        if (block.type === "tool_result")
          conversation.messages.push({
            role: "tool",
            tool_call_id: String(block.tool_use_id ?? ""),
            content: resultText(block.content),
          });
        else if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
      }
      if (texts.length > 0) conversation.messages.push({ role: "user", content: texts.join("\n") });
    } else
      throw new TraceShapeError(
        `${at}.role`,
        `expected user or assistant, got ${JSON.stringify(value.role ?? null)}`,
      );
  });
  return conversation;
}

/** An Anthropic reply's content blocks: tool_use blocks are calls (input is an object), text blocks the text. */
export function anthropicReply(
  blocks: JsonValue | undefined,
  path: string,
): { calls: TracedCall[]; text: string | null } {
  if (!Array.isArray(blocks))
    throw new TraceShapeError(path, "expected the reply's content blocks");
  const calls: TracedCall[] = [];
  const texts: string[] = [];
  blocks.forEach((block, i) => {
    if (!isObject(block)) return;
    if (block.type === "tool_use")
      calls.push(tracedCall(block.id, block.name, block.input, `${path}[${i}]`));
    else if (block.type === "text" && typeof block.text === "string") texts.push(block.text);
  });
  return { calls, text: joinText(texts) };
}

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

/**
 * Tools as traced: OpenAI Chat (`{type: "function", function: {…}}`), Responses and OTel GenAI
 * (flat `{type, name, description, parameters}`), Anthropic (`{name, description, input_schema}`),
 * or a bare name. Built-in tools (web search…) are not client tools and are left out.
 */
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

function joinText(texts: string[]): string | null {
  const kept = texts.filter((text) => text !== "");
  return kept.length === 0 ? null : kept.join("\n");
}
