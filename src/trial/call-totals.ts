/**
 * A decision asked in several endpoint calls (tool search's searches, an agent loop's steps) is
 * recorded as one answer: the last call's, with the usage, time and retries of all of them.
 */
import type { EndpointOutcome, EndpointResponse, Usage } from "../types.js";

export interface Totals {
  calls: number;
  retries: number;
  latency: number;
  input: number | null;
  output: number | null;
  estimated: number | null;
  /** Every call was answered by the response store. */
  fromStore: boolean;
}

export function newTotals(): Totals {
  return {
    calls: 0,
    retries: 0,
    latency: 0,
    input: 0,
    output: 0,
    estimated: 0,
    fromStore: true,
  };
}

/** Counts one call of the decision: its retries, whether the store answered it, its usage and time. */
export function addCall(totals: Totals, outcome: EndpointOutcome): void {
  totals.calls += 1;
  totals.retries += outcome.retries ?? 0;
  if (outcome.from_store !== true) totals.fromStore = false;
  if (outcome.ok) addUsage(totals, outcome.response);
}

function addUsage(totals: Totals, response: EndpointResponse): void {
  const add = (sum: number | null, value: number | null | undefined) =>
    sum === null || value === null || value === undefined ? null : sum + value;
  totals.latency += response.latency_ms;
  totals.input = add(totals.input, response.usage.input_tokens);
  totals.output = add(totals.output, response.usage.output_tokens);
  totals.estimated = add(totals.estimated, response.usage.input_tokens_estimated);
}

/** The decision's outcome: the last call's answer, with the usage, time and retries of all its calls. */
export function withTotals(outcome: EndpointOutcome, totals: Totals): EndpointOutcome {
  const common = { retries: totals.retries, ...(totals.fromStore ? { from_store: true } : {}) };
  if (!outcome.ok) return { ...outcome, ...common };
  const usage: Usage = {
    input_tokens: totals.input,
    output_tokens: totals.output,
    ...(outcome.response.usage.input_tokens_estimated === undefined
      ? {}
      : { input_tokens_estimated: totals.estimated }),
  };
  return {
    ...outcome,
    ...common,
    response: { ...outcome.response, usage, latency_ms: Math.round(totals.latency * 1000) / 1000 },
  };
}
