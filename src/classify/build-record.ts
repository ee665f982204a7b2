import type {
  CallSetEnding,
  CallSetRecord,
  CallSetSpec,
  EndpointCall,
  EndpointResponse,
  Case,
  Discovery,
  EndpointOutcome,
  Exposure,
  JsonValue,
  SearchRecord,
  ToolDefinition,
  TrialRecord,
  Usage,
} from "../types.js";
import { checkArguments, matchArguments } from "./check-arguments.js";
import { classifyCallSet, classifyTrial, UNPARSEABLE_PREFIX } from "./classify-trial.js";
import { callsOf, matchCallSet } from "./call-set.js";
import { classifyHierarchy, describeHierarchy } from "./hierarchy.js";
import { serverOf } from "../registry/targets.js";

export interface TrialEvidence {
  testCase: Case;
  trial: number;
  /** Every name in the registry: controls first, then ordinary tools. */
  registryNames: string[];
  /** Model-facing definitions of the registry's tools and controls, for argument checks. */
  definitions: ReadonlyMap<string, ToolDefinition>;
  exposure: Exposure;
  discovery: Discovery;
  outcome: EndpointOutcome;
  endpoint: string;
  model: string;
  requestHash: string;
  /** Whether the visible order is a seeded permutation (--shuffle-tools). */
  toolsShuffled?: boolean;
  /** Tool search was on: what the decision searched and loaded (discovery.visible is the loaded set). */
  search?: SearchRecord;
  /** A call-set decision's loop (trial/agent-loop.ts): the model calls it took and how it ended (default: one, "single"). */
  steps?: { count: number; ended: CallSetEnding };
  /** A hierarchical case's agent, asked again with its own tools (`offered`): what it picked, and that call's tokens (added to the trial's). */
  inside?: { offered: string[]; selected: string | null; usage: Usage };
}

/** One trial's record: every set along the way, the endpoint's answer and its classification. */
export function buildRecord(e: TrialEvidence): TrialRecord {
  const c = e.testCase;
  const response = e.outcome.ok ? e.outcome.response : null;
  const selected = response?.selected ?? null;
  const argumentsError = response?.arguments_error ?? null;
  const args = response?.arguments ?? null;
  const visible = e.discovery.visible;
  const sets = {
    acceptable: c.acceptable,
    forbidden: c.forbidden,
    registry_names: e.registryNames,
    exposed_names: e.exposure.exposed,
    retrieved_names: visible,
    visible_order: visible,
    selected,
  };
  const judged =
    c.call_set === undefined
      ? null
      : judgeCallSet(c.call_set, response, visible, e.definitions, e.steps);
  const described =
    c.hierarchy === undefined
      ? null
      : describeHierarchy(c.hierarchy, selected, e.inside ?? null, (tool) =>
          serverOf(c.registry, tool),
        );
  const hierarchy =
    described === null
      ? null
      : classifyHierarchy({ ...sets, arguments_error: argumentsError }, described);
  const ladder =
    hierarchy !== null
      ? hierarchy
      : judged === null
        ? classifyTrial({ ...sets, arguments_error: argumentsError })
        : classifyCallSet({
            ...sets,
            calls: judged.calls,
            call_set: judged.call_set,
            arguments_error: argumentsError,
          });
  const tool =
    selected !== null && visible.includes(selected) ? e.definitions.get(selected) : undefined;
  const expected = selected !== null ? c.args[selected] : undefined;
  return {
    case_id: c.id,
    trial: e.trial,
    goal: c.goal,
    phase: c.phase,
    family: c.family,
    tags: c.tags,
    ...sets,
    retrieval_k: e.discovery.k,
    retrieval: e.discovery.retrieval,
    arguments: args,
    argument_errors: checkVisibleArguments(tool, args, argumentsError),
    argument_match:
      judged !== null
        ? argumentsMet(judged.call_set)
        : expected !== undefined
          ? matchArguments(expected, args).match
          : null,
    failed_stage: e.outcome.ok ? ladder.failed_stage : null,
    selection_error: e.outcome.ok ? ladder.selection_error : null,
    violated: e.outcome.ok ? ladder.violated : false,
    must_see: c.must_see,
    must_not_see: c.must_not_see,
    response_text: response?.text ?? null,
    tool_calls: response?.tool_calls ?? 0,
    usage: addUsage(
      response?.usage ?? { input_tokens: null, output_tokens: null },
      e.inside?.usage,
    ),
    latency_ms: response?.latency_ms ?? null,
    ...(response?.recorded_latency_ms === undefined
      ? {}
      : { recorded_latency_ms: response.recorded_latency_ms }),
    endpoint: e.endpoint,
    model: e.model,
    request_hash: e.requestHash,
    error: e.outcome.ok ? null : e.outcome.error,
    provider_request_id: response?.provider_request_id ?? null,
    retries: e.outcome.retries ?? 0,
    acceptable_positions: findPositions(visible, c.acceptable),
    tools_shuffled: e.toolsShuffled ?? false,
    calls: judged === null ? response?.calls : judged.calls,
    ...(c.turn === undefined ? {} : { turn: c.turn }),
    ...(e.search === undefined ? {} : { search: e.search }),
    ...(judged === null ? {} : { call_set: judged.call_set }),
    ...(described === null || hierarchy === null
      ? {}
      : { hierarchy: { ...described, level: e.outcome.ok ? hierarchy.level : null } }),
  };
}

