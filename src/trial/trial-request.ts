/**
 * What every trial shares, whatever it shows (a plain ask, or a decision with its searches): the
 * request without its tools, and the record of its answer.
 */
import { buildRecord, type TrialEvidence } from "../classify/build-record.js";
import { hashRequest } from "../endpoint/request-hash.js";
import { deriveSeed } from "../text/seeded-random.js";
import type {
  Case,
  Config,
  Discovery,
  Endpoint,
  EndpointOutcome,
  Exposure,
  SearchRecord,
  ToolDefinition,
  TrialRecord,
  TrialRequest,
} from "../types.js";

/** What asking a trial needs beyond the trial itself: the run's settings, its endpoint, the registry's names and definitions. */
export interface AskContext {
  config: Config;
  endpoint: Endpoint;
  registryNames: string[];
  definitions: ReadonlyMap<string, ToolDefinition>;
}

/** A trial's request without its tools: the run's prompt (or the case's own) and settings, the case's turn, the trial's seed (derived unless given). */
export function requestOf(
  config: Config,
  testCase: Case,
  trial: number,
  seed?: number,
): Omit<TrialRequest, "tools"> {
  return {
    case_id: testCase.id,
    trial,
    system: testCase.system ?? config.system_prompt,
    context: testCase.context,
    messages: testCase.messages,
    goal: testCase.goal,
    temperature: config.temperature,
    seed: seed ?? deriveSeed(config.seed, testCase.id, trial) % 2 ** 31,
    ...(testCase.prior_steps === undefined ? {} : { after_goal: testCase.prior_steps }),
    ...(testCase.parallel_tool_calls === undefined
      ? {}
      : { parallel_tool_calls: testCase.parallel_tool_calls }),
    ...(testCase.tool_choice === undefined ? {} : { tool_choice: testCase.tool_choice }),
  };
}

/** The record of a trial's answer: its sets (discovery's visible set is what the model could call), the answer, its classification. */
export function recordAnswer(
  ctx: AskContext,
  t: { testCase: Case; trial: number; exposure: Exposure; discovery: Discovery },
  request: TrialRequest,
  outcome: EndpointOutcome,
  extra: {
    toolsShuffled: boolean;
    search?: SearchRecord;
    steps?: TrialEvidence["steps"];
    inside?: TrialEvidence["inside"];
  },
): TrialRecord {
  const { endpoint } = ctx;
  return buildRecord({
    testCase: t.testCase,
    trial: t.trial,
    registryNames: ctx.registryNames,
    definitions: ctx.definitions,
    exposure: t.exposure,
    discovery: t.discovery,
    outcome,
    endpoint: endpoint.id,
    model: endpoint.model,
    requestHash: outcome.request_hash ?? hashRequest(request, endpoint.id, endpoint.model),
    ...extra,
  });
}

/** The definitions of the names shown, in their order (a name without one is left out). */
export function definitionsOf(
  visible: string[],
  definitions: ReadonlyMap<string, ToolDefinition>,
): ToolDefinition[] {
  return visible
    .map((name) => definitions.get(name))
    .filter((d): d is ToolDefinition => d !== undefined);
}
