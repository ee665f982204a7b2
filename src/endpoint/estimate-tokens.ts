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
  return Math.ceil(jsonLength(request) / CHARS_PER_TOKEN);
}

/**
 * The length of JSON.stringify({system, context, messages, goal, tools}), without serialising the
 * tools again for every trial: each definition object (shared by every trial that shows the tool)
 * is measured once. The same number as the whole stringify, to the character.
 */
function jsonLength({ system, context, messages, goal, tools }: TrialRequest): number {
  const head = JSON.stringify({ system, context, messages, goal });
  let toolsLength = 2; // [ ]
  tools.forEach((tool, i) => {
    let length = toolLengths.get(tool);
    if (length === undefined) toolLengths.set(tool, (length = JSON.stringify(tool).length));
    toolsLength += length + (i > 0 ? 1 : 0);
  });
  // head is "{…}": the tools key goes before its closing brace, after a comma unless it is the only key.
  return head.length - 1 + (head === "{}" ? 0 : 1) + '"tools":'.length + toolsLength + 1;
}

const toolLengths = new WeakMap<object, number>();

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
