/**
 * One traced turn (already redacted) → what `route-eval freeze` writes besides its snapshot
 * (freeze-snapshot.ts): a routing case (the goal is the last user message, the messages before it
 * are its prior turns), and the reply to store, in the wire the replaying endpoint speaks — the
 * provider's own body when the trace has it in that wire, else one written from the traced call
 * and labelled synthesized.
 */
import type { CaseEntry } from "../config/file-types.js";
import { InputError } from "../errors.js";
import type { JsonObject, JsonValue, Message, TracedApi, TracedTurn } from "../types.js";
import {
  describeStoredEndpoints,
  PROVIDER_NAMES,
  PROVIDERS,
  providerTracedAs,
  storesReplies,
  type Wire,
} from "../types/providers.js";
import type { Redactions } from "./redact.js";

/**
 * A turn's goal, the turns before it and the steps after it: the goal is the last user message;
 * a call that answers a tool result (a step of an agent loop) keeps the calls and results after
 * the goal as its prior steps.
 */
export function splitGoal(
  turn: TracedTurn,
  name: string,
): { goal: string; prior: Message[]; steps: Message[] } {
  const last = turn.messages[turn.messages.length - 1];
  if (last === undefined)
    throw new InputError(
      `${name}: the trace has no input messages (content capture off?); there is no request to freeze`,
    );
  let at = turn.messages.length - 1;
  while (at >= 0 && turn.messages[at].role !== "user") at -= 1;
  const goal = turn.messages[at];
  if (goal === undefined || goal.role !== "user")
    throw new InputError(
      `${name}: the call's input holds no user message; a case's decision follows the user's request`,
    );
  if (last.role === "assistant")
    throw new InputError(
      `${name}: the call's input ends with an assistant message, not a user message or a tool result; there is no decision to freeze at it`,
    );
  return {
    goal: goal.content,
    prior: turn.messages.slice(0, at),
    steps: turn.messages.slice(at + 1),
  };
}

export interface CaseSettings {
  id: string;
  acceptable: string[];
  forbidden: string[];
  context: JsonObject;
}

/** The case a turn becomes (its production system prompt kept); without acceptable tools it carries a todo that lint reports and run refuses. */
export function caseOfTurn(
  turn: TracedTurn,
  settings: CaseSettings,
  origin: JsonObject,
): CaseEntry {
  const { goal, prior, steps } = splitGoal(turn, settings.id);
  const called =
    turn.calls.length === 0
      ? "answered without a tool call"
      : `called ${turn.calls.map((c) => c.name).join(", ")}`;
  return {
    id: settings.id,
    goal,
    ...(settings.acceptable.length === 0
      ? {
          todo: `name the acceptable tools: the tools any of which would have been right (production ${called})`,
        }
      : { acceptable: settings.acceptable }),
    ...(settings.forbidden.length === 0 ? {} : { forbidden: settings.forbidden }),
    tags: ["frozen"],
    ...(turn.system === null ? {} : { system: turn.system }),
    ...(Object.keys(settings.context).length === 0 ? {} : { context: settings.context }),
    ...(prior.length === 0 ? {} : { messages: prior }),
    ...(steps.length === 0 ? {} : { prior_steps: steps }),
    origin,
  };
}

/** Where a turn came from and what it did, kept on the case (redacted like everything else). */
export function originOf(
  turn: TracedTurn,
  redacted: Redactions,
  reply: "as traced" | "synthesized",
  partial: string[],
): JsonObject {
  return {
    trace: `${turn.source.file}:${turn.source.line}`,
    format: turn.source.format,
    ...(turn.trace_id === null ? {} : { trace_id: turn.trace_id }),
    ...(turn.span_id === null ? {} : { span_id: turn.span_id }),
    ...(turn.time === null ? {} : { time: turn.time }),
    ...(turn.provider === null ? {} : { provider: turn.provider }),
    ...(turn.model === null ? {} : { model: turn.model }),
    tool_choice: turn.tool_choice as unknown as JsonValue,
    calls: turn.calls.map((call) => ({
      name: call.name,
      arguments: call.arguments,
      ...(call.parsed === null ? { arguments_invalid: true } : {}),
    })),
    ...(turn.text === null ? {} : { text: turn.text }),
    ...(turn.stages.length === 0 ? {} : { stages: turn.stages as unknown as JsonValue }),
    ...(partial.length === 0 ? {} : { partial }),
    reply,
    redacted,
  };
}

