/**
 * The `openai-responses` endpoint: OpenAI's Responses API through the official SDK (any
 * compatible base URL), function tools only. Prior turns become input items: messages, the
 * assistant's function calls and their outputs. Same store, retries and failure handling as the
 * Chat Completions path; the system prompt (with the trusted context) travels as `instructions`.
 */
import type { FunctionTool, ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import type { EndpointResponse, Message, ToolControls, ToolDefinition, TrialRequest } from "../types.js";
import { arrayField, field, numberField, stringField, toEndpointResponse } from "./json-guards.js";
import { connectOpenAI } from "./openai.js";
import { renderSystemText } from "./render-prompt.js";
import { createToolRenderer } from "./wire-tools.js";
import { sentAs, timed, type ProviderSettings, type WireEndpoint, type WireReply } from "./wire-endpoint.js";

export function createResponsesWire(settings: ProviderSettings): WireEndpoint<ResponseCreateParamsNonStreaming> {
  const connection = connectOpenAI(settings, "openai-responses");
  return {
    ...connection.identity,
    render: (request) => renderResponsesRequest(request, settings.model, settings.maxTokens, settings.controls),
    send: async (body, json) => {
      const openai = await connection.client();
      const { value, latency_ms } = await timed(() => openai.responses.create(body, sentAs(json)).withResponse());
      return { body: value.data, request_id: value.request_id, latency_ms };
    },
    normalise: normaliseResponsesReply,
    classify: connection.classify,
  };
}

export function renderResponsesRequest(request: TrialRequest, model: string, maxTokens: number, controls: ToolControls): ResponseCreateParamsNonStreaming {
  const input: ResponseInputItem[] = [...request.messages.flatMap(renderMessage), { role: "user", content: request.goal }];
  const tools = (controls.strict ? renderStrictTools : renderTools)(request.tools);
  return {
    model,
    instructions: renderSystemText(request),
    input,
    ...(tools.length > 0 ? { tools } : {}),
    ...(controls.tool_choice === null ? {} : { tool_choice: renderToolChoice(controls.tool_choice) }),
    ...(controls.parallel_tool_calls === null ? {} : { parallel_tool_calls: controls.parallel_tool_calls }),
    temperature: request.temperature,
    max_output_tokens: maxTokens,
  };
}

function renderToolChoice(choice: string): ResponseCreateParamsNonStreaming["tool_choice"] {
  return choice === "auto" || choice === "required" || choice === "none" ? choice : { type: "function", name: choice };
}

const renderTool = (strict: boolean) => (tool: ToolDefinition): FunctionTool => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.input_schema, strict });
const renderTools = createToolRenderer(renderTool(false));
const renderStrictTools = createToolRenderer(renderTool(true));

function renderMessage(message: Message): ResponseInputItem[] {
  switch (message.role) {
    case "user":
      return [{ role: "user", content: message.content }];
    case "tool":
      return [{ type: "function_call_output", call_id: message.tool_call_id, output: message.content }];
    case "assistant": {
      const text: ResponseInputItem[] = message.content === undefined || message.content === "" ? [] : [{ role: "assistant", content: message.content }];
      const calls: ResponseInputItem[] = (message.tool_calls ?? []).map((call) => ({
        type: "function_call",
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      }));
      return [...text, ...calls];
    }
  }
}

/** Every function_call output item (the first is the selection), the output text joined, usage. */
export function normaliseResponsesReply(reply: WireReply): EndpointResponse | { error: string } {
  const output = field(reply.body, "output");
  if (!Array.isArray(output)) return { error: "the reply has no output array" };
  const calls = output.filter((item) => stringField(item, "type") === "function_call" && stringField(item, "name") !== null);
  const texts = output
    .filter((item) => stringField(item, "type") === "message")
    .flatMap((item) => arrayField(item, "content"))
    .map((part) => stringField(part, "text"))
    .filter((t): t is string => t !== null && t !== "");
  const usage = field(reply.body, "usage");
  return toEndpointResponse(reply, {
    calls,
    argumentsKey: "arguments",
    absentArguments: "invalid",
    text: texts.join("\n"),
    inputTokens: numberField(usage, "input_tokens"),
    outputTokens: numberField(usage, "output_tokens"),
  });
}
