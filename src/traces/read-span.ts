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
  TraceShapeError,
  type Conversation,
} from "./trace-messages.js";
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

export function readSpan(
  span: JsonObject,
  resource: Attributes,
  where: Omit<TracedTurn["source"], "format">,
  otlp: boolean,
): TracedTurn | null {
  const attributes: Attributes = new Map(resource);
  addAttributes(attributes, span.attributes, "attributes");
  const fields = fieldsOf(span);
  const events = readEvents(fields.events);
  const openinference = attributes.get("openinference.span.kind");
  let read: Omit<
    TracedTurn,
    "source" | "trace_id" | "span_id" | "time" | "stages" | "attributes"
  > | null;
  let format: TraceFormat;
  if (openinference !== undefined) {
    if (String(openinference).toUpperCase() !== "LLM") return null;
    read = readOpenInference(attributes);
    format = otlp ? "otlp-openinference" : "span-openinference";
  } else {
    read = readGenAi(attributes, events);
    format = otlp ? "otlp-genai" : "span-genai";
  }
  if (read === null) return null;
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

/** Span events by name, each with its attributes (the older GenAI forms carry messages there). */
type Events = { name: string; attributes: Attributes }[];

function readEvents(events: JsonValue | undefined): Events {
  if (!Array.isArray(events)) return [];
  return events.filter(isObject).map((event, i) => {
    const attributes: Attributes = new Map();
    addAttributes(attributes, event.attributes, `events[${i}].attributes`);
    // A log-style event may carry its body as a structured value.
    if (isObject(event.body))
      for (const [key, value] of Object.entries(anyValueOrPlain(event.body) as JsonObject))
        attributes.set(key, value);
    return { name: String(event.name ?? ""), attributes };
  });
}

function anyValueOrPlain(value: JsonValue): JsonValue {
  return isObject(value) && ("kvlistValue" in value || "stringValue" in value)
    ? anyValue(value)
    : value;
}

type GenAiRead = NonNullable<ReturnType<typeof readOpenInference>>;

function readGenAi(attributes: Attributes, events: Events): GenAiRead | null {
  const operation = attributes.get("gen_ai.operation.name");
  const details = events.find(
    (e) => e.name === "gen_ai.client.inference.operation.details",
  )?.attributes;
  const content = (key: string) => attributes.get(key) ?? details?.get(key);
  const hasContent =
    content("gen_ai.input.messages") !== undefined ||
    attributes.has("gen_ai.prompt.0.role") ||
    events.some((e) => e.name.startsWith("gen_ai."));
  if (operation !== undefined ? !CALL_OPERATIONS.has(String(operation)) : !hasContent) return null;

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

function readOpenInference(attributes: Attributes) {
  const input = asList(unflatten(attributes, "llm.input_messages")).map((entry) =>
    isObject(entry) && isObject(entry.message) ? openInferenceMessage(entry.message) : entry,
  );
  const conversation = fromChatMessages(input, "attributes[llm.input_messages]");
  const output = asList(unflatten(attributes, "llm.output_messages"));
  const first =
    output.length > 0 && isObject(output[0]) && isObject(output[0].message)
      ? openInferenceMessage(output[0].message)
      : undefined;
  const reply =
    first === undefined ? null : chatReply(first, "attributes[llm.output_messages.0.message]");
  const parameters = structured(attributes.get("llm.invocation_parameters"));
  const choice = isObject(parameters) ? parameters.tool_choice : undefined;
  return {
    provider: stringOf(attributes.get("llm.provider") ?? attributes.get("llm.system")),
    api: null,
    model: stringOf(attributes.get("llm.model_name")),
    ...conversation,
    tools: readOpenInferenceTools(attributes),
    tool_choice:
      choice === undefined
        ? { value: "auto" as JsonValue, provenance: "inferred" as const }
        : { value: choice, provenance: "traced" as const },
    calls: reply?.calls ?? [],
    text: reply?.text ?? null,
    replied: reply !== null,
  };
}

/** An OpenInference message (`role`, `content` or `contents[].message_content.text`, `tool_calls[].tool_call.{id, function}`) in the Chat Completions shape. */
function openInferenceMessage(message: JsonObject): JsonObject {
  const contents = asList(message.contents).map((c) =>
    isObject(c) && isObject(c.message_content) ? c.message_content : c,
  );
  const calls = asList(message.tool_calls).map((c) =>
    isObject(c) && isObject(c.tool_call) ? c.tool_call : c,
  );
  return {
    role: message.role ?? "user",
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
