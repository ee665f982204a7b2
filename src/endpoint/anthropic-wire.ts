/**
 * The Anthropic Messages wire format: a neutral TrialRequest → request body, and a reply body →
 * EndpointResponse. Pure; the body is what the response store hashes. Tool results travel as
 * `tool_result` blocks in a user turn; adjacent turns of one role are merged into one.
 * No `temperature` is sent: the Messages API deprecated the parameter (the SDK no longer has it).
 */
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { EndpointResponse, Message, ToolControls, TrialRequest } from "../types.js";
import { field, numberField, stringField, toEndpointResponse } from "./json-guards.js";
import { renderSystemText } from "./render-prompt.js";
import { createToolRenderer } from "./wire-tools.js";
import type { WireReply } from "./wire-endpoint.js";

export interface AnthropicRenderOptions {
  model: string;
  maxTokens: number;
  /** tool_choice and disable_parallel_tool_use; absent = none set. */
  controls?: ToolControls;
}

type Turn = { role: "user" | "assistant"; content: ContentBlockParam[] };

export function renderAnthropicRequest(request: TrialRequest, options: AnthropicRenderOptions): MessageCreateParamsNonStreaming {
  const turns = mergeTurns([...request.messages.map(renderMessage), { role: "user", content: [{ type: "text", text: request.goal }] }]);
  const messages: MessageParam[] = turns.map((turn) => ({ role: turn.role, content: turn.content }));
  return {
    model: options.model,
    max_tokens: options.maxTokens,
    system: renderSystemText(request),
    messages,
    ...(request.tools.length > 0 ? { tools: renderTools(request.tools) } : {}),
    ...renderToolChoice(options.controls),
  };
}

/** auto / required (Anthropic's "any") / none / a tool's name, with disable_parallel_tool_use. */
function renderToolChoice(controls: ToolControls | undefined): Pick<MessageCreateParamsNonStreaming, "tool_choice"> {
  if (controls === undefined || (controls.tool_choice === null && controls.disable_parallel_tool_use === null)) return {};
  const choice = controls.tool_choice ?? "auto";
  const parallel = controls.disable_parallel_tool_use === null ? {} : { disable_parallel_tool_use: controls.disable_parallel_tool_use };
  if (choice === "none") return { tool_choice: { type: "none" } };
  if (choice === "auto") return { tool_choice: { type: "auto", ...parallel } };
  if (choice === "required") return { tool_choice: { type: "any", ...parallel } };
  return { tool_choice: { type: "tool", name: choice, ...parallel } };
}

const renderTools = createToolRenderer((tool): Tool => ({ name: tool.name, description: tool.description, input_schema: { ...tool.input_schema, type: "object" } }));

function renderMessage(message: Message): Turn {
  switch (message.role) {
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content }] };
    case "tool":
      return { role: "user", content: [{ type: "tool_result", tool_use_id: message.tool_call_id, content: message.content }] };
    case "assistant": {
      const text: ContentBlockParam[] = message.content === undefined || message.content === "" ? [] : [{ type: "text", text: message.content }];
      const calls: ContentBlockParam[] = (message.tool_calls ?? []).map((call) => ({
        type: "tool_use",
        id: call.id,
        name: call.name,
        input: call.arguments,
      }));
      return { role: "assistant", content: [...text, ...calls] };
    }
  }
}

/** Adjacent turns of one role become one turn (tool results, then the goal, form one user turn). */
function mergeTurns(turns: Turn[]): Turn[] {
  const merged: Turn[] = [];
  for (const turn of turns) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.role === turn.role) last.content = [...last.content, ...turn.content];
    else merged.push({ role: turn.role, content: [...turn.content] });
  }
  return merged;
}

/** The first tool_use block, the text blocks joined, usage. */
export function normaliseAnthropicReply(reply: WireReply): EndpointResponse | { error: string } {
  const content = field(reply.body, "content");
  if (!Array.isArray(content)) return { error: "the reply has no content array" };
  const calls = content.filter((block) => stringField(block, "type") === "tool_use" && stringField(block, "name") !== null);
  const text = content.map((block) => (stringField(block, "type") === "text" ? (stringField(block, "text") ?? "") : "")).join("");
  const usage = field(reply.body, "usage");
  return toEndpointResponse(reply, {
    calls,
    argumentsKey: "input",
    absentArguments: "empty",
    text,
    inputTokens: numberField(usage, "input_tokens"),
    outputTokens: numberField(usage, "output_tokens"),
  });
}
