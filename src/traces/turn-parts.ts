/**
 * How a traced turn reads as a routing case's parts (route-eval shadow, traces/turn-cases.ts): whether
 * it can be asked again, its tool_choice, its offered tools as tools, and its case id.
 */
import type { Case, Tool, TracedTurn } from "../types.js";

/** Why a traced turn cannot be asked again. */
export type SkipReason =
  "no reply traced" | "answers a tool result" | "no input messages" | "no tool list traced";

/**
 * The traced tool_choice as a case's: auto, required, none or the forced tool's name (OpenAI's
 * `{type: "function", function: {name}}`, Anthropic's `{type: "tool", name}` and `{type: "any"}`).
 * Null when the trace did not say (the provider's default, auto).
 */
export function tracedChoice(turn: TracedTurn): string | null {
  if (turn.tool_choice.provenance !== "traced") return null;
  const value = turn.tool_choice.value;
  if (typeof value === "string") return value === "any" ? "required" : value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const fn = value.function;
  const name = typeof fn === "object" && fn !== null && !Array.isArray(fn) ? fn.name : value.name;
  if (typeof name === "string" && name !== "") return name;
  const type = value.type;
  if (type === "any") return "required";
  return typeof type === "string" && ["auto", "none", "required"].includes(type) ? type : null;
}

export function whyNot(turn: TracedTurn): SkipReason | null {
  if (!turn.replied) return "no reply traced";
  // Asked with nothing but the controls, every such turn would read as moved.
  if (turn.tools.length === 0) return "no tool list traced";
  const last = turn.messages[turn.messages.length - 1];
  if (last === undefined) return "no input messages";
  return last.role === "user" ? null : "answers a tool result";
}

export function uniqueTools(turn: TracedTurn): TracedTurn["tools"] {
  const seen = new Set<string>();
  return turn.tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name) !== undefined);
}

/** A traced definition as a tool: its description whole as the purpose (rendered as it was), its schema if it had one. */
export function tracedTool(tool: TracedTurn["tools"][number]): Tool {
  return {
    name: tool.name,
    family: "traced",
    purpose: tool.description ?? tool.name,
    use_when: [],
    avoid_when: [],
    ...(tool.input_schema === undefined ? {} : { input_schema: tool.input_schema }),
    effect: "destructive",
    idempotent: false,
    open_world: true,
  };
}

/** `turn-<span id>` (or the file and line of a turn without one), as a case id may be written. */
export function idBase(span_id: string | null, source: Case["source"]): string {
  return `turn-${(span_id ?? `${source.file.replace(/^.*[\\/]/, "")}-${source.line}`).replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 64)}`;
}
