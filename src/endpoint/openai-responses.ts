/**
 * The `openai-responses` endpoint: OpenAI's Responses API through the official SDK (any
 * compatible base URL), function tools only. Prior turns become input items: messages, the
 * assistant's function calls and their outputs. Same store, retries and failure handling as the
 * Chat Completions path; the system prompt (with the trusted context) travels as `instructions`.
 *
 * Tool search (docs/tool-search.md), as OpenAI's tool-search guide describes it: `provider` sends
 * the deferred tools as functions with `defer_loading: true` beside a hosted `{type: "tool_search"}`
 * tool, and reads the searches from the reply's `tool_search_call` / `tool_search_output` items;
 * `client` sends `{type: "tool_search", execution: "client"}` with route-eval's parameters, reads
 * the model's `tool_search_call` as a search, and answers it with a `tool_search_output` item
 * carrying the definitions the search loaded (the deferred tools are not listed up front).
 */
import type {
  FunctionTool,
  NamespaceTool,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ToolSearchTool,
} from "openai/resources/responses/responses";
import {
  SEARCH_TOOL,
  type EndpointResponse,
  type Message,
  type ToolControls,
  type ToolDefinition,
  type TrialRequest,
} from "../types.js";
import {
  arrayField,
  field,
  isObject,
  numberField,
  stringField,
  toEndpointResponse,
} from "./json-guards.js";
import { connectOpenAI } from "./openai.js";
import { renderSystemText } from "./render-prompt.js";
import { controlsFor, createToolRenderer } from "./wire-tools.js";
import {
  sentAs,
  timed,
  type ProviderSettings,
  type WireEndpoint,
  type NotAnswered,
  type WireReply,
} from "./wire-endpoint.js";

export function createResponsesWire(
  settings: ProviderSettings,
): WireEndpoint<ResponseCreateParamsNonStreaming> {
  const connection = connectOpenAI(settings);
  return {
    ...connection.identity,
    render: (request) =>
      renderResponsesRequest(request, settings.model, settings.maxTokens, settings.controls),
    send: async (body, json) => {
      const openai = await connection.client();
      const { value, latency_ms } = await timed(() =>
        openai.responses.create(body, sentAs(json)).withResponse(),
      );
      return {
        body: value.data,
        request_id: value.request_id,
        latency_ms,
        headers: value.response.headers,
      };
    },
    normalise: normaliseResponsesReply,
    classify: connection.classify,
  };
}

export function renderResponsesRequest(
  request: TrialRequest,
  model: string,
  maxTokens: number,
  runControls: ToolControls,
): ResponseCreateParamsNonStreaming {
  const controls = controlsFor(request, runControls) ?? runControls;
  const input: ResponseInputItem[] = [
    ...request.messages.flatMap(renderMessage),
    { role: "user", content: request.goal },
    ...renderSearchExchange(request, controls.strict),
  ];
  const tools = renderToolList(request, controls.strict);
  return {
    model,
    ...(renderSystemText(request) === "" ? {} : { instructions: renderSystemText(request) }),
    input,
    ...(tools.length > 0 ? { tools } : {}),
    ...(controls.tool_choice === null
      ? {}
      : { tool_choice: renderToolChoice(controls.tool_choice) }),
    ...(controls.parallel_tool_calls === null
      ? {}
      : { parallel_tool_calls: controls.parallel_tool_calls }),
    temperature: request.temperature,
    max_output_tokens: maxTokens,
  };
}

function renderToolChoice(choice: string): ResponseCreateParamsNonStreaming["tool_choice"] {
  return choice === "auto" || choice === "required" || choice === "none"
    ? choice
    : { type: "function", name: choice };
}

const renderTool =
  (strict: boolean) =>
  (tool: ToolDefinition): FunctionTool => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    parameters: tool.input_schema,
    strict,
  });