/** A call-set decision's calls (every one, even a single) and how they met the expected calls. */
function judgeCallSet(
  spec: CallSetSpec,
  response: EndpointResponse | null,
  visible: string[],
  definitions: ReadonlyMap<string, ToolDefinition>,
  steps: TrialEvidence["steps"],
): { calls: EndpointCall[]; call_set: CallSetRecord } {
  const calls = response === null ? [] : callsOf(response);
  const match = matchCallSet(spec, calls);
  const args_valid = match.matched.map((index) => {
    if (index === null) return null;
    const call = calls[index];
    const tool = visible.includes(call.tool) ? definitions.get(call.tool) : undefined;
    const errors = tool === undefined ? null : checkArguments(tool.input_schema, call.arguments);
    return errors === null ? null : errors.length === 0;
  });
  return {
    calls,
    call_set: {
      ...match,
      args_valid,
      steps: steps?.count ?? 1,
      ended: steps?.ended ?? "single",
    },
  };
}

/** A trial's tokens with its second call's (a count either call did not report stays unknown). */
function addUsage(usage: Usage, more: Usage | undefined): Usage {
  if (more === undefined) return usage;
  const add = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  return {
    input_tokens: add(usage.input_tokens, more.input_tokens),
    output_tokens: add(usage.output_tokens, more.output_tokens),
  };
}

/** Whether every matched call with an expectation met it (null: none had one). */
function argumentsMet(callSet: CallSetRecord): boolean | null {
  const checked = callSet.args_match.filter((met): met is boolean => met !== null);
  return checked.length === 0 ? null : checked.every((met) => met);
}

/** 0-based positions in `visible` of the acceptable tools shown, ascending. */
export function findPositions(visible: string[], acceptable: string[]): number[] {
  // Once per trial over the whole visible set: a plain loop (acceptable lists are short).
  const positions: number[] = [];
  for (let index = 0; index < visible.length; index++)
    if (acceptable.includes(visible[index])) positions.push(index);
  return positions;
}

/** Argument errors against the schema the model was shown; null when the selected tool was not visible. */
function checkVisibleArguments(
  tool: ToolDefinition | undefined,
  args: JsonValue,
  parseError: string | null,
): string[] | null {
  if (tool === undefined) return null;
  if (parseError !== null) return [`${UNPARSEABLE_PREFIX}: ${parseError}`];
  return checkArguments(tool.input_schema, args);
}