/**
 * The wire a traced turn's own reply is in, when known: the API it names, else the wire of the
 * provider row that lists the traced provider name (OTel spans name a provider, not an API: an
 * OpenAI-compatible one is taken as Chat Completions). Claude on Bedrock answers in Messages.
 */
export function wireOfTurn(turn: TracedTurn): TracedApi | null {
  if (turn.api !== null) return turn.api;
  if (turn.provider === "aws.bedrock" && /claude/i.test(turn.model ?? ""))
    return "anthropic-messages";
  const name = turn.provider === null ? null : providerTracedAs(turn.provider);
  const row = name === null ? null : PROVIDERS[name];
  return row !== null && storesReplies(row) ? row.wire : null;
}

/** The endpoint a frozen turn replays through by default: the row of its traced provider (else its wire's first), with the traced model. */
export function endpointOfTurn(turn: TracedTurn): string | null {
  const wire = wireOfTurn(turn);
  if (wire === null || turn.model === null) return null;
  const traced = turn.provider === null ? null : providerTracedAs(turn.provider);
  const name =
    traced !== null && PROVIDERS[traced].wire === wire
      ? traced
      : PROVIDER_NAMES.find((p) => PROVIDERS[p].wire === wire);
  return `${name}:${turn.model}`;
}

/** The reply to store for an endpoint of `wire`: the traced body when it is in that wire, else one written from the call. */
export function replyBody(
  turn: TracedTurn,
  wire: Wire,
  model: string,
): { body: JsonValue; synthesized: boolean } {
  if (turn.reply !== undefined && wireOfTurn(turn) === wire)
    return { body: turn.reply, synthesized: false };
  const id = turn.span_id ?? "frozen";
  switch (wire) {
    case "openai-chat":
      return {
        synthesized: true,
        body: {
          id: `chatcmpl-${id}`,
          object: "chat.completion",
          model,
          synthesized: true,
          choices: [
            {
              index: 0,
              finish_reason: turn.calls.length > 0 ? "tool_calls" : "stop",
              message: {
                role: "assistant",
                content: turn.text,
                ...(turn.calls.length === 0
                  ? {}
                  : {
                      tool_calls: turn.calls.map((call, i) => ({
                        id: call.id ?? `call_${i + 1}`,
                        type: "function",
                        function: { name: call.name, arguments: call.arguments },
                      })),
                    }),
              },
            },
          ],
        },
      };
    case "openai-responses":
      return {
        synthesized: true,
        body: {
          id: `resp_${id}`,
          object: "response",
          status: "completed",
          model,
          synthesized: true,
          output: [
            ...(turn.text === null
              ? []
              : [
                  {
                    type: "message",
                    id: `msg_${id}`,
                    role: "assistant",
                    status: "completed",
                    content: [{ type: "output_text", text: turn.text, annotations: [] }],
                  },
                ]),
            ...turn.calls.map((call, i) => ({
              type: "function_call",
              id: `fc_${i + 1}`,
              call_id: call.id ?? `call_${i + 1}`,
              name: call.name,
              arguments: call.arguments,
              status: "completed",
            })),
          ],
        },
      };
    case "anthropic-messages": {
      const invalid = turn.calls.find((call) => call.parsed === null);
      if (invalid !== undefined)
        throw new InputError(
          `the traced call of ${invalid.name} has arguments that are not a JSON object, which an Anthropic reply cannot carry; freeze it for an OpenAI endpoint (--endpoint openai:MODEL)`,
        );
      return {
        synthesized: true,
        body: {
          id: `msg_${id}`,
          type: "message",
          role: "assistant",
          model,
          synthesized: true,
          stop_reason: turn.calls.length > 0 ? "tool_use" : "end_turn",
          content: [
            ...(turn.text === null ? [] : [{ type: "text", text: turn.text }]),
            ...turn.calls.map((call, i) => ({
              type: "tool_use",
              id: call.id ?? `toolu_${i + 1}`,
              name: call.name,
              input: call.parsed,
            })),
          ],
        },
      };
    }
    default:
      throw new InputError(
        `freeze stores replies for the endpoints of a provider API (a ${wire} endpoint's replies are its own); pass --endpoint ${describeStoredEndpoints()}`,
      );
  }
}
