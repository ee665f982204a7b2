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
  // head is "{…}": the tools key goes before its closing brace, after a comma unless it is the only key.
  return head.length - 1 + (head === "{}" ? 0 : 1) + '"tools":'.length + listLength(tools) + 1;
}

/** route-eval's estimate of the tokens of these tool definitions: ceil(characters of their JSON / 4). */
export function definitionTokens(tools: readonly object[]): number {
  return Math.ceil(listLength(tools) / CHARS_PER_TOKEN);
}

/** The length of JSON.stringify(tools): once per list (trials share their phase's or case's list), each tool measured once. */
function listLength(tools: readonly object[]): number {
  let length = listLengths.get(tools);
  if (length !== undefined) return length;
  length = 2 + Math.max(0, tools.length - 1); // [ ] and the commas
  for (const tool of tools) {
    let one = toolLengths.get(tool);
    if (one === undefined) toolLengths.set(tool, (one = JSON.stringify(tool).length));
    length += one;
  }
  listLengths.set(tools, length);
  return length;
}

const toolLengths = new WeakMap<object, number>();
const listLengths = new WeakMap<readonly object[], number>();

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
      const usage = {
        ...outcome.response.usage,
        input_tokens_estimated: estimateInputTokens(request),
      };
      return { ...outcome, response: { ...outcome.response, usage } };
    },
  };
}
