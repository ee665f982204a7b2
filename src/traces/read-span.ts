/**
 * One span → a traced turn, or null when the span is not a model call (an agent, a tool run, a
 * retrieval). Spans come in OTLP JSON (`attributes: [{key, value: AnyValue}]`, hex ids, times in
 * Unix nanoseconds as decimal strings) or flat (`attributes: {key: value}`, as Phoenix and the
 * console exporters write them). Two conventions are read:
 * - OpenTelemetry GenAI: `gen_ai.input.messages` / `gen_ai.output.messages` /
 *   `gen_ai.tool.definitions` (structured or JSON strings), and the older forms still common in
 *   traces — the `gen_ai.client.inference.operation.details` event, the per-message events
 *   (`gen_ai.user.message`, `gen_ai.choice`…), the `gen_ai.content.prompt|completion` events and
 *   OpenLLMetry's flattened `gen_ai.prompt.N.*`, `gen_ai.completion.N.*`, `llm.request.functions`;
 * - OpenInference (`openinference.span.kind = LLM`): `llm.input_messages.N.message.*`,
 *   `llm.output_messages.N.message.*`, `llm.tools.N.tool.*`, `llm.invocation_parameters`.
 * Candidate sets logged per filtering stage are read from `route_eval.candidates.<stage>`.
 */
import type {
  JsonObject,
  JsonValue,
  TraceFormat,
  TracedCall,
  TracedStage,
  TracedTool,
  TracedTurn,
} from "../types.js";
import {
  chatCalls,
  fromChatMessages,
  fromPartsMessages,
  isObject,
  partsReply,
  readTracedTools,
  structured,
  textOf,
  tracedCall,
  TraceShapeError,
  type Conversation,
} from "./trace-messages.js";
import { replyOf } from "./read-pair.js";
import {
  addAttributes,
  anyValue,
  normaliseId,
  timeOf,
  unflatten,
  type Attributes,
} from "./otlp-values.js";

const CALL_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

/** Span fields as OTLP names them, or as flat exports do (snake case, a `context` object, `0x` ids, ISO times). */
interface SpanFields {
  traceId: JsonValue | undefined;
  spanId: JsonValue | undefined;
  start: JsonValue | undefined;
  name: JsonValue | undefined;
  events: JsonValue | undefined;
}

function fieldsOf(span: JsonObject): SpanFields {
  const context = isObject(span.context) ? span.context : {};
  return {
    traceId: span.traceId ?? span.trace_id ?? context.trace_id ?? context.traceId,
    spanId: span.spanId ?? span.span_id ?? context.span_id ?? context.spanId,
    start: span.startTimeUnixNano ?? span.start_time ?? span.startTime,
    name: span.name,
    events: span.events,
  };
}

/**
 * Why a span is not a turn: not a model call (an agent, a tool run, a retrieval — described by
 * what it carries, for the refusal of a file that holds no model call), or a model call whose
 * content was not captured (an SDK's own span beside an instrumentation's, content capture off).
 */
export type SpanSkip = { skip: "other"; seen: string } | { skip: "no-content"; seen: string };

export function readSpan(
  span: JsonObject,
  resource: Attributes,
  where: Omit<TracedTurn["source"], "format">,
  otlp: boolean,
  logged: JsonValue[] = [],
): TracedTurn | SpanSkip {
  const attributes: Attributes = new Map(resource);
  addAttributes(attributes, span.attributes, "attributes");
  const fields = fieldsOf(span);
  const events = readEvents([...(Array.isArray(fields.events) ? fields.events : []), ...logged]);
  // Phoenix's span export moves the kind out of the attributes, into span_kind.
  const openinference =
    attributes.get("openinference.span.kind") ?? (otlp ? undefined : span.span_kind);
  let read: SpanRead | SpanSkip;
  let format: TraceFormat;
  if (openinference !== undefined && openinference !== null) {
    const kind = String(openinference).toUpperCase();
    if (kind !== "LLM") return { skip: "other", seen: `OpenInference ${kind} spans` };
    read = readOpenInference(attributes);
    format = otlp ? "otlp-openinference" : "span-openinference";
  } else if (attributes.has("ai.operationId") || attributes.has("ai.model.provider")) {
    read = readVercel(attributes, fields.name);
    format = otlp ? "otlp-vercel-ai" : "span-vercel-ai";
  } else {
    read = readGenAi(attributes, events, fields.name);
    format = otlp ? "otlp-genai" : "span-genai";
  }
  if ("skip" in read) return read;
  return {
    source: { ...where, format },
    trace_id: normaliseId(fields.traceId, 16),
    span_id: normaliseId(fields.spanId, 8),
    time: timeOf(fields.start),
    ...read,
    stages: readStages(attributes),
    attributes: describeAttributes(attributes, fields.name),
  };
}

