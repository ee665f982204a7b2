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

export interface Tool {
  name: string;
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

/** A registry snapshot: everything that exists. `tools` holds ordinary tools only. */
export interface Registry {
  snapshot: string;
  revision: string;
  /** Absolute path of the snapshot file ("" when built in memory). */
  file: string;
  tools: Tool[];
}

/** What the model sees for one tool. */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: JsonObject;
}
