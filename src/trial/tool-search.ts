/**
 * A decision with tool search on (docs/tool-search.md). The visible ordinary tools are split into
 * the always-loaded ones and the deferred ones; the model is asked with the loaded tools and a
 * way to search the deferred ones:
 *
 *  - client: route-eval answers each search — the model calls `search_tools(query)` (or the
 *    provider's client-executed form: OpenAI's tool_search_call, Anthropic's tool_reference
 *    results), route-eval runs the searcher, loads what it returned and asks again — until the
 *    model makes a non-search move, or asks for a search past tool_search.max_searches
 *    (outcome "search_limit", no call);
 *  - provider: the provider runs its own search inside the call (OpenAI hosted tool_search,
 *    Anthropic's tool-search server tools); the endpoint reads the searches from the reply.
 *
 * Each call goes through the endpoint like any other (response store, retries), so a second run
 * is free and a replay is exact. The record's visible set is what was loaded: the ladder's
 * discovery rung fails when no acceptable tool ever was, and selection is judged among the loaded.
 */
import { definitionTokens } from "../endpoint/estimate-tokens.js";
import type { ToolSearcher } from "../discovery/tool-searcher.js";
import { isControl, SEARCH_TOOL } from "../types.js";
import { providerOf } from "../types/providers.js";
import type {
  Case,
  Discovery,
  EndpointCall,
  JsonObject,
  EndpointOutcome,
  EndpointResponse,
  Exposure,
  JsonValue,
  Message,
  SearchOffer,
  SearchRecord,
  SearchStep,
  Tool,
  ToolDefinition,
  TrialRequest,
} from "../types.js";
import { definitionsOf, recordAnswer, requestOf, type AskContext } from "./trial-request.js";
import type { TrialResult } from "./run-loop.js";
import { lazy } from "../text/lazy.js";
import { addCall, newTotals, withTotals } from "./call-totals.js";
import { callsOf } from "../classify/call-set.js";

/** The loaded and deferred parts of a visible set. */
export interface SearchSurface {
  /** Always-loaded ordinary tools, in visible order. */
  always: string[];
  /** Controls, in visible order (never deferred). */
  controls: string[];
  /** Deferred ordinary tools, in visible order. */
  deferred: string[];
  /** The family of each deferred tool (for namespaces). */
  families: Map<string, string>;
}

/** Splits the visible ordinary tools by tool_search.always_loaded (names, or family:NAME). */
export function splitSurface(
  visible: string[],
  alwaysLoaded: readonly string[],
  tools: ReadonlyMap<string, Tool>,
): SearchSurface {
  const families = new Set(
    alwaysLoaded
      .filter((entry) => entry.startsWith("family:"))
      .map((entry) => entry.slice("family:".length)),
  );
  const names = new Set(alwaysLoaded);
  const surface: SearchSurface = { always: [], controls: [], deferred: [], families: new Map() };
  for (const name of visible) {
    const family = tools.get(name)?.family ?? "";
    if (isControl(name)) surface.controls.push(name);
    else if (names.has(name) || families.has(family)) surface.always.push(name);
    else {
      surface.deferred.push(name);
      surface.families.set(name, family);
    }
  }
  return surface;
}

/** route-eval's search function, as every endpoint without a native client form is offered it. */
export function searchToolDefinition(
  kind: "bm25" | "regex" | "embeddings",
  k: number,
): ToolDefinition {
  const query =
    kind === "regex"
      ? "A regular expression (RE2 syntax, case-insensitive, at most 200 characters) matched against tool names, descriptions and argument names."
      : "Words describing the capability you need.";
  return {
    name: SEARCH_TOOL,
    description: `Search the tools that are not loaded yet. Returns up to ${k} matching tools (name and description); each one returned can be called from then on. Call it when none of the loaded tools fits the request.`,
    input_schema: {
      type: "object",
      properties: { query: { type: "string", description: query } },
      required: ["query"],
      additionalProperties: false,
    },
  };
}

export interface SearchTrial {
  testCase: Case;
  trial: number;
  /** The sampling seed (default: from run seed, case and trial); counterfactuals draw their own. */
  seed?: number;
  exposure: Exposure;
  /** The visible set the search works over (exposed, or a sweep's). */
  discovery: Discovery;
  surface: SearchSurface;
  searcher: ToolSearcher;
  /** The search function's definition (client mode). */
  searchTool: ToolDefinition;
}

/**
 * What every decision over one surface shares, made once: the definitions of the fixed and the
 * deferred tools, the first ask's tool list, the unsearched estimate. Shared objects are hashed
 * once by the store key's canonical writer (it remembers them by identity), so a decision's cost
 * does not grow with the deferred catalogue.
 */
