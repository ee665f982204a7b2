/**
 * OpenTelemetry GenAI spans: `gen_ai.input.messages` / `gen_ai.output.messages` /
 * `gen_ai.tool.definitions` (structured or JSON strings), and the older forms still common in
 * traces — the `gen_ai.client.inference.operation.details` event, the per-message events
 * (`gen_ai.user.message`, `gen_ai.choice`…, also as OTLP log records), the
 * `gen_ai.content.prompt|completion` events and OpenLLMetry's flattened `gen_ai.prompt.N.*`,
 * `gen_ai.completion.N.*`, `llm.request.functions`.
 */
import type { JsonValue, TracedCall, TracedTool } from "../types.js";
import { unflatten, type Attributes } from "./otlp-values.js";
import {
  asList,
  chatReply,
  seenIn,
  stringOf,
  type Events,
  type SpanRead,
  type SpanSkip,
} from "./span-read.js";
import {
  fromChatMessages,
  isObject,
  readToolsAttribute,
  readTracedTools,
  structured,
  textOf,
  type Conversation,
} from "./trace-messages.js";
import { fromPartsMessages, partsReply } from "./parts-messages.js";

const CALL_OPERATIONS = new Set(["chat", "text_completion", "generate_content"]);

export function readGenAi(
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
  const toolValue = content("gen_ai.tool.definitions");
  const tools =
    toolValue !== undefined
      ? readToolsAttribute(toolValue, "attributes[gen_ai.tool.definitions]")
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

/** OpenLLMetry's tools: `llm.request.functions` as a JSON list, or flattened `llm.request.functions.N.name|description|parameters`. */
function readLlmFunctions(attributes: Attributes): TracedTool[] {
  const whole = attributes.get("llm.request.functions");
  if (whole !== undefined) return readToolsAttribute(whole, "attributes[llm.request.functions]");
  const list = unflatten(attributes, "llm.request.functions");
  return list === undefined ? [] : readTracedTools(list, "attributes[llm.request.functions]");
}