type SpanRead = Omit<
  TracedTurn,
  "source" | "trace_id" | "span_id" | "time" | "stages" | "attributes"
>;

/** What a span that is not a model call carries: its name and its attributes' leading words. */
function seenIn(attributes: Attributes, name: JsonValue | undefined): string {
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
type Events = { name: string; attributes: Attributes }[];

function readEvents(events: JsonValue[]): Events {
  return events.filter(isObject).map((event, i) => {
    const attributes: Attributes = new Map();
    addAttributes(attributes, event.attributes, `events[${i}].attributes`);
    // A log record (OTLP logs) names its event in an attribute or its eventName.
    const name = event.name ?? event.eventName ?? attributes.get("event.name");
    // A log-style event may carry its body as a structured value.
    if (isObject(event.body))
      for (const [key, value] of Object.entries(anyValueOrPlain(event.body) as JsonObject))
        attributes.set(key, value);
    return { name: String(name ?? ""), attributes };
  });
}

function anyValueOrPlain(value: JsonValue): JsonValue {
  return isObject(value) && ("kvlistValue" in value || "stringValue" in value)
    ? anyValue(value)
    : value;
}

function readGenAi(
  attributes: Attributes,
  events: Events,
  name: JsonValue | undefined,
): SpanRead | SpanSkip {
  const operation = attributes.get("gen_ai.operation.name");
  const details = events.find(
    (e) => e.name === "gen_ai.client.inference.operation.details",
  )?.attributes;
  const content = (key: string) => attributes.get(key) ?? details?.get(key);
  const hasContent =
    content("gen_ai.input.messages") !== undefined ||
    content("gen_ai.output.messages") !== undefined ||
    attributes.has("gen_ai.prompt.0.role") ||
    attributes.has("gen_ai.prompt.0.content") ||
    attributes.has("gen_ai.completion.0.role") ||
    events.some((e) => e.name.startsWith("gen_ai."));
  if (operation !== undefined ? !CALL_OPERATIONS.has(String(operation)) : !hasContent)
    return { skip: "other", seen: seenIn(attributes, name) };
  // A model call with nothing of its content: an SDK's own span, or capture turned off.
  if (!hasContent && !attributes.has("gen_ai.tool.definitions"))
    return { skip: "no-content", seen: seenIn(attributes, name) };

  const conversation = readGenAiInput(attributes, events, content);
  const instructions = structured(content("gen_ai.system_instructions"));
  if (instructions !== undefined)
    conversation.system =
      [textOf(instructions), conversation.system]
        .filter((s) => s !== null && s !== "")
        .join("\n\n") || null;
  const reply = readGenAiReply(attributes, events, content);
  const toolValue = structured(content("gen_ai.tool.definitions"));
  const tools =
    toolValue !== undefined
      ? readTracedTools(toolValue, "attributes[gen_ai.tool.definitions]")
      : readLlmFunctions(attributes);
  return {
    provider: stringOf(attributes.get("gen_ai.provider.name") ?? attributes.get("gen_ai.system")),
    api: null,
    model: stringOf(
      attributes.get("gen_ai.request.model") ?? attributes.get("gen_ai.response.model"),
    ),
    ...conversation,
    tools,
    tool_choice: { value: "auto", provenance: "inferred" },
    calls: reply?.calls ?? [],
    text: reply?.text ?? null,
    replied: reply !== null,
  };
}

type Content = (key: string) => JsonValue | undefined;

function readGenAiInput(attributes: Attributes, events: Events, content: Content): Conversation {
  const input = structured(content("gen_ai.input.messages"));
  if (input !== undefined) return fromPartsMessages(input, "attributes[gen_ai.input.messages]");
  if (attributes.has("gen_ai.prompt.0.role"))
    return fromChatMessages(unflatten(attributes, "gen_ai.prompt"), "attributes[gen_ai.prompt]");
  const prompt = events
    .find((e) => e.name === "gen_ai.content.prompt")
    ?.attributes.get("gen_ai.prompt");
  if (prompt !== undefined)
    return fromChatMessages(
      structured(prompt),
      "events[gen_ai.content.prompt].attributes[gen_ai.prompt]",
    );
  // Per-message events, in order: gen_ai.system.message, gen_ai.user.message, gen_ai.assistant.message, gen_ai.tool.message.
  const messages = events.flatMap((event): JsonValue[] => {
    const role = /^gen_ai\.(system|user|assistant|tool)\.message$/.exec(event.name)?.[1];
    if (role === undefined) return [];
    const tool_calls = structured(event.attributes.get("tool_calls"));
    const content = structured(event.attributes.get("content"));
    return [
      {
        role,
        content: content ?? "",
        ...(tool_calls === undefined ? {} : { tool_calls }),
        ...(event.attributes.has("id") ? { tool_call_id: event.attributes.get("id") ?? "" } : {}),
      },
    ];
  });
  return fromChatMessages(messages, "events");
}

function readGenAiReply(
  attributes: Attributes,
  events: Events,
  content: Content,
): { calls: TracedCall[]; text: string | null } | null {
  const output = structured(content("gen_ai.output.messages"));
  if (output !== undefined) return partsReply(output, "attributes[gen_ai.output.messages]");
  if (
    attributes.has("gen_ai.completion.0.role") ||
    attributes.has("gen_ai.completion.0.content") ||
    attributes.has("gen_ai.completion.0.tool_calls.0.name")
  ) {
    const [first] = asList(unflatten(attributes, "gen_ai.completion"));
    return chatReply(first, "attributes[gen_ai.completion.0]");
  }
  const completion = events
    .find((e) => e.name === "gen_ai.content.completion")
    ?.attributes.get("gen_ai.completion");
  if (completion !== undefined) {
    const value = structured(completion);
    const [first] = asList(value);
    return chatReply(
      isObject(first) && isObject(first.message) ? first.message : first,
      "events[gen_ai.content.completion].attributes[gen_ai.completion][0]",
    );
  }
  const choice = events.find((e) => e.name === "gen_ai.choice")?.attributes;
  if (choice !== undefined) {
    const message = structured(choice.get("message"));
    return chatReply(
      isObject(message)
        ? message
        : {
            content: structured(choice.get("content")) ?? null,
            tool_calls: structured(choice.get("tool_calls")) ?? null,
          },
      "events[gen_ai.choice]",
    );
  }
  return null;
}

/** A Chat-Completions-shaped reply message: its tool_calls and content. */
function chatReply(
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

/** OpenLLMetry's tools: `llm.request.functions` as a JSON list, or flattened `llm.request.functions.N.name|description|parameters`. */
function readLlmFunctions(attributes: Attributes): TracedTool[] {
  const whole = attributes.get("llm.request.functions");
  if (whole !== undefined)
    return readTracedTools(structured(whole), "attributes[llm.request.functions]");
  const list = unflatten(attributes, "llm.request.functions");
  return list === undefined ? [] : readTracedTools(list, "attributes[llm.request.functions]");
}

function readOpenInference(attributes: Attributes): SpanRead | SpanSkip {
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

/**
 * Vercel AI SDK telemetry (`ai.*`): the provider call is the `ai.generateText.doGenerate` /
 * `ai.streamText.doStream` span (`ai.prompt.messages` in the SDK's own prompt shape,
 * `ai.prompt.tools`, `ai.prompt.toolChoice`, `ai.response.text`, `ai.response.toolCalls`); the
 * spans around it (the whole generation, each tool run) are not model calls.
 */
function readVercel(attributes: Attributes, name: JsonValue | undefined): SpanRead | SpanSkip {
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

function asList(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value.filter((v) => v !== undefined && v !== null) : [];
}

function stringOf(value: JsonValue | undefined): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

const STAGE_PREFIX = "route_eval.candidates.";

function readStages(attributes: Attributes): TracedStage[] {
  const stages: TracedStage[] = [];
  for (const [key, value] of attributes) {
    if (!key.startsWith(STAGE_PREFIX)) continue;
    const tools = structured(value);
    if (!Array.isArray(tools) || !tools.every((t) => typeof t === "string"))
      throw new TraceShapeError(
        `attributes[${key}]`,
        "expected the stage's candidate tool names, as a list of strings",
      );
    stages.push({ stage: key.slice(STAGE_PREFIX.length), tools: tools as string[] });
  }
  return stages;
}

/** Attributes that hold content (messages, tools, prompts): never kept as breakdown keys. */
const CONTENT =
  /^(gen_ai\.(input|output)\.messages|gen_ai\.system_instructions|gen_ai\.tool\.definitions|gen_ai\.(prompt|completion)(\.|$)|gen_ai\.tool\.call\.(arguments|result)|llm\.(input_messages|output_messages|tools|invocation_parameters|request\.functions|prompts)|input\.|output\.|route_eval\.candidates\.)/;
const LONGEST = 200;

/** The scalar attributes (short ones, content left out) and the span's name, as text for --where and --by. */
function describeAttributes(
  attributes: Attributes,
  name: JsonValue | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof name === "string") out["span.name"] = name;
  for (const [key, value] of attributes) {
    if (CONTENT.test(key)) continue;
    const text =
      typeof value === "string" || typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : Array.isArray(value) && value.every((v) => typeof v !== "object")
          ? value.join(",")
          : null;
    if (text !== null && text.length <= LONGEST) out[key] = text;
  }
  return out;
}
