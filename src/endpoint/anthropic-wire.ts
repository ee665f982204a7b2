/**
 * The Anthropic Messages wire format: a neutral TrialRequest → request body, and a reply body →
 * EndpointResponse. Pure; the body is what the response store hashes. Tool results travel as
 * `tool_result` blocks in a user turn; adjacent turns of one role are merged into one.
 * No `temperature` is sent: the Messages API deprecated the parameter (the SDK no longer has it).
 *
 * Tool search (docs/tool-search.md), as Anthropic's tool-search docs describe it: the deferred
 * tools are sent with `defer_loading: true`; `provider` adds the server tool-search tool (BM25 or
 * regex variant) and reads its `server_tool_use` / `tool_search_tool_result` blocks as the
 * provider's searches; `client` offers route-eval's search as an ordinary tool and answers each
 * call with a `tool_result` of `tool_reference` blocks naming what it loaded.
 */
import type {
  ContentBlockParam,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
  ToolResultBlockParam,
  ToolUnion,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type {
  EndpointResponse,
  Message,
  ToolControls,
  ToolDefinition,
  TrialRequest,
} from "../types.js";
import {
  arrayField,
  field,
  isObject,
  numberField,
  stringField,
  toEndpointResponse,
} from "./json-guards.js";
import { renderSystemText } from "./render-prompt.js";
import { controlsFor, createToolRenderer } from "./wire-tools.js";
import type { NotAnswered, WireReply } from "./wire-endpoint.js";

export interface AnthropicRenderOptions {
  model: string;
  maxTokens: number;
  /** tool_choice and disable_parallel_tool_use; absent = none set. */
  controls?: ToolControls;
}

type Turn = { role: "user" | "assistant"; content: ContentBlockParam[] };

export function renderAnthropicRequest(
  request: TrialRequest,
  options: AnthropicRenderOptions,
): MessageCreateParamsNonStreaming {
  const turns = mergeTurns([
    ...request.messages.map(renderMessage),
    { role: "user", content: [{ type: "text", text: request.goal }] },
    ...renderSearchExchange(request),
  ]);
  const messages: MessageParam[] = turns.map((turn) => ({
    role: turn.role,
    content: turn.content,
  }));
  const tools = renderToolList(request);
  return {
    model: options.model,
    max_tokens: options.maxTokens,
    ...(renderSystemText(request) === "" ? {} : { system: renderSystemText(request) }),
    messages,
    ...(tools.length > 0 ? { tools } : {}),
    ...renderToolChoice(controlsFor(request, options.controls)),
  };
}

/**
 * auto / required (Anthropic's "any") / none / a tool's name, with disable_parallel_tool_use —
 * set directly, or as the run's parallel_tool_calls maps to it (false → disabled).
 */
function renderToolChoice(
  controls: ToolControls | undefined,
): Pick<MessageCreateParamsNonStreaming, "tool_choice"> {
  if (controls === undefined) return {};
  const disable =
    controls.disable_parallel_tool_use ??
    (controls.parallel_tool_calls === null ? null : !controls.parallel_tool_calls);
  if (controls.tool_choice === null && disable === null) return {};
  const choice = controls.tool_choice ?? "auto";
  const parallel = disable === null ? {} : { disable_parallel_tool_use: disable };
  if (choice === "none") return { tool_choice: { type: "none" } };
  if (choice === "auto") return { tool_choice: { type: "auto", ...parallel } };
  if (choice === "required") return { tool_choice: { type: "any", ...parallel } };
  return { tool_choice: { type: "tool", name: choice, ...parallel } };
}

const renderTool = (tool: ToolDefinition): Tool => ({
  name: tool.name,
  description: tool.description,
  input_schema: { ...tool.input_schema, type: "object" },
});
const renderTools = createToolRenderer(renderTool);
const renderDeferredTools = createToolRenderer((tool): Tool => ({
  ...renderTool(tool),
  defer_loading: true,
}));

/** The server tool-search tools (the only two variants the Messages API has). */
const SERVER_SEARCH_TOOLS = {
  bm25: { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
  regex: { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
} as const satisfies Record<string, ToolUnion>;

/**
 * Without search, the tools as they are. With it, every tool defined once: the loaded ones as
 * they are (route-eval's search function among them, client mode), each deferred one with
 * defer_loading (a tool a search loaded is expanded from its tool_reference, never sent again),
 * then the server search tool (provider mode).
 */
function renderToolList(request: TrialRequest): ToolUnion[] {
  const search = request.search;
  if (search === undefined) return renderTools(request.tools);
  const deferred = new Set(search.deferred.map((tool) => tool.name));
  const loaded = renderTools(request.tools.filter((tool) => !deferred.has(tool.name)));
  const server =
    search.mode === "provider"
      ? [SERVER_SEARCH_TOOLS[search.kind === "regex" ? "regex" : "bm25"]]
      : [];
  return [...loaded, ...renderDeferredTools(search.deferred), ...server];
}

/** What follows the goal: a client search's tool_use, then a tool_result of tool_reference blocks; or an agent loop's steps (a result in text). */
function renderSearchExchange(request: TrialRequest): Turn[] {
  let results = 0;
  return (request.after_goal ?? []).map((message): Turn => {
    if (message.role !== "tool") return renderMessage(message);
    const loaded = request.search?.loaded[results++] ?? [];
    // A search that found nothing (or could not run) answers in text, as a tool_result must hold something.
    const content: ToolResultBlockParam["content"] =
      loaded.length === 0
        ? message.content
        : loaded.map((name) => ({ type: "tool_reference" as const, tool_name: name }));
    return {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: message.tool_call_id, content }],
    };
  });
}

function renderMessage(message: Message): Turn {
  switch (message.role) {
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content }] };
    case "tool":
      return {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: message.tool_call_id, content: message.content },
        ],
      };
    case "assistant": {
      const text: ContentBlockParam[] =
        message.content === undefined || message.content === ""
          ? []
          : [{ type: "text", text: message.content }];
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
    if (last !== undefined && last.role === turn.role)
      last.content = [...last.content, ...turn.content];
    else merged.push({ role: turn.role, content: [...turn.content] });
  }
  return merged;
}

