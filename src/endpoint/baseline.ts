import {
  ABSTAIN,
  SEARCH_TOOL,
  type Endpoint,
  type EndpointOutcome,
  type JsonObject,
  type JsonValue,
  type ToolDefinition,
  type TrialRequest,
  isControl,
} from "../types.js";
import { tokenize } from "../text/tokenize.js";
import { readListing } from "../registry/targets.js";

/**
 * The `baseline` endpoint: a deterministic lexical router, not a model. It reads only what a model
 * would see (the goal and each visible tool's rendered definition), scores every ordinary tool by
 * word overlap — name words ×3, purpose ×2, "Use when" ×1, "Avoid when" ×−1.5 — picks the best
 * (ties by name), and abstains with `no_applicable_tool` when no tool scores BASELINE_THRESHOLD.
 * It fills string arguments it can read off the goal (ids, emails). It is the floor a model must beat.
 * In an agent loop (max_steps), once a tool has answered its call it answers "Done." in text.
 * A dispatcher tool (docs/targets.md) is scored through the targets its description lists, each
 * as if it were a tool; the best is called through the dispatcher's argument.
 * With tool search (a `search_tools` function offered), when no loaded tool scores the threshold
 * and it has not searched yet, it searches once for the goal's words (joined by "|" for a regex
 * search), then routes among what is loaded.
 */
export const BASELINE_THRESHOLD = 3;
const WEIGHTS = { name: 3, purpose: 2, use: 1, avoid: -1.5 } as const;

export function createBaselineEndpoint(): Endpoint {
  return { id: "baseline", model: "lexical-v1", call: async (request) => routeLexically(request) };
}

export function routeLexically(request: TrialRequest): EndpointOutcome {
  const started = performance.now();
  // An agent loop's next step: a tool answered its call, so the baseline is done (it calls once).
  const last = request.after_goal?.at(-1);
  if (last?.role === "tool" && last.name !== SEARCH_TOOL) return done(started);
  const goal = new Set(tokenize(request.goal));
  let best: { tool: ToolDefinition; score: number; via?: ToolDefinition } | null = null;
  for (const tool of request.tools) {
    if (isControl(tool.name) || tool.name === SEARCH_TOOL) continue;
    // A dispatcher (docs/targets.md) is routed on through the targets its description lists.
    const listing = readListing(tool);
    const options: { tool: ToolDefinition; via?: ToolDefinition }[] =
      listing === null
        ? [{ tool }]
        : [...listing].map(([name, description]) => ({
            tool: { name, description, input_schema: {} },
            via: tool,
          }));
    for (const option of options) {
      const score = scoreTool(option.tool, goal);
      if (
        best === null ||
        score > best.score ||
        (score === best.score && option.tool.name < best.tool.name)
      )
        best = { ...option, score };
    }
  }
  if (best?.via !== undefined && best.score >= BASELINE_THRESHOLD)
    return answer(best.via.name, dispatchArguments(best.via, best.tool.name), started);
  const searched = (request.after_goal ?? []).some((m) => m.role === "assistant");
  if (
    (best === null || best.score < BASELINE_THRESHOLD) &&
    !searched &&
    request.tools.some((t) => t.name === SEARCH_TOOL)
  ) {
    const words = [...goal];
    return answer(
      SEARCH_TOOL,
      { query: request.search?.kind === "regex" ? words.join("|") : words.join(" ") },
      started,
    );
  }
  const canAbstain = request.tools.some((t) => t.name === ABSTAIN);
  const chosen = best !== null && best.score >= BASELINE_THRESHOLD ? best.tool : null;
  const selected = chosen?.name ?? (canAbstain ? ABSTAIN : null);
  const args: JsonValue =
    chosen === null
      ? canAbstain
        ? { reason: "no listed tool matches the request" }
        : null
      : fillArguments(chosen.input_schema, request.goal);
  return {
    ok: true,
    response: {
      selected,
      arguments: args,
      arguments_error: null,
      tool_calls: selected === null ? 0 : 1,
      text: selected === null ? "No listed tool matches the request." : null,
      usage: { input_tokens: null, output_tokens: null },
      latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
    },
  };
}

