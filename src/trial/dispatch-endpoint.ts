/**
 * dispatch: tool (docs/targets.md). The request's skills and agents are offered as one dispatcher
 * tool per kind (registry/targets.ts renders it), and the target a call names in the dispatcher's
 * argument is read back as the call's tool: the record, the ladder and every report see targets,
 * never the dispatcher. The store keys the request as sent (with the dispatcher).
 */
import { DEFAULT_DISPATCH } from "../registry/parse-registry.js";
import { renderDispatcher, targetCalled } from "../registry/targets.js";
import type {
  Dispatch,
  DispatchedKind,
  Endpoint,
  EndpointOutcome,
  JsonValue,
  Message,
  Registry,
  ToolDefinition,
  TrialRequest,
} from "../types.js";

interface DispatchPlan {
  dispatch: Dispatch;
  /** Each dispatched target's kind, by name. */
  kinds: ReadonlyMap<string, DispatchedKind>;
}

/** How the registry's skills and agents would be folded into dispatchers (its own, else the defaults), or null when it has none. */
export function dispatchPlanOf(registry: Registry): DispatchPlan | null {
  const kinds = new Map<string, DispatchedKind>();
  for (const tool of registry.tools) if (tool.kind !== undefined) kinds.set(tool.name, tool.kind);
  return kinds.size === 0 ? null : { dispatch: registry.dispatch ?? DEFAULT_DISPATCH, kinds };
}

/** The endpoint, asked with dispatchers in place of the targets and answered with the targets they named. */
export function dispatching(endpoint: Endpoint, plan: DispatchPlan): Endpoint {
  return {
    ...endpoint,
    call: async (request) => readTargets(await endpoint.call(offerTargets(request, plan)), plan),
  };
}

/** The request as the model sees it: each kind's targets folded into its dispatcher, where the first of them stood. */
function offerTargets(request: TrialRequest, plan: DispatchPlan): TrialRequest {
  const groups = new Map<DispatchedKind, ToolDefinition[]>();
  const tools: (ToolDefinition | DispatchedKind)[] = [];
  for (const tool of request.tools) {
    const kind = plan.kinds.get(tool.name);
    if (kind === undefined) {
      tools.push(tool);
      continue;
    }
    let group = groups.get(kind);
    if (group === undefined) {
      groups.set(kind, (group = []));
      tools.push(kind);
    }
    group.push(tool);
  }
  if (groups.size === 0) return request;
  const after_goal = request.after_goal?.map((m) => callsAsDispatched(m, plan));
  return {
    ...request,
    tools: tools.map((tool) =>
      typeof tool === "string"
        ? renderDispatcher(tool, plan.dispatch[tool], groups.get(tool) ?? [])
        : tool,
    ),
    ...(after_goal === undefined ? {} : { after_goal }),
  };
}

/** An agent loop's earlier call of a target, as the model made it: a call of the dispatcher. */
function callsAsDispatched(message: Message, plan: DispatchPlan): Message {
  if (message.role !== "assistant" || message.tool_calls === undefined) return message;
  return {
    ...message,
    tool_calls: message.tool_calls.map((call) => {
      const kind = plan.kinds.get(call.name);
      if (kind === undefined) return call;
      const { name, argument } = plan.dispatch[kind];
      return { ...call, name, arguments: { [argument]: call.name } };
    }),
  };
}

/** The reply with each dispatcher call read as a call of the target its argument names. */
function readTargets(outcome: EndpointOutcome, plan: DispatchPlan): EndpointOutcome {
  if (!outcome.ok) return outcome;
  const response = outcome.response;
  const first = readCall({ tool: response.selected, arguments: response.arguments }, plan);
  if (first === null) return outcome;
  return {
    ...outcome,
    response: {
      ...response,
      selected: first.tool,
      arguments: first.arguments,
      ...(response.calls === undefined
        ? {}
        : {
            calls: response.calls.map((call) => {
              const read = readCall(call, plan);
              return read ?? call;
            }),
          }),
    },
  };
}

/** A dispatcher call read as a call of the target it names (no arguments: the dispatcher's others are its own), else null. */
function readCall(
  call: { tool: string | null; arguments: JsonValue },
  plan: DispatchPlan,
): { tool: string; arguments: JsonValue } | null {
  const named = targetCalled(plan.dispatch, call.tool, call.arguments);
  return named === null ? null : { tool: named, arguments: {} };
}
