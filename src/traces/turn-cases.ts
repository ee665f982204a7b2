/**
 * Traced turns as in-memory routing cases, for asking them again (`route-eval shadow`): each
 * turn's goal and prior turns, its production system prompt, and the tools its model was offered
 * — each defined by the candidate's registry when it has a tool of that name (new descriptions),
 * else as the trace defined it. The label is production's own decision (there is no other):
 * acceptable is the tool production called (no_applicable_tool when it answered without a call),
 * so a shadow run's selection failure is a moved decision and `show` explains it like any other.
 * A candidate that offers skills or agents through a dispatcher tool (dispatch: tool) reads a
 * traced call of that dispatcher as the target it names, and is asked with its own targets.
 */
import {
  ABSTAIN,
  ASK,
  type Case,
  type Message,
  type Registry,
  type Tool,
  type TracedTool,
  type TracedTurn,
} from "../types.js";
import { sha256Hex, shortContentHash } from "../text/content-hash.js";
import { targetCalled, targetsBehind } from "../registry/targets.js";
import { orderOfTurns } from "./select-turns.js";
import { createBoundedMap } from "../text/bounded-map.js";

/** Why a traced turn cannot be asked again. */
export type SkipReason =
  "no reply traced" | "answers a tool result" | "no input messages" | "no tool list traced";

/** What production did on one turn, in the words of a moves table. */
export interface ProductionDecision {
  /** The first called tool, or NO_CALL. */
  label: string;
  /** Tools production offered. */
  offered: number;
  /** Tool calls production made in its reply. */
  calls: number;
}

const NONE = Object.freeze([]) as never[];
const NOTHING = Object.freeze({}) as Record<string, never>;
const SHADOW_TAGS = ["shadow"];

/** The label of an answer without a tool call. */
export const NO_CALL = "(no call)";

export interface TurnCases {
  cases: Case[];
  production: Map<string, ProductionDecision>;
  skipped: Partial<Record<SkipReason, number>>;
}

/**
 * Traced turns made into cases as they are read, so that a shadow of a day of traffic holds each
 * turn's case, not the turn (its parsed attributes, the tool definitions it was offered): `add`
 * each turn, then `finish` puts the cases in the order of the turns (compareTurns) and names them.
 */
export function createTurnCases(
  candidate: Registry | null,
  phase: string | null,
): { add(turn: TracedTurn): void; finish(): TurnCases } {
  const defined = new Map((candidate?.tools ?? []).map((tool) => [tool.name, tool]));
  const registries = new Map<string, Registry>();
  // dispatch: tool (docs/targets.md): a traced dispatcher (Skill, Task) is the candidate's targets
  // of its kind, and a traced call of it is the choice of the target its argument names — so a
  // skill's description change moves the skill chosen, not "Skill" against "Skill".
  const dispatch = candidate?.dispatch?.style === "tool" ? candidate.dispatch : null;
  const skipped: Partial<Record<SkipReason, number>> = {};
  // Each asked turn's place in the order (its time, trace and span, then its case's source), its
  // case (named by `finish`, from its place) and production's decision, at the same index of these
  // lists: a million turns make no object for each beyond its case.
  const times: (string | null)[] = [];
  const traceIds: (string | null)[] = [];
  const spanIds: (string | null)[] = [];
  const made: Case[] = [];
  const decided: ProductionDecision[] = [];
  /** Decisions alike are one object (a turn's is replaced, never changed, by the shadow's tally). */
  const decisions = new Map<string, ProductionDecision>();
  /** One `[label]` for every turn that called it. */
  const labels = new Map<string, string[]>();
  // A system prompt and a conversation's earlier messages come again in every later turn's span:
  // each held once (a day of traffic with a 4 KB prompt would otherwise hold it a million times).
  const systems = createInterner<string>((text) => text, 4 << 20);
  const messages = createInterner<Message>((message) => JSON.stringify(message), 16 << 20);
  /** A traced list read once and shared by the spans that sent the same text (trace-messages.ts): its registry, found once. */
  const byList = new WeakMap<readonly TracedTool[], Registry>();
  const registryOf = (turn: TracedTurn): Registry => {
    const tools = uniqueTools(turn).flatMap(
      (tool) => targetsBehind(candidate, tool.name) ?? [defined.get(tool.name) ?? tracedTool(tool)],
    );
    // Turns offered the same tools share one registry: found by the hash of their text as traced
    // (the content hash, for the revision, only for a list not met before).
    const key = sha256Hex(JSON.stringify(tools));
    let registry = registries.get(key);
    if (registry === undefined)
      registries.set(
        key,
        (registry = {
          snapshot: candidate?.snapshot ?? "traced",
          revision: candidate?.revision ?? `sha256:${shortContentHash(tools)}`,
          file: "",
          tools,
          ...(candidate?.dispatch === undefined ? {} : { dispatch: candidate.dispatch }),
        }),
      );
    byList.set(turn.tools, registry);
    return registry;
  };
  const add = (turn: TracedTurn) => {
    const reason = whyNot(turn);
    if (reason !== null) {
      skipped[reason] = (skipped[reason] ?? 0) + 1;
      return;
    }
    const last = turn.messages[turn.messages.length - 1];
    const registry = byList.get(turn.tools) ?? registryOf(turn);
    const tools = registry.tools;
    const first = turn.calls[0];
    const called =
      first === undefined
        ? null
        : ((dispatch === null ? null : targetCalled(dispatch, first.name, first.parsed)) ??
          first.name);
    // One object for the case's source and its place in the order.
    const source = { file: turn.source.file, line: turn.source.line };
    // An answer without a call is labelled abstention: a label is never empty (show explains the turn like any other).
    const label = called ?? ABSTAIN;
    let acceptable = labels.get(label);
    if (acceptable === undefined) labels.set(label, (acceptable = [label]));
    times.push(turn.time);
    traceIds.push(turn.trace_id);
    spanIds.push(turn.span_id);
    const decision = { label: called ?? NO_CALL, offered: tools.length, calls: turn.calls.length };
    const decisionKey = `${decision.offered} ${decision.calls} ${decision.label}`;
    let held = decisions.get(decisionKey);
    if (held === undefined) decisions.set(decisionKey, (held = Object.freeze(decision)));
    decided.push(held);
    // The lists and objects no turn writes are one each, shared (a day of traffic is a million turns).
    made.push({
      id: "",
      goal: last.role === "user" ? last.content : "",
      phase,
      acceptable,
      forbidden: NONE,
      family: null,
      tags: SHADOW_TAGS,
      args: NOTHING,
      context: NOTHING,
      messages: turn.messages.length > 1 ? turn.messages.slice(0, -1).map(messages) : NONE,
      must_see: NONE,
      must_not_see: NONE,
      source,
      registry,
      // As traced: a turn that had no system prompt is asked without one (never with the run's).
      system: systems(turn.system ?? ""),
      ...tracedChoice(turn),
    });
  };
  const finish = (): TurnCases => {
    const production = new Map<string, ProductionDecision>();
    const cases: Case[] = [];
    const order = made
      .map((_, i) => i)
      .sort(
        orderOfTurns<number>({
          time: (i) => times[i],
          trace_id: (i) => traceIds[i],
          span_id: (i) => spanIds[i],
          source: (i) => made[i].source,
        }),
      );
    // Let the times and trace ids go before the map of a million ids is made.
    times.length = traceIds.length = 0;
    for (const i of order) {
      const asked = made[i];
      // Production's map is the ids taken so far (no set of a million ids beside it).
      asked.id = uniqueId(idBase(spanIds[i], asked.source), production);
      production.set(asked.id, decided[i]);
      cases.push(asked);
    }
    spanIds.length = made.length = decided.length = 0;
    return { cases, production, skipped };
  };
  return { add, finish };
}