const renderTools = createToolRenderer(renderTool(false));
const renderStrictTools = createToolRenderer(renderTool(true));
const renderDeferred =
  (strict: boolean) =>
  (tool: ToolDefinition): FunctionTool => ({ ...renderTool(strict)(tool), defer_loading: true });
const renderDeferredTools = createToolRenderer(renderDeferred(false));
const renderStrictDeferredTools = createToolRenderer(renderDeferred(true));

/** The client-executed search tool: route-eval's search, in OpenAI's own form. */
function clientSearchTool(request: TrialRequest): ToolSearchTool {
  const own = request.tools.find((tool) => tool.name === SEARCH_TOOL);
  return {
    type: "tool_search",
    execution: "client",
    description: own?.description ?? null,
    parameters: own?.input_schema ?? null,
  };
}

/** The tools of a request: as they are without search; with it, the loaded ones and the search tool (and, hosted, the deferred ones). */
function renderToolList(
  request: TrialRequest,
  strict: boolean,
): ResponseCreateParamsNonStreaming["tools"] & object {
  const render = strict ? renderStrictTools : renderTools;
  const search = request.search;
  if (search === undefined) return render(request.tools);
  const deferred = strict ? renderStrictDeferredTools : renderDeferredTools;
  if (search.mode === "provider" && search.namespaces !== undefined) {
    // For a namespace, defer_loading applies to the functions inside it (OpenAI's tool-search guide).
    const namespaces = search.namespaces.map((ns): NamespaceTool => ({
      type: "namespace",
      name: ns.name,
      description: ns.description,
      tools: deferred(ns.tools),
    }));
    return [...render(request.tools), ...namespaces, { type: "tool_search" }];
  }
  if (search.mode === "provider")
    return [...render(request.tools), ...deferred(search.deferred), { type: "tool_search" }];
  // Client: the tools a search loaded come back in its tool_search_output item, not in `tools`.
  const loaded = new Set(search.loaded.flat());
  return [
    ...render(request.tools.filter((tool) => tool.name !== SEARCH_TOOL && !loaded.has(tool.name))),
    clientSearchTool(request),
  ];
}

/** What follows the goal: a client search's tool_search_call and tool_search_output items, or an agent loop's steps. */
function renderSearchExchange(request: TrialRequest, strict: boolean): ResponseInputItem[] {
  const exchange = request.after_goal ?? [];
  if (exchange.length === 0) return [];
  // Without search, the exchange is an agent loop's steps: ordinary function calls and their outputs.
  if (request.search === undefined) return exchange.flatMap(renderMessage);
  const definitions = new Map((request.search?.deferred ?? []).map((tool) => [tool.name, tool]));
  let results = 0;
  return exchange.flatMap((message): ResponseInputItem[] => {
    if (message.role === "assistant") {
      return (message.tool_calls ?? []).map((call) => ({
        type: "tool_search_call",
        call_id: call.id,
        execution: "client",
        arguments: call.arguments,
        status: "completed",
      }));
    }
    if (message.role !== "tool") return renderMessage(message);
    const loaded = request.search?.loaded[results++] ?? [];
    const tools = loaded
      .map((name) => definitions.get(name))
      .filter((tool): tool is ToolDefinition => tool !== undefined)
      .map(renderTool(strict));
    // A search that failed (bad arguments) is said as the item can say it: incomplete, nothing loaded.
    const failed = message.content.startsWith('{"error"');
    return [
      {
        type: "tool_search_output",
        call_id: message.tool_call_id,
        execution: "client",
        status: failed ? "incomplete" : "completed",
        tools,
      },
    ];
  });
}

