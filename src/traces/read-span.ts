/**
 * One span → a traced turn, or why it is none (not a model call, or one whose content was not
 * captured). Spans come in OTLP JSON (`attributes: [{key, value: AnyValue}]`, hex ids, times in
 * Unix nanoseconds as decimal strings) or flat (`attributes: {key: value}`, as Phoenix and the
 * console exporters write them), with the span's OTLP log records when the file holds them.
 * Three conventions are read, each in its own module: OpenTelemetry GenAI (read-genai-span.ts),
 * OpenInference (read-openinference.ts) and the Vercel AI SDK's telemetry (read-vercel-span.ts).
 * Candidate sets logged per filtering stage are read from `route_eval.candidates.<stage>`.
 */
import type { JsonObject, JsonValue, TraceFormat, TracedStage, TracedTurn } from "../types.js";
import { isObject, structured, TraceShapeError } from "./trace-messages.js";
import { addAttributes, anyValue, normaliseId, timeOf, type Attributes } from "./otlp-values.js";
import { readGenAi } from "./read-genai-span.js";
import { readOpenInference } from "./read-openinference.js";
import { readVercel } from "./read-vercel-span.js";
import type { Events, SpanRead, SpanSkip } from "./span-read.js";

export type { SpanSkip } from "./span-read.js";

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
  /** The file's OTLP log records by (hex) span id: a span's content may be there. */
  logs: ReadonlyMap<string, JsonValue[]> = new Map(),
): TracedTurn | SpanSkip {
  const attributes: Attributes = new Map(resource);
  addAttributes(attributes, span.attributes, "attributes");
  const fields = fieldsOf(span);
  const spanId = normaliseId(fields.spanId, 8);
  const logged = spanId === null ? [] : (logs.get(spanId) ?? []);
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
    span_id: spanId,
    time: timeOf(fields.start),
    ...read,
    stages: readStages(attributes),
    attributes: describeAttributes(attributes, fields.name),
  };
}

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
