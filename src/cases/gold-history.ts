/**
 * The gold history of a conversation: what the turns after a turn see of it when asked
 * teacher-forced — the user's message and what a correct model did there (its gold calls with
 * their results, or the text a correct model gives without a call), or the turn's own `gold:` —
 * and a call-set turn's keys in the single-decision shape.
 */
import { splitPath } from "./check-case.js";
import type { CaseEntry, ExpectedCallEntry, TurnEntry } from "../config/file-types.js";
import { isRecord } from "../json-schema/describe-errors.js";
import {
  CONTROL_NAMES,
  type ArgExpectation,
  type ControlName,
  type JsonObject,
  type JsonValue,
  type Message,
} from "../types.js";

/** What a gold call returns to the turns after it when the turn gives no `result`. */
export const DEFAULT_RESULT: JsonValue = { ok: true };

/**
 * A gold turn that is no tool call, as the turns after it see it (docs/conversations.md): the
 * control's own message to the user, or — when the turn offered no acceptable tool — the reply a
 * correct model gives without one.
 */
export const GOLD_TEXT: Record<ControlName | "no_tool_offered", string> = {
  ask_user: "Could you give me the details I need to do that?",
  wait_for_event: "I'll wait for that to happen before I act.",
  no_applicable_tool: "None of the tools I have can do that.",
  no_tool_offered: "I can't do that with the tools I have right now.",
};

/**
 * A turn as the history of the turns after it: the user's message and what a correct model did —
 * the call of the first acceptable tool the turn offered, with its gold result; else a text reply.
 */
export function goldExchange(turn: TurnEntry, t: number, offered: ReadonlySet<string>): Message[] {
  if (turn.gold !== undefined) return [{ role: "user", content: turn.user }, ...turn.gold];
  if (turn.calls !== undefined) return goldCalls(turn, turn.calls, t, offered);
  // A path (`target > tool`) is the target's call when it was offered (a handoff), else the tool's (a server's).
  const name = (turn.acceptable ?? [])
    .flatMap((candidate) => splitPath(candidate) ?? [candidate])
    .find((candidate) => offered.has(candidate));
  const control = CONTROL_NAMES.find((candidate) => candidate === name);
  if (name === undefined || control !== undefined) {
    const text = GOLD_TEXT[control ?? "no_tool_offered"];
    return [
      { role: "user", content: turn.user },
      { role: "assistant", content: text },
    ];
  }
  const callId = `turn_${t + 1}`;
  const result = turn.result ?? DEFAULT_RESULT;
  return [
    { role: "user", content: turn.user },
    {
      role: "assistant",
      tool_calls: [{ id: callId, name, arguments: exactArguments(turn.args?.[name] ?? {}) }],
    },
    {
      role: "tool",
      tool_call_id: callId,
      name,
      content: typeof result === "string" ? result : JSON.stringify(result),
    },
  ];
}

/**
 * A call-set turn as later turns see it: every expected call whose tools the turn offered (the
 * first offered of its alternatives), in order, each answered by its own result (else the turn's,
 * else {"ok": true}); a control among them, or none offered, is the reply a correct model gives
 * without a call.
 */
function goldCalls(
  turn: TurnEntry,
  calls: ExpectedCallEntry[],
  t: number,
  offered: ReadonlySet<string>,
): Message[] {
  const made = calls.flatMap((call, i) => {
    const tools = typeof call.tool === "string" ? [call.tool] : call.tool;
    const name = tools.find((candidate) => offered.has(candidate));
    return name === undefined ? [] : [{ call, name, id: `turn_${t + 1}_${i + 1}` }];
  });
  const control = made
    .map(({ name }) => CONTROL_NAMES.find((candidate) => candidate === name))
    .find((name) => name !== undefined);
  if (made.length === 0 || control !== undefined)
    return [
      { role: "user", content: turn.user },
      { role: "assistant", content: GOLD_TEXT[control ?? "no_tool_offered"] },
    ];
  return [
    { role: "user", content: turn.user },
    {
      role: "assistant",
      tool_calls: made.map(({ call, name, id }) => ({
        id,
        name,
        arguments: exactArguments(call.args ?? {}),
      })),
    },
    ...made.map(({ call, name, id }): Message => {
      const result = call.result ?? turn.result ?? DEFAULT_RESULT;
      return {
        role: "tool",
        tool_call_id: id,
        name,
        content: typeof result === "string" ? result : JSON.stringify(result),
      };
    }),
  ];
}

/** A call-set turn's keys in the single-decision shape; its results by tool become step stubs when it takes steps. */
export function callSetOfTurn(turn: TurnEntry): Partial<CaseEntry> {
  if (turn.calls === undefined) return {};
  const steps = turn.max_steps ?? 1;
  return {
    calls: turn.calls,
    ...(turn.order === undefined ? {} : { order: turn.order }),
    ...(turn.allow_extra === undefined ? {} : { allow_extra: turn.allow_extra }),
    ...(turn.max_steps === undefined ? {} : { max_steps: turn.max_steps }),
    ...(steps > 1 && turn.results !== undefined
      ? { results: Object.entries(turn.results).map(([tool, result]) => ({ tool, result })) }
      : {}),
  };
}

/** A turn's own gold history: the model's replies and the results of its calls, each result answering a call before it. */
export function checkGold(gold: Message[], fail: (index: number, message: string) => never): void {
  const ids = new Set<string>();
  gold.forEach((message, index) => {
    if (message.role === "user")
      fail(
        index,
        `gold[${index}] is a user message; gold is what the model did after this turn's user message`,
      );
    if (message.role === "assistant") for (const call of message.tool_calls ?? []) ids.add(call.id);
    if (message.role === "tool" && !ids.has(message.tool_call_id))
      fail(
        index,
        `gold[${index}] answers call "${message.tool_call_id}", which no earlier gold message made`,
      );
  });
}

/** The arguments a gold call is written with: the exact values the turn expects ({pattern} ones are left out). */
function exactArguments(expectations: Record<string, ArgExpectation>): JsonObject {
  return Object.fromEntries(
    Object.entries(expectations).filter(
      ([, value]) =>
        !(isRecord(value) && typeof value.pattern === "string" && Object.keys(value).length === 1),
    ),
  );
}
