/**
 * The agent loop within one decision (docs/call-sets.md, `max_steps`): the model is asked, every
 * call of its reply is answered — parallel calls each by its own result, matched by call id, in
 * the provider's native shape (the wire renders the exchange) — and it is asked again, until it
 * answers without a call, calls a control, or still calls at max_steps. Each step is one endpoint
 * call (response store, retries), so a second run is free and a replay exact. The decision is
 * recorded once, with every call it made in order and the usage of all its steps.
 */
import { matchArguments } from "../classify/check-arguments.js";
import { callsOf } from "../classify/call-set.js";
import { isControl } from "../types.js";
import type {
  CallSetEnding,
  EndpointCall,
  EndpointOutcome,
  JsonObject,
  JsonValue,
  Message,
  StubResult,
  ToolDefinition,
  TrialRequest,
} from "../types.js";
import { addCall, newTotals, withTotals } from "./call-totals.js";
import type { Decision } from "./ask-decision.js";
import type { TrialResult } from "./run-loop.js";
import { lazy } from "../text/lazy.js";
import { recordAnswer, requestOf, type AskContext } from "./trial-request.js";

/** Asks one decision in steps (its case's max_steps above 1), and classifies and records it. */
export async function askInSteps(
  ctx: AskContext,
  d: Decision,
  tools: ToolDefinition[],
): Promise<TrialResult> {
  const { config, endpoint } = ctx;
  const max = d.testCase.max_steps ?? 1;
  const base = { ...requestOf(config, d.testCase, d.trial, d.seed), tools };
  const exchange: Message[] = [];
  const made: EndpointCall[] = [];
  const totals = newTotals();
  /** Why the first call's arguments did not parse (the reply that made it). */
  let firstError: string | null = null;
  let request: TrialRequest;
  let outcome: EndpointOutcome;
  let ended: CallSetEnding = "single";
  const used = new Set<string>();
  for (let step = 1; ; step++) {
    request =
      exchange.length === 0
        ? base
        : { ...base, after_goal: [...(base.after_goal ?? []), ...exchange] };
    outcome = await endpoint.call(request);
    addCall(totals, outcome);
    if (!outcome.ok) break;
    const response = outcome.response;
    const calls = callsOf(response);
    if (made.length === 0 && calls.length > 0) firstError = response.arguments_error;
    for (const call of calls) made.push(call);
    const ending = endingOf(calls);
    if (ending !== null || step >= max) {
      ended = ending ?? "step_limit";
      break;
    }
    // The model's own ids, echoed with the results (the providers' guides); made up where it gave
    // none, or repeated one this decision already used.
    const ids = calls.map((_, i) => {
      const own = response.call_ids?.[i];
      const id = own === undefined || used.has(own) ? `call_${step}_${i + 1}` : own;
      used.add(id);
      return id;
    });
    exchange.push({
      role: "assistant",
      ...(response.text === null || response.text === "" ? {} : { content: response.text }),
      tool_calls: calls.map((call, i) => ({
        id: ids[i],
        name: call.tool,
        arguments: asObject(call.arguments),
      })),
    });
    calls.forEach((call, i) =>
      exchange.push({
        role: "tool",
        tool_call_id: ids[i],
        name: call.tool,
        content: renderResult(stubFor(d.testCase.results ?? [], call)),
      }),
    );
  }
  const last = withTotals(outcome, totals);
  const answer: EndpointOutcome = !last.ok
    ? last
    : {
        ...last,
        response: {
          ...last.response,
          selected: made[0]?.tool ?? null,
          arguments: made[0]?.arguments ?? null,
          arguments_error: firstError,
          tool_calls: made.length,
          calls: made,
        },
      };
  return {
    outcome: answer,
    record: lazy(() =>
      recordAnswer(ctx, d, request, answer, {
        toolsShuffled: config.shuffle_tools,
        steps: { count: totals.calls, ended },
      }),
    ),
  };
}

/** What a call returns: the first `results:` entry for its tool whose args match, else a structured error. */
function stubFor(results: readonly StubResult[], call: EndpointCall): JsonValue {
  const stub = results.find(
    (entry) =>
      entry.tool === call.tool &&
      (entry.args === undefined || matchArguments(entry.args, call.arguments).match),
  );
  if (stub !== undefined) return stub.result;
  return {
    error: "no_result",
    message: `route-eval has no result for ${call.tool} with these arguments: the case gives none (results:)`,
  };
}

function renderResult(result: JsonValue): string {
  return typeof result === "string" ? result : JSON.stringify(result);
}

function asObject(value: JsonValue): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

/** How a reply ends a loop of steps: without a call, or with a control's; null when the loop goes on. */
function endingOf(calls: readonly EndpointCall[]): CallSetEnding | null {
  if (calls.length === 0) return "text";
  if (calls.some((call) => isControl(call.tool))) return "control";
  return null;
}