/** The first tool_use block, the text blocks joined, usage. */
export function normaliseAnthropicReply(reply: WireReply): EndpointResponse | NotAnswered {
  const content = field(reply.body, "content");
  if (!Array.isArray(content)) return { error: "the reply has no content array" };
  // The send continues a paused turn (a server tool still working); one still paused is no answer.
  if (stringField(reply.body, "stop_reason") === "pause_turn")
    return {
      error: `the turn was still paused (stop_reason pause_turn) after ${MAX_CONTINUATIONS} continuations`,
      final: true,
    };
  const calls = content.filter(
    (block) => stringField(block, "type") === "tool_use" && stringField(block, "name") !== null,
  );
  const text = content
    .map((block) =>
      stringField(block, "type") === "text" ? (stringField(block, "text") ?? "") : "",
    )
    .join("");
  const usage = field(reply.body, "usage");
  const response = toEndpointResponse(reply, {
    calls,
    argumentsKey: "input",
    idKey: "id",
    absentArguments: "empty",
    text,
    inputTokens: numberField(usage, "input_tokens"),
    outputTokens: numberField(usage, "output_tokens"),
  });
  const searches = readServerSearches(content);
  if ("error" in searches) return searches;
  return searches.length === 0 ? response : { ...response, searches };
}

/** How often a paused turn (stop_reason pause_turn) is sent back to be continued. */
export const MAX_CONTINUATIONS = 5;

/**
 * The request that continues a paused turn: the same request with the paused reply's content as
 * the assistant's last message, as Anthropic's guide for server tools says (the model picks up
 * where it stopped).
 */
export function continuation(
  body: MessageCreateParamsNonStreaming,
  paused: unknown,
): MessageCreateParamsNonStreaming {
  return {
    ...body,
    messages: [
      ...body.messages,
      { role: "assistant", content: arrayField(paused, "content") as MessageParam["content"] },
    ],
  };
}

/** A paused reply and its continuation as one reply: every content block in order, the last stop reason, usage summed. */
export function joinContinued(first: unknown, next: unknown): unknown {
  const usage = (reply: unknown, key: string) => numberField(field(reply, "usage"), key) ?? 0;
  return {
    ...(isObject(next) ? next : {}),
    content: [...arrayField(first, "content"), ...arrayField(next, "content")],
    usage: {
      input_tokens: usage(first, "input_tokens") + usage(next, "input_tokens"),
      output_tokens: usage(first, "output_tokens") + usage(next, "output_tokens"),
    },
  };
}

/** The server tool-search calls (server_tool_use) with the tools their tool_search_tool_result referenced. */
function readServerSearches(
  content: unknown[],
): { query: string | null; returned: string[] }[] | NotAnswered {
  const searches = new Map<string, { query: string | null; returned: string[] }>();
  for (const block of content) {
    const type = stringField(block, "type");
    if (
      type === "server_tool_use" &&
      (stringField(block, "name") ?? "").startsWith("tool_search_tool_")
    ) {
      const input = field(block, "input");
      const query = isObject(input)
        ? (stringField(input, "query") ?? stringField(input, "pattern"))
        : null;
      searches.set(stringField(block, "id") ?? `#${searches.size}`, { query, returned: [] });
    } else if (type === "tool_search_tool_result") {
      const result = field(block, "content");
      if (stringField(result, "type") === "tool_search_tool_result_error")
        return {
          error: `the provider's tool search failed (tool_search_tool_result_error: ${stringField(result, "error_code") ?? "no error_code"}); the trial is errored, not charged to the model`,
          final: true,
        };
      const search = searches.get(stringField(block, "tool_use_id") ?? "");
      const names = arrayField(field(block, "content"), "tool_references")
        .map((ref) => stringField(ref, "tool_name"))
        .filter((name): name is string => name !== null);
      if (search !== undefined) for (const name of names) search.returned.push(name);
    }
  }
  return [...searches.values()];
}
