/**
 * The OpenAI Chat Completions wire format: a neutral TrialRequest → request body, and a reply
 * body → EndpointResponse. Pure; the body is what the response store hashes.
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import type { EndpointResponse, Message, ToolControls, TrialRequest } from "../types.js";
import { arrayField, field, numberField, stringField, toEndpointResponse } from "./json-guards.js";
import { renderSystemText } from "./render-prompt.js";
import { controlsFor, createToolRenderer } from "./wire-tools.js";
import type { WireReply } from "./wire-endpoint.js";

export interface OpenAIRenderOptions {
  model: string;
  maxTokens: number;
  /**
   * The official API takes `max_completion_tokens` (reasoning models reject `max_tokens`);
   * OpenAI-compatible servers (vLLM, Ollama, llama.cpp) take `max_tokens`.
   */
  official: boolean;
  /** tool_choice, parallel_tool_calls, strict; absent = none set. */
  controls?: ToolControls;
}

export function renderOpenAIRequest(
  request: TrialRequest,
  options: OpenAIRenderOptions,
): ChatCompletionCreateParamsNonStreaming {
  const system = renderSystemText(request);
  const messages: ChatCompletionMessageParam[] = [
    // A case whose system prompt is empty (a traced turn that had none) is sent without one.
    ...(system === "" ? [] : [{ role: "system" as const, content: system }]),
    ...request.messages.map(renderRemembered),
    { role: "user", content: request.goal },
    ...(request.after_goal ?? []).map(renderMessage),
  ];
  const controls = controlsFor(request, options.controls);
  const strict = controls?.strict === true;
  const tools = (strict ? renderStrictTools : renderTools)(request.tools);
  return {
    model: options.model,
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...(controls === undefined || controls.tool_choice === null
      ? {}
      : { tool_choice: renderToolChoice(controls.tool_choice) }),
    ...(controls === undefined || controls.parallel_tool_calls === null
      ? {}
      : { parallel_tool_calls: controls.parallel_tool_calls }),
    temperature: request.temperature,
    ...(request.seed === undefined ? {} : { seed: request.seed }),
    ...(options.official
      ? { max_completion_tokens: options.maxTokens }
      : { max_tokens: options.maxTokens }),
  };
}

const renderTools = createToolRenderer((tool): ChatCompletionTool => ({
  type: "function",
  function: { name: tool.name, description: tool.description, parameters: tool.input_schema },
}));
const renderStrictTools = createToolRenderer((tool): ChatCompletionTool => ({
  type: "function",
  function: {
    name: tool.name,
    description: tool.description,
    parameters: tool.input_schema,
    strict: true,
  },
}));

function renderToolChoice(choice: string): ChatCompletionCreateParamsNonStreaming["tool_choice"] {
  return choice === "auto" || choice === "required" || choice === "none"
    ? choice
    : { type: "function", function: { name: choice } };
}

/**
 * Prior messages are shared by reference between requests (a conversation's history by every
 * later turn and trial): rendered once each, the same object is hashed once by the store's
 * canonical writer, which remembers texts by identity. Never mutated once rendered.
 */
const renderedMessages = new WeakMap<Message, ChatCompletionMessageParam>();
function renderRemembered(message: Message): ChatCompletionMessageParam {
  let rendered = renderedMessages.get(message);
  if (rendered === undefined) renderedMessages.set(message, (rendered = renderMessage(message)));
  return rendered;
}

function renderMessage(message: Message): ChatCompletionMessageParam {
  switch (message.role) {
    case "user":
      return { role: "user", content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.tool_call_id, content: message.content };
    case "assistant": {
      const calls = (message.tool_calls ?? []).map((call) => ({
        id: call.id,
        type: "function" as const,
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }));
      if (calls.length === 0) return { role: "assistant", content: message.content ?? "" };
      return { role: "assistant", content: message.content ?? null, tool_calls: calls };
    }
  }
}

/** The first choice's message: its first tool call (or legacy function_call), its text, usage. */
export function normaliseOpenAIReply(reply: WireReply): EndpointResponse | { error: string } {
  const choice = arrayField(reply.body, "choices")[0];
  const message = field(choice, "message");
  if (message === undefined) return { error: "the reply has no choices[0].message" };
  const calls = arrayField(message, "tool_calls")
    .map((call) => field(call, "function"))
    .filter((fn) => stringField(fn, "name") !== null);
  const legacy = field(message, "function_call");
  if (calls.length === 0 && stringField(legacy, "name") !== null) calls.push(legacy);
  const usage = field(reply.body, "usage");
  return toEndpointResponse(reply, {
    calls,
    argumentsKey: "arguments",
    idKey: "id",
    absentArguments: "invalid",
    text: stringField(message, "content"),
    inputTokens: numberField(usage, "prompt_tokens"),
    outputTokens: numberField(usage, "completion_tokens"),
  });
}
