/** Cases: part of the records of route-eval (see ../types.ts). */
import type { JsonObject, JsonValue } from "./json.js";
import type { Registry } from "./tools.js";

/** An expectation on one argument: an exact JSON value, or a regular expression on its string form. */
export type ArgExpectation = JsonValue | { pattern: string };

export interface ToolCall {
  id: string;
  name: string;
  arguments: JsonObject;
}

/** A provider-neutral prior turn. */
export type Message =
  | { role: "user"; content: string }
  | { role: "assistant"; content?: string; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; name?: string; content: string };

export interface Case {
  id: string;
  goal: string;
  phase: string | null;
  acceptable: string[];
  forbidden: string[];
  family: string | null;
  tags: string[];
  /** tool name → argument name → expectation. */
  args: Record<string, Record<string, ArgExpectation>>;
  context: JsonObject;
  messages: Message[];
  must_see: string[];
  must_not_see: string[];
  /** Where the case was written: absolute file path and 1-based line. */
  source: { file: string; line: number };
  registry: Registry;
  /** The case's own system prompt, instead of the run's (a frozen production turn keeps the one it was asked with). */
  system?: string;
  /** What is still to be written (route-eval freeze leaves acceptable empty): lint reports it, run refuses the case. */
  todo?: string;
  /** One turn of a conversation case (its id is `<conversation>@<turn>`); absent for a single decision. */
  turn?: ConversationTurn;
  /** What asking a turn on-policy needs beyond its gold history (not recorded). */
  plan?: TurnPlan;
  /** The calls expected instead of one acceptable tool (`calls:`); `acceptable` then lists every tool they name. */
  call_set?: CallSetSpec;
  /** How this case offers its registry's skills and agents, over the registry's `dispatch:` (docs/targets.md). */
  dispatch?: "functions" | "tool";
  /** A hierarchical acceptable (`target > tool`): `acceptable` then lists the agents (by agent) or the tools (by server). */
  hierarchy?: { by: "agent" | "server"; paths: [string, string][] };
  /** The agent loop's bound within the decision (`max_steps:`, default 1: one reply is judged). */
  max_steps?: number;
  /** The decision's earlier steps after the goal (the model's calls and their results), sent after it. */
  prior_steps?: Message[];
  /** The case's own parallel_tool_calls control (false: one call per reply), over the run's. */
  parallel_tool_calls?: boolean;
  /** The case's own tool_choice over the run's (set by shadow from the traced turn). */
  tool_choice?: string;
  /** What each call made during the decision's steps returns (`results:`), first match first. */
  results?: StubResult[];
}

/** One expected call of a call set: any of its tools, with the arguments `args` expects (none: any). */
export interface ExpectedCall {
  tools: string[];
  args?: Record<string, ArgExpectation>;
}

/** A decision's expected calls (docs/call-sets.md). */
export interface CallSetSpec {
  expected: ExpectedCall[];
  /** any: a set, in whatever order (parallel calls); sequence: the order matters. */
  order: "any" | "sequence";
  /** Tools that may also be called without penalty (read-only look-ups). */
  allow_extra: string[];
}

/** What a call of `tool` returns during the decision's steps, when its arguments match `args` (none: any). */
export interface StubResult {
  tool: string;
  args?: Record<string, ArgExpectation>;
  result: JsonValue;
}

/** A conversation turn's parts for on-policy asking: the history is built from the model's own earlier calls. */
export interface TurnPlan {
  /** The conversation's own prior messages (before its first turn). */
  prior: Message[];
  /** This turn's user message. */
  user: string;
  /** The result its expected call returns to later turns. */
  result: JsonValue;
  /** Stub results, by tool name, for calls off the gold path. */
  results: Record<string, JsonValue>;
}

/**
 * One turn of a conversation case, asked teacher-forced: the gold history of the turns before it
 * (in `messages`) and its own tool surface — the phase's exposure, then the tools the
 * conversation adds and removes up to this turn, and the tools it adds only later (withheld).
 */
export interface ConversationTurn {
  /** The conversation case's id. */
  conversation: string;
  /** 1-based. */
  index: number;
  /** The conversation's number of turns. */
  of: number;
  /** Tools added by this turn or an earlier one (exposed whatever the phase says), still in effect. */
  added: string[];
  /** Tools removed by this turn or an earlier one, still in effect. */
  removed: string[];
  /** Tools a later turn adds: hidden until then. */
  withheld: string[];
  /** Tools this very turn adds: a selection failure on one of them is an exposure lag. */
  added_now: string[];
  /** Present when asked on-policy: the history was the model's own earlier replies. */
  mode?: "on-policy";
  /** On-policy: tools the model called at earlier turns that the case gives no result for (they returned an error result). */
  unstubbed?: string[];
}

/** The goal prefix that marks a case as not written yet (lint: case-todo-goal). */
export const TODO = "TODO:";
