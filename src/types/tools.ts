/** Tools and registries: part of the records of route-eval (see ../types.ts). */
import type { JsonObject } from "./json.js";

/** Ordered effect levels: none < read_only < mutating < destructive. */
export const EFFECTS = ["none", "read_only", "mutating", "destructive"] as const;
export type Effect = (typeof EFFECTS)[number];

/** Runtime-owned pseudo-tools. Trusted, always visible, never count against k. */
export const CONTROL_NAMES = ["ask_user", "wait_for_event", "no_applicable_tool"] as const;
export type ControlName = (typeof CONTROL_NAMES)[number];
export const CONTROL_FAMILY = "control";
export const ABSTAIN: ControlName = "no_applicable_tool";

const CONTROL_SET: ReadonlySet<string> = new Set(CONTROL_NAMES);

/** Whether `name` is one of the trusted controls (by name: a registry cannot add one). */
export function isControl(name: string): name is ControlName {
  return CONTROL_SET.has(name);
}
export const ASK: ControlName = "ask_user";

/**
 * What a registry entry is (docs/targets.md): a function (`tool`), or a routing target of another
 * kind — a `skill` to load, an `agent` to hand the task to — or a `server`, a group of tools.
 */
export const TARGET_KINDS = ["tool", "skill", "agent", "server"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** The kinds a dispatcher tool can offer (dispatch: tool). */
export type DispatchedKind = "skill" | "agent";

export interface Tool {
  name: string;
  /** Absent for an ordinary tool. */
  kind?: DispatchedKind;
  family: string;
  purpose: string;
  use_when: string[];
  avoid_when: string[];
  input_schema?: JsonObject;
  output_schema?: JsonObject;
  effect: Effect;
  idempotent: boolean;
  open_world: boolean;
}

/** A server of the registry: a named group of its tools (they are offered as functions, each by its name). */
export interface ServerGroup {
  name: string;
  purpose: string;
  tools: string[];
}

/** An agent's own tools: offered only once the task is handed to it (a hierarchical case's second decision). */
export interface AgentTools {
  /** The agent's instructions, its system prompt in the second decision (default: its purpose). */
  instructions: string;
  /** Names of tools of the registry's `tools`. */
  tools: string[];
}

/** The dispatcher tool that offers one kind of target (dispatch: tool): its name and the argument naming the target. */
export interface Dispatcher {
  name: string;
  argument: string;
}

/**
 * How skills and agents are offered: `functions` — one function per target, by its name (as
 * handoffs are); `tool` — one dispatcher tool per kind whose enum argument names the target (as a
 * Skill or Task tool does), the targets listed in its description.
 */
export interface Dispatch {
  style: "functions" | "tool";
  skill: Dispatcher;
  agent: Dispatcher;
}

/** A registry snapshot: everything that exists. `tools` holds what a decision may be offered (no controls). */
export interface Registry {
  snapshot: string;
  revision: string;
  /** Absolute path of the snapshot file ("" when built in memory). */
  file: string;
  /** Every tool, skill and agent (no server entry, no control); an agent's own tools are offered only inside it (registry/targets.ts). */
  tools: Tool[];
  /** The servers, each a group of tools of `tools`; absent when the registry has none. */
  servers?: ServerGroup[];
  /** Each agent's own tools, by agent name; absent when no agent has tools. */
  agents?: ReadonlyMap<string, AgentTools>;
  /** How skills and agents are offered; absent: functions. */
  dispatch?: Dispatch;
}

/** What the model sees for one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonObject;
}