function renderMessage(message: Message): ResponseInputItem[] {
  switch (message.role) {
    case "user":
      return [{ role: "user", content: message.content }];
    case "tool":
      return [
        { type: "function_call_output", call_id: message.tool_call_id, output: message.content },
      ];
    case "assistant": {
      const text: ResponseInputItem[] =
        message.content === undefined || message.content === ""
          ? []
          : [{ role: "assistant", content: message.content }];
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

/**
 * Every function_call output item (the first is the selection), the output text joined, usage.
 * A client-executed tool_search_call is a call of route-eval's search function; the hosted
 * searches (execution "server": a tool_search_call and the tool_search_output after it) are
 * read as the provider's searches.
 */
export function normaliseResponsesReply(reply: WireReply): EndpointResponse | NotAnswered {
  const output = field(reply.body, "output");
  if (!Array.isArray(output)) return { error: "the reply has no output array" };
  const calls = output
    .map((item) =>
      stringField(item, "type") === "tool_search_call" &&
      stringField(item, "execution") === "client"
        ? {
            name: SEARCH_TOOL,
            arguments: field(item, "arguments") ?? {},
            call_id: field(item, "call_id"),
          }
        : item,
    )
    .filter(
      (item) =>
        (stringField(item, "type") === "function_call" ||
          stringField(item, "name") === SEARCH_TOOL) &&
        stringField(item, "name") !== null,
    );
  const texts = output
    .filter((item) => stringField(item, "type") === "message")
    .flatMap((item) => arrayField(item, "content"))
    .map((part) => stringField(part, "text"))
    .filter((t): t is string => t !== null && t !== "");
  const usage = field(reply.body, "usage");
  const response = toEndpointResponse(reply, {
    calls,
    argumentsKey: "arguments",
    idKey: "call_id",
    absentArguments: "invalid",
    text: texts.join("\n"),
    inputTokens: numberField(usage, "input_tokens"),
    outputTokens: numberField(usage, "output_tokens"),
  });
  const searches = readHostedSearches(output);
  if ("error" in searches) return searches;
  return searches.length === 0 ? response : { ...response, searches };
}

/**
 * Hosted searches: each server tool_search_call with the names its tool_search_output loaded
 * (namespaces opened). An output answers the earliest search not yet answered — by call_id when
 * both carry one; hosted mode leaves it null, so by order (a search that found nothing keeps its
 * empty result). An output whose status is not completed is the provider's search failing.
 */
function readHostedSearches(
  output: unknown[],
): { query: string | null; returned: string[] }[] | NotAnswered {
  const searches: {
    query: string | null;
    returned: string[];
    call: string | null;
    answered: boolean;
  }[] = [];
  for (const item of output) {
    const type = stringField(item, "type");
    if (type === "tool_search_call" && stringField(item, "execution") !== "client") {
      searches.push({
        query: describeQuery(field(item, "arguments")),
        returned: [],
        call: stringField(item, "call_id"),
        answered: false,
      });
    } else if (type === "tool_search_output" && stringField(item, "execution") !== "client") {
      const status = stringField(item, "status");
      if (status !== null && status !== "completed")
        return {
          error: `the provider's tool search ended ${status} (a tool_search_output item); the trial is errored, not charged to the model`,
          final: true,
        };
      const call = stringField(item, "call_id");
      const search =
        searches.find((s) => !s.answered && call !== null && s.call === call) ??
        searches.find((s) => !s.answered);
      const names = arrayField(item, "tools")
        .flatMap((tool) =>
          stringField(tool, "type") === "namespace" ? arrayField(tool, "tools") : [tool],
        )
        .map((tool) => stringField(tool, "name"))
        .filter((name): name is string => name !== null);
      if (search === undefined)
        searches.push({ query: null, returned: names, call, answered: true });
      else {
        search.answered = true;
        for (const name of names) search.returned.push(name);
      }
    }
  }
  return searches.map(({ query, returned }) => ({ query, returned }));
}

/** A search's arguments as one line of text: its query (or goal), else its JSON. */
function describeQuery(args: unknown): string | null {
  const parsed = typeof args === "string" ? safeParse(args) : args;
  if (!isObject(parsed)) return typeof args === "string" ? args : null;
  for (const key of ["query", "goal", "q"])
    if (typeof parsed[key] === "string") return parsed[key] as string;
  return JSON.stringify(parsed);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