/** Distinct values an interner remembers in each of its two generations (text/bounded-map.ts). */
const INTERNED = 20_000;

/**
 * The first value seen of each key among the recent ones — at most INTERNED, and at most `chars`
 * of their keys' text, in each of two generations (a key is the value's text, so a value weighs
 * about twice its key). Values are never changed once made, so sharing them is safe.
 */
function createInterner<T>(keyOf: (value: T) => string, chars: number): (value: T) => T {
  const seen = createBoundedMap<string, T>(INTERNED, chars);
  return (value) => {
    const key = keyOf(value);
    const known = seen.get(key);
    if (known !== undefined) return known;
    seen.set(key, value, key.length);
    return value;
  };
}

/**
 * The traced tool_choice as a case's: auto, required, none or the forced tool's name (OpenAI's
 * `{type: "function", function: {name}}`, Anthropic's `{type: "tool", name}` and `{type: "any"}`).
 * Nothing when the trace did not say (the provider's default, auto).
 */
function tracedChoice(turn: TracedTurn): { tool_choice?: string } {
  if (turn.tool_choice.provenance !== "traced") return {};
  const value = turn.tool_choice.value;
  if (typeof value === "string") return { tool_choice: value === "any" ? "required" : value };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  const fn = value.function;
  const name = typeof fn === "object" && fn !== null && !Array.isArray(fn) ? fn.name : value.name;
  if (typeof name === "string" && name !== "") return { tool_choice: name };
  const type = value.type;
  if (type === "any") return { tool_choice: "required" };
  return typeof type === "string" && ["auto", "none", "required"].includes(type)
    ? { tool_choice: type }
    : {};
}

function whyNot(turn: TracedTurn): SkipReason | null {
  if (!turn.replied) return "no reply traced";
  // Asked with nothing but the controls, every such turn would read as moved.
  if (turn.tools.length === 0) return "no tool list traced";
  const last = turn.messages[turn.messages.length - 1];
  if (last === undefined) return "no input messages";
  return last.role === "user" ? null : "answers a tool result";
}

function uniqueTools(turn: TracedTurn): TracedTurn["tools"] {
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
function idBase(span_id: string | null, source: Case["source"]): string {
  return `turn-${(span_id ?? `${source.file.replace(/^.*[\\/]/, "")}-${source.line}`).replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 64)}`;
}

function uniqueId(base: string, taken: ReadonlyMap<string, unknown>): string {
  let id = base;
  for (let n = 2; taken.has(id); n += 1) id = `${base}-${n}`;
  return id;
}

/** How a candidate decision reads in the moves table: a question, an abstention, no call, or the tool. */
export function describeChoice(selected: string | null): string {
  if (selected === null) return NO_CALL;
  if (selected === ASK) return `${ASK} (question)`;
  if (selected === ABSTAIN) return `${ABSTAIN} (abstain)`;
  return selected;
}
