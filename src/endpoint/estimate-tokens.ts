import type { Endpoint, TrialRequest } from "../types.js";

/** Characters per token of the estimate: the usual rule of thumb for English text and JSON. */
export const CHARS_PER_TOKEN = 4;

/**
 * route-eval's estimate of a request's input tokens, for endpoints that report none (the
 * baseline): ceil(characters / 4) of the JSON of system + context + messages + goal + tool
 * definitions (name, description, input_schema). Crude but monotone in what the model is shown,
 * which is what a size sweep needs: more visible tools, more tokens.
 */
export function estimateInputTokens(request: TrialRequest): number {
  const { system, context, messages, goal, tools } = request;
  return Math.ceil(JSON.stringify({ system, context, messages, goal, tools }).length / CHARS_PER_TOKEN);
}

/**
 * The endpoint, with the estimate added to every answer's usage as `input_tokens_estimated`.
 * `input_tokens` stays what the endpoint reported (null when it reported nothing), so a reported
 * count and an estimate never mix in one field.
 */
export function withTokenEstimate(endpoint: Endpoint): Endpoint {
  return {
    ...endpoint,
    call: async (request) => {
      const outcome = await endpoint.call(request);
      if (!outcome.ok) return outcome;
      const usage = { ...outcome.response.usage, input_tokens_estimated: estimateInputTokens(request) };
      return { ...outcome, response: { ...outcome.response, usage } };
    },
  };
}
