/**
 * Routing targets (docs/targets.md): which entries a decision is offered at the top level, which
 * server groups a tool, and the dispatcher tool that offers skills or agents by an enum argument
 * (dispatch: tool) — rendered here, read back from the call in trial/dispatch-endpoint.ts.
 */
import type {
  Dispatch,
  Dispatcher,
  DispatchedKind,
  JsonObject,
  JsonValue,
  Registry,
  Tool,
  ToolDefinition,
} from "../types.js";

/** The Agent Skills specification's limit on a skill's description (agentskills.io/specification). */
export const SKILL_DESCRIPTION_LIMIT = 1024;

const offered = new WeakMap<Registry, Tool[]>();

/** The entries a decision is offered at the top level: every tool, skill and agent but an agent's own tools. */
export function offeredTools(registry: Registry): Tool[] {
  if (registry.agents === undefined) return registry.tools;
  let tools = offered.get(registry);
  if (tools === undefined) {
    const owned = new Set([...registry.agents.values()].flatMap((agent) => agent.tools));
    offered.set(registry, (tools = registry.tools.filter((tool) => !owned.has(tool.name))));
  }
  return tools;
}

/** The server that groups `tool`, or null (the first, when several do). */
export function serverOf(registry: Registry, tool: string): string | null {
  return registry.servers?.find((server) => server.tools.includes(tool))?.name ?? null;
}

/** The kind a tool of this name dispatches (it is that kind's dispatcher), or undefined. */
export function dispatchedKind(
  dispatch: Dispatch,
  name: string | null,
): DispatchedKind | undefined {
  return (["skill", "agent"] as const).find((kind) => dispatch[kind].name === name);
}

/**
 * The target a call of a dispatcher names in its argument, or null when `name` is no dispatcher
 * or the call names none (then it stays a call of the dispatcher, a name never offered).
 */
export function targetCalled(
  dispatch: Dispatch,
  name: string | null,
  args: JsonValue,
): string | null {
  const kind = dispatchedKind(dispatch, name);
  if (kind === undefined || typeof args !== "object" || args === null || Array.isArray(args))
    return null;
  const named = args[dispatch[kind].argument];
  return typeof named === "string" && named !== "" ? named : null;
}

/**
 * A registry that dispatches through a tool of this name (dispatch: tool): its targets of that
 * kind, which a traced dispatcher stands for (shadow asks them, freeze writes them); else null.
 */
export function targetsBehind(registry: Registry | null, name: string): Tool[] | null {
  const dispatch = registry?.dispatch;
  if (registry === null || dispatch?.style !== "tool") return null;
  const kind = dispatchedKind(dispatch, name);
  const targets = registry.tools.filter((tool) => kind !== undefined && tool.kind === kind);
  return targets.length === 0 ? null : targets;
}

/** What the dispatcher of each kind says before its listing. */
const LEAD: Record<DispatchedKind, { does: string; listed: string }> = {
  skill: {
    does: "Load a skill: its instructions and resources for the task at hand.",
    listed: "Available skills",
  },
  agent: {
    does: "Hand the task to a sub-agent, which works on it with its own tools and instructions.",
    listed: "Available agents",
  },
};

/**
 * The one tool that offers the visible targets of a kind (in their order): its description lists
 * each as `- name: description` (one line), its argument is an enum of their names. Every endpoint
 * (the baseline included) sees exactly this.
 */
export function renderDispatcher(
  kind: DispatchedKind,
  dispatcher: Dispatcher,
  targets: ToolDefinition[],
): ToolDefinition {
  const listing = targets.map((t) => `- ${t.name}: ${t.description.replace(/\s*\n\s*/g, " ")}`);
  const properties: JsonObject = {
    [dispatcher.argument]: {
      type: "string",
      enum: targets.map((t) => t.name),
      description: `The ${kind} to ${kind === "skill" ? "load" : "hand the task to"}, by name.`,
    },
  };
  if (kind === "agent")
    properties.prompt = {
      type: "string",
      description: "The task, as the sub-agent should read it.",
    };
  return {
    name: dispatcher.name,
    description: [LEAD[kind].does, "", `${LEAD[kind].listed}:`, ...listing].join("\n"),
    input_schema: {
      type: "object",
      properties,
      required: [dispatcher.argument],
      additionalProperties: false,
    },
  };
}

/** A dispatcher's listed targets read back from what a model sees: name → description (the baseline routes on them). */
export function readListing(definition: ToolDefinition): Map<string, string> | null {
  const schema = definition.input_schema;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const properties = schema.properties;
  if (required.length !== 1 || typeof properties !== "object" || properties === null) return null;
  const argument = (properties as JsonObject)[String(required[0])];
  if (typeof argument !== "object" || argument === null || Array.isArray(argument)) return null;
  const names = argument.enum;
  if (!Array.isArray(names)) return null;
  const listed = new Map<string, string>();
  for (const line of definition.description.split("\n")) {
    const match = /^- ([^:\s]+): (.*)$/.exec(line);
    if (match !== null && names.includes(match[1])) listed.set(match[1], match[2]);
  }
  return listed.size === 0 ? null : listed;
}
