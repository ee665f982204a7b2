/**
 * The provider-neutral wire format of `command` and `http` endpoints (protocol
 * route-eval-endpoint/1, schemas/endpoint-request.schema.json and endpoint-reply.schema.json):
 * one trial's request as JSON, and a reply that is validated before it is read. Pure.
 */
import { compileSchemaFile } from "../json-schema/compile.js";
import { describeProblem, describeSchemaErrors } from "../json-schema/describe-errors.js";
import { lazy } from "../text/lazy.js";
import type {
  EndpointCall,
  EndpointResponse,
  JsonObject,
  Message,
  ToolDefinition,
  TrialRequest,
} from "../types.js";
import {
  field,
  isObject,
  listCalls,
  numberField,
  parseArguments,
  stringField,
} from "./json-guards.js";
import type { WireReply } from "./wire-endpoint.js";

export const PROTOCOL = "route-eval-endpoint/1";

/** The run's tool controls as the protocol passes them on (absent: no preference). */
export interface NeutralControls {
  tool_choice?: string;
  parallel_tool_calls?: boolean;
}

export interface NeutralRequest {
  protocol: typeof PROTOCOL;
  case_id: string;
  trial: number;
  seed: number;
  goal: string;
  messages: Message[];
  /** Tool search (client): this decision's search calls and their results so far, after the goal. */
  after_goal?: Message[];
  context: JsonObject;
  system_prompt: string;
  temperature: number;
  tools: ToolDefinition[];
  renderings: { openai: JsonObject[]; anthropic: JsonObject[]; mcp: JsonObject[] };
  tool_controls: NeutralControls;
  version: string | null;
}

export function renderNeutralRequest(
  request: TrialRequest,
  controls: NeutralControls,
  version: string | null,
): NeutralRequest {
  return {
    protocol: PROTOCOL,
    case_id: request.case_id,
    trial: request.trial,
    seed: request.seed ?? 0,
    goal: request.goal,
    messages: request.messages,
    ...(request.after_goal === undefined || request.after_goal.length === 0
      ? {}
      : { after_goal: request.after_goal }),
    context: request.context,
    system_prompt: request.system,
    temperature: request.temperature,
    tools: request.tools,
    renderings: {
      openai: request.tools.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.input_schema },
      })),
      anthropic: request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: t.input_schema,
      })),
      mcp: request.tools.map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.input_schema,
      })),
    },
    tool_controls: {
      ...controls,
      ...(request.parallel_tool_calls === undefined
        ? {}
        : { parallel_tool_calls: request.parallel_tool_calls }),
      ...(request.tool_choice === undefined ? {} : { tool_choice: request.tool_choice }),
    },
    version,
  };
}

/** A reply that does not fit the protocol: the trial is errored (not retried: the same agent would answer the same). */
export class ProtocolError extends Error {}

/** The agent said it could not decide (`error` in its reply): an errored trial with its message. */
export class AgentError extends Error {}

/** Checks a parsed reply against the protocol; throws ProtocolError or AgentError. */
export function checkNeutralReply(body: unknown, source: string): void {
  const problem = findEndpointReplyProblem(body);
  if (problem !== null)
    throw new ProtocolError(
      `${source} does not fit route-eval-endpoint/1 (schemas/endpoint-reply.schema.json): ${problem}`,
    );
  const error = stringField(body, "error");
  if (error !== null) throw new AgentError(`${source} reported an error: ${error.slice(0, 500)}`);
}

/** A checked reply → EndpointResponse: `tool` (else the first of `calls`), its arguments, every call. */
export function normaliseNeutralReply(reply: WireReply): EndpointResponse | { error: string } {
  const body = reply.body;
  if (!isObject(body)) return { error: "the reply is not a JSON object" };
  const listed = Array.isArray(body.calls) ? body.calls : [];
  const calls: EndpointCall[] = listCalls(
    listed.map((c) => ({ name: field(c, "tool"), arguments: field(c, "arguments") })),
    "arguments",
  );
  const tool = body.tool === undefined ? (calls[0]?.tool ?? null) : stringField(body, "tool");
  const raw =
    body.arguments === undefined && calls[0]?.tool === tool
      ? field(listed[0], "arguments")
      : body.arguments;
  const parsed =
    tool === null ? { arguments: null, arguments_error: null } : parseArguments(raw ?? {});
  if (calls.length === 0 && tool !== null) calls.push({ tool, arguments: parsed.arguments });
  const usage = field(body, "usage");
  return {
    selected: tool,
    ...parsed,
    tool_calls: calls.length,
    ...(calls.length > 1 ? { calls } : {}),
    text: stringField(body, "text"),
    usage: {
      input_tokens: numberField(usage, "input_tokens"),
      output_tokens: numberField(usage, "output_tokens"),
    },
    latency_ms: numberField(body, "latency_ms") ?? reply.latency_ms,
    provider_request_id: reply.request_id,
  };
}

const replyValidator = lazy(() => compileSchemaFile<unknown>("endpoint-reply.schema.json"));

/** Why a `command` / `http` endpoint's reply does not fit schemas/endpoint-reply.schema.json ("path: message"), or null. */
function findEndpointReplyProblem(data: unknown): string | null {
  const validate = replyValidator();
  if (validate(data)) return null;
  return describeProblem(describeSchemaErrors(validate.errors ?? [], data));
}