interface SurfaceParts {
  fixed: ToolDefinition[];
  deferred: ToolDefinition[];
  deferredSet: ReadonlySet<string>;
  opening: ToolDefinition[];
  unsearched: number;
  namespaces: NonNullable<SearchOffer["namespaces"]>;
}

const surfaceParts = new WeakMap<
  SearchSurface,
  WeakMap<ReadonlyMap<string, ToolDefinition>, SurfaceParts>
>();

function partsOf(
  surface: SearchSurface,
  definitions: ReadonlyMap<string, ToolDefinition>,
  searchTool: ToolDefinition,
  mode: "provider" | "client",
  namespaces: boolean,
): SurfaceParts {
  let byDefinitions = surfaceParts.get(surface);
  if (byDefinitions === undefined) surfaceParts.set(surface, (byDefinitions = new WeakMap()));
  let parts = byDefinitions.get(definitions);
  if (parts === undefined) {
    const fixed = definitionsOf([...surface.always, ...surface.controls], definitions);
    const deferred = definitionsOf(surface.deferred, definitions);
    parts = {
      fixed,
      deferred,
      deferredSet: new Set(surface.deferred),
      opening: mode === "client" ? [...fixed, searchTool] : fixed,
      unsearched: definitionTokens([...fixed, ...deferred]),
      namespaces: namespaces ? groupByFamily(deferred, surface.families) : [],
    };
    byDefinitions.set(definitions, parts);
  }
  return parts;
}

/** One namespace per family (its name made of letters, digits, _ and -), its tools in visible order. */
function groupByFamily(
  deferred: ToolDefinition[],
  families: ReadonlyMap<string, string>,
): NonNullable<SearchOffer["namespaces"]> {
  const groups = new Map<string, ToolDefinition[]>();
  for (const tool of deferred) {
    const family = families.get(tool.name) || "tools";
    let group = groups.get(family);
    if (group === undefined) groups.set(family, (group = []));
    group.push(tool);
  }
  return [...groups].map(([family, tools]) => ({
    name: family.replace(/[^A-Za-z0-9_-]/g, "_"),
    description: `The ${family} tools (${tools.length}): ${tools.map((tool) => tool.name).join(", ")}.`,
    tools,
  }));
}

