/**
 * The one place a decision is asked. Every path that asks the model — a run's trials, a
 * conversation's turns, counterfactuals, `diff --remeasure-base`, ablations and sweeps (through
 * the run) — builds an asker per registry and hands it decisions: a case's trial with the exposure
 * and the visible set it was given. How it is asked is chosen once, when the asker is made (plain,
 * or with tool search: docs/tool-search.md), and is a stage inside it, never a branch in a caller.
 */
import type { ToolSearcher } from "../discovery/tool-searcher.js";
import { lazy } from "../text/lazy.js";
import type {
  Case,
  Config,
  Discovery,
  Endpoint,
  EndpointOutcome,
  Exposure,
  Registry,
  ToolDefinition,
  TrialRequest,
} from "../types.js";
import type { TrialResult } from "./run-loop.js";
import type { TrialEvidence } from "../classify/build-record.js";
import {
  askWithSearch,
  searchToolDefinition,
  splitSurface,
  type SearchSurface,
} from "./tool-search.js";
import { askInSteps } from "./agent-loop.js";
import { prepareArgumentChecks } from "../classify/check-arguments.js";
import { dispatching, dispatchPlanOf } from "./dispatch-endpoint.js";
import { definitionsOf, recordAnswer, requestOf, type AskContext } from "./trial-request.js";

/** One decision: a case's trial, what its phase exposed and what it was shown. */
export interface Decision {
  testCase: Case;
  trial: number;
  /** The sampling seed (default: from run seed, case and trial); counterfactuals draw their own. */
  seed?: number;
  exposure: Exposure;
  discovery: Discovery;
  /** The registry's names as the record keeps them (default: the asker's). */
  registryNames?: string[];
  /** Tool search: the tools loaded up front (default: config tool_search.always_loaded). */
  alwaysLoaded?: readonly string[];
  /** The outcome to record without calling the endpoint (an on-policy turn after one that errored). */
  answered?: EndpointOutcome;
}

export interface DecisionAsker {
  ask(decision: Decision): Promise<TrialResult>;
}

/** What an asker is made of: the run's settings and endpoint, and one registry's (or a union's) tools. */
export interface AskerParts {
  config: Config;
  endpoint: Endpoint;
  registryNames: string[];
  /** Every definition a decision may show, by name (controls included). */
  definitions: ReadonlyMap<string, ToolDefinition>;
  /** The registry asked about: its tools (tool search reads their families), how its targets are offered, its agents' own tools. */
  registry: Registry;
  /** What answers the searches route-eval runs (made on first use). */
  searcher: () => ToolSearcher;
}

export function createAsker(parts: AskerParts): DecisionAsker {
  const { config } = parts;
  // The answers' argument checks, made ready while the first calls are out (when calls leave the
  // process: the endpoint has a pace).
  if (parts.endpoint.pace !== undefined)
    prepareArgumentChecks([...parts.definitions.values()].map((d) => d.input_schema));
  // dispatch: tool folds the targets into a dispatcher (the registry's choice, or the case's own).
  const plan = dispatchPlanOf(parts.registry);
  const folded = plan === null ? parts.endpoint : dispatching(parts.endpoint, plan);
  const endpointFor = (style: "functions" | "tool" | undefined) =>
    (style ?? parts.registry.dispatch?.style) === "tool" ? folded : parts.endpoint;
  const ctx: AskContext = {
    config,
    endpoint: endpointFor(undefined),
    registryNames: parts.registryNames,
    definitions: parts.definitions,
  };
  const within = (d: Decision): AskContext => {
    const own = d.testCase.dispatch;
    if (d.registryNames === undefined && d.answered === undefined && own === undefined) return ctx;
    const answered = d.answered;
    const endpoint =
      answered === undefined
        ? endpointFor(own)
        : { id: ctx.endpoint.id, model: ctx.endpoint.model, call: async () => answered };
    return { ...ctx, endpoint, registryNames: d.registryNames ?? ctx.registryNames };
  };
  // Shared by the decisions that show the same list (one per phase without a retriever, one per case with one).
  const toolLists = new WeakMap<string[], ToolDefinition[]>();
  const plain = async (d: Decision): Promise<TrialResult> => {
    let tools = toolLists.get(d.discovery.visible);
    if (tools === undefined)
      toolLists.set(
        d.discovery.visible,
        (tools = definitionsOf(d.discovery.visible, parts.definitions)),
      );
    const asked = within(d);
    if ((d.testCase.max_steps ?? 1) > 1) return askInSteps(asked, d, tools);
    const request: TrialRequest = { ...requestOf(config, d.testCase, d.trial, d.seed), tools };
    const first = await asked.endpoint.call(request);
    const handed = await askInside(asked, d, first);
    const outcome = handed?.outcome ?? first;
    return {
      outcome,
      record: lazy(() =>
        recordAnswer(asked, d, request, outcome, {
          toolsShuffled: config.shuffle_tools,
          ...(handed === null ? {} : { inside: handed.inside }),
        }),
      ),
    };
  };
  /**
   * A hierarchical case whose model handed the task to a right agent (docs/targets.md): the
   * agent is asked next, its instructions the system prompt, its own tools offered. The first
   * answer stays the record's; an inside call that fails is the trial's outcome (it errored).
   */
  const askInside = async (
    asked: AskContext,
    d: Decision,
    first: EndpointOutcome,
  ): Promise<{ outcome: EndpointOutcome; inside: TrialEvidence["inside"] } | null> => {
    if (d.testCase.hierarchy?.by !== "agent" || !first.ok) return null;
    const chosen = first.response.selected;
    // A wrong agent fails at the target: what it would do inside is not asked.
    if (chosen === null || !d.testCase.acceptable.includes(chosen)) return null;
    const agent = parts.registry.agents?.get(chosen);
    if (agent === undefined) return null;
    const request: TrialRequest = {
      ...requestOf(config, d.testCase, d.trial, d.seed),
      system: agent.instructions,
      tools: definitionsOf(agent.tools, parts.definitions),
    };
    const outcome = await asked.endpoint.call(request);
    if (!outcome.ok) return { outcome, inside: undefined };
    return {
      outcome: first,
      inside: {
        offered: agent.tools,
        selected: outcome.response.selected,
        usage: outcome.response.usage,
      },
    };
  };
  if (config.tool_search.mode === "off") return { ask: plain };

  const searchTool = lazy(() =>
    searchToolDefinition(config.tool_search.kind, config.tool_search.k),
  );
  const tools = new Map(parts.registry.tools.map((tool) => [tool.name, tool]));
  const surfaces = new WeakMap<string[], SearchSurface>();
  const surfaceOf = (d: Decision): SearchSurface => {
    if (d.alwaysLoaded !== undefined)
      return splitSurface(d.discovery.visible, d.alwaysLoaded, tools);
    let surface = surfaces.get(d.discovery.visible);
    if (surface === undefined)
      surfaces.set(
        d.discovery.visible,
        (surface = splitSurface(d.discovery.visible, config.tool_search.always_loaded, tools)),
      );
    return surface;
  };
  return {
    ask: (d) =>
      askWithSearch(within(d), {
        ...d,
        surface: surfaceOf(d),
        searcher: parts.searcher(),
        searchTool: searchTool(),
      }),
  };
}