function done(started: number): EndpointOutcome {
  const response = {
    selected: null,
    arguments: null,
    arguments_error: null,
    tool_calls: 0,
    text: "Done.",
    usage: { input_tokens: null, output_tokens: null },
    latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
  return { ok: true, response };
}

function answer(tool: string, args: JsonObject, started: number): EndpointOutcome {
  const response = {
    selected: tool,
    arguments: args,
    arguments_error: null,
    tool_calls: 1,
    text: null,
    usage: { input_tokens: null, output_tokens: null },
    latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
  };
  return { ok: true, response };
}

/** A dispatcher call naming the target: its one required argument. */
function dispatchArguments(dispatcher: ToolDefinition, target: string): JsonObject {
  const required = dispatcher.input_schema.required;
  return Array.isArray(required) ? { [String(required[0])]: target } : {};
}

function scoreTool(tool: ToolDefinition, goal: Set<string>): number {
  const [name, purpose, use, avoid] = wordsOf(tool);
  return (
    WEIGHTS.name * overlap(name, goal) +
    WEIGHTS.purpose * overlap(purpose, goal) +
    WEIGHTS.use * overlap(use, goal) +
    WEIGHTS.avoid * overlap(avoid, goal)
  );
}

/** A definition's distinct words: its name's, its purpose's, its use_when's, its avoid_when's. */
function wordsOf(tool: ToolDefinition): Set<string>[] {
  let words = toolWords.get(tool);
  if (words === undefined) {
    const [purpose, use, avoid] = splitDescription(tool.description);
    words = [tool.name, purpose, use, avoid].map((text) => new Set(tokenize(text)));
    toolWords.set(tool, words);
  }
  return words;
}

/** By definition: the trials of a phase or a registry share theirs (a definition is never changed). */
const toolWords = new WeakMap<ToolDefinition, Set<string>[]>();

/** Distinct goal words among the words. */
function overlap(words: Set<string>, goal: Set<string>): number {
  let hits = 0;
  for (const word of words) if (goal.has(word)) hits += 1;
  return hits;
}

function splitDescription(description: string): [string, string, string] {
  const parts = { purpose: [] as string[], use: [] as string[], avoid: [] as string[] };
  for (const line of description.split("\n")) {
    if (line.startsWith("Use when:")) parts.use.push(line.slice(9));
    else if (line.startsWith("Avoid when:")) parts.avoid.push(line.slice(11));
    else parts.purpose.push(line);
  }
  return [parts.purpose.join(" "), parts.use.join(" "), parts.avoid.join(" ")];
}

const WORD_PATTERN = /[\w.+@-]+/g;
const EMAIL_PATTERN = /^[\w.+-]+@[\w-]+\.[\w.]+$/;

/**
 * String properties the goal answers literally: a goal word that matches the property's `pattern`
 * (or, for `*_id` without one, an id-like word; for `*email*`, an address), or an `enum` value
 * the goal names. Everything else is left out, as a router that cannot read would.
 */
function fillArguments(schema: JsonObject, goal: string): JsonObject {
  const out: JsonObject = {};
  const properties = schema.properties;
  if (properties === null || typeof properties !== "object" || Array.isArray(properties))
    return out;
  const words = (goal.match(WORD_PATTERN) ?? []).map((w) => w.replace(/[.,;:!?]+$/, ""));
  for (const [name, property] of Object.entries(properties)) {
    if (property === null || typeof property !== "object" || Array.isArray(property)) continue;
    const value = fillOne(name, property, words, goal.toLowerCase());
    if (value !== null) out[name] = value;
  }
  return out;
}

function fillOne(name: string, property: JsonObject, words: string[], goal: string): string | null {
  if (Array.isArray(property.enum)) {
    const hit = property.enum.find(
      (v) => typeof v === "string" && goal.includes(v.toLowerCase().replace(/_/g, " ")),
    );
    return typeof hit === "string" ? hit : null;
  }
  const test = matcherFor(name, property);
  return test === null ? null : (words.find(test) ?? null);
}

function matcherFor(name: string, property: JsonObject): ((word: string) => boolean) | null {
  if (typeof property.pattern === "string") {
    const re = safeRegExp(property.pattern);
    return re === null ? null : (word) => re.test(word);
  }
  if (name.includes("email")) return (word) => EMAIL_PATTERN.test(word);
  if (name.endsWith("_id")) return (word) => /^[a-z]{2,6}_[A-Za-z0-9]+$/.test(word);
  return null;
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, "u");
  } catch {
    return null;
  }
}