/** Asks one decision with tool search on, and classifies and records it. */
export async function askWithSearch(ctx: AskContext, t: SearchTrial): Promise<TrialResult> {
  const { config, endpoint } = ctx;
  const settings = config.tool_search;
  const mode: "provider" | "client" = settings.mode === "provider" ? "provider" : "client";
  const defs = (names: string[]) => definitionsOf(names, ctx.definitions);
  const { deferred, deferredSet, opening, unsearched, namespaces } = partsOf(
    t.surface,
    ctx.definitions,
    t.searchTool,
    mode,
    settings.namespaces,
  );
  const base = requestOf(config, t.testCase, t.trial, t.seed);
  // What each call sends besides its loaded tools: the deferred definitions, marked defer_loading,
  // in provider mode (both APIs) and with Anthropic in any mode (docs/tool-search.md, "Tokens").
  const sendsDeferred =
    mode === "provider" || providerOf(config.endpoint)?.row.wire === "anthropic-messages";
  const deferredTokens = sendsDeferred ? definitionTokens(deferred) : 0;
  const found: string[] = [];
  const isFound = new Set<string>();
  const load = (name: string) => {
    found.push(name);
    isFound.add(name);
  };
  const searches: SearchStep[] = [];
  const loadedBySearch: string[][] = [];
  const exchange: Message[] = [];
  const usedIds = new Set<string>();
  const totals = { ...newTotals(), definition_tokens: 0 };
  let outcome: EndpointOutcome;
  let request: TrialRequest;
  let ended: "moved" | "search_limit" = "moved";
  for (;;) {
    const tools = found.length === 0 ? opening : [...opening, ...defs(found)];
    const offer = {
      mode,
      kind: settings.kind,
      deferred,
      loaded: [...loadedBySearch],
      ...(namespaces.length === 0 ? {} : { namespaces }),
    };
    request = {
      ...base,
      tools,
      search: offer,
      ...(exchange.length === 0 ? {} : { after_goal: [...exchange] }),
    };
    outcome = await endpoint.call(request);
    addCall(totals, outcome);
    // Where the deferred definitions are sent, a loaded one is not sent again (it is expanded from them).
    totals.definition_tokens += sendsDeferred
      ? definitionTokens(tools.filter((tool) => !deferredSet.has(tool.name))) + deferredTokens
      : definitionTokens(tools);
    if (!outcome.ok) break;
    for (const step of outcome.response.searches ?? []) {
      // A provider's list may be of any length (a 10 MB result): each deferred name once, no spread.
      const returned = [...new Set(step.returned)].filter((name) => deferredSet.has(name));
      searches.push({ query: step.query, returned, by: "provider" });
      const fresh = returned.filter((name) => !isFound.has(name));
      for (const name of fresh) load(name);
    }
    // Every call of the reply: the searches run (as many as the bound allows), any other call is the move.
    const calls = callsOf(outcome.response);
    const searchCalls = calls.filter((call) => call.tool === SEARCH_TOOL);
    if (searchCalls.length === 0) break;
    const moves = calls.filter((call) => call.tool !== SEARCH_TOOL);
    const allowed = searchCalls.slice(0, Math.max(0, settings.max_searches - searches.length));
    const asked: { id: string; step: SearchStep }[] = [];
    for (const call of allowed) {
      // The first call's parse error is the reply's; a later call's unparsed arguments are kept as they came.
      const parseError = call === calls[0] ? outcome.response.arguments_error : null;
      const step = await runSearch(
        call.arguments,
        parseError,
        t.searcher,
        t.surface.deferred,
        settings.k,
      );
      searches.push(step);
      loadedBySearch.push(step.returned);
      for (const name of step.returned) if (!isFound.has(name)) load(name);
      // The model's own id of the call, echoed with its result; made up where it gave none (or reused one).
      const own = outcome.response.call_ids?.[calls.indexOf(call)];
      const id = own === undefined || usedIds.has(own) ? `search_${searches.length}` : own;
      usedIds.add(id);
      asked.push({ id, step });
    }
    if (moves.length > 0) {
      // A search and a call in one reply: the call is the move, judged among what is loaded now.
      outcome = { ...outcome, response: { ...outcome.response, ...asMove(moves) } };
      break;
    }
    if (allowed.length < searchCalls.length) {
      ended = "search_limit";
      outcome = { ...outcome, response: { ...outcome.response, ...asMove([]) } };
      break;
    }
    exchange.push(
      {
        role: "assistant",
        tool_calls: asked.map(({ id, step }) => ({
          id,
          name: SEARCH_TOOL,
          arguments: step.query === null ? {} : ({ query: step.query } as JsonObject),
        })),
      },
      ...asked.map(({ id, step }): Message => ({
        role: "tool",
        tool_call_id: id,
        name: SEARCH_TOOL,
        content: JSON.stringify(
          step.error === undefined
            ? { tools: defs(step.returned).map(({ name, description }) => ({ name, description })) }
            : { error: step.error },
        ),
      })),
    );
  }
  const finalOutcome = withTotals(outcome, totals);
  const loaded = [...t.surface.always, ...found];
  const visible = [...loaded, ...t.surface.controls];
  const search: SearchRecord = {
    mode,
    kind: settings.kind,
    deferred: t.surface.deferred.length,
    always_loaded: t.surface.always,
    searches,
    outcome: ended,
    calls: totals.calls,
    definition_tokens: totals.definition_tokens,
    definition_tokens_unsearched: unsearched,
  };
  const discovery = { visible, retrieved: loaded, k: settings.k, retrieval: null };
  const record = lazy(() =>
    recordAnswer(ctx, { ...t, discovery }, request, finalOutcome, {
      toolsShuffled: false,
      search,
    }),
  );
  return { outcome: finalOutcome, record };
}

/** Runs the search a `search_tools` call asks for; bad arguments are recorded as the search's error. */
async function runSearch(
  args: JsonValue,
  parseError: string | null,
  searcher: ToolSearcher,
  deferred: string[],
  k: number,
): Promise<SearchStep> {
  const query = queryOf(args);
  if (parseError !== null)
    return {
      query: null,
      returned: [],
      by: "route-eval",
      error: `the arguments are not JSON: ${parseError}`,
    };
  if (query === null)
    return {
      query: null,
      returned: [],
      by: "route-eval",
      error: `${SEARCH_TOOL} takes {"query": "…"}; got ${JSON.stringify(args).slice(0, 200)}`,
    };
  const answer = await searcher.search(query, deferred, k);
  return "error" in answer
    ? { query, returned: [], by: "route-eval", error: answer.error }
    : { query, returned: answer.returned, by: "route-eval" };
}

/** The reply's fields for the calls that are its move (the searches taken out); no call: the decision ended without one. */
function asMove(moves: EndpointCall[]): Partial<EndpointResponse> {
  const [first] = moves;
  return {
    selected: first?.tool ?? null,
    arguments: first?.arguments ?? null,
    arguments_error: null,
    tool_calls: moves.length,
    calls: moves.length > 1 ? moves : undefined,
  };
}

function queryOf(args: JsonValue): string | null {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
  const query = args.query;
  return typeof query === "string" && query.trim() !== "" ? query : null;
}
