/**
 * Conversation cases, turned into the decisions a run asks: one per turn, teacher-forced. Turn t
 * is asked with the gold history of the turns before it — each user message and what a correct
 * model did there: the call of the first acceptable tool that turn offered (with the exact values
 * its `args` expect) and its gold `result`; or, where the first acceptable move the turn offered is
 * a control, or it offered no acceptable tool at all, a text reply (GOLD_TEXT) — never a
 * successful call of a tool the turn did not show — and with its own tool surface: the phase in effect at t (a turn's `phase` holds from
 * it on), then the tools added up to t (exposed whatever the phase says), minus the tools removed
 * up to t and the tools a later turn adds (withheld until then). Every surface is derived here,
 * before any call, and every mistake is a line-numbered error.
 */
import type {
  CaseEntry,
  CasesFile,
  ConversationEntry,
  ExpectedCallEntry,
  TurnEntry,
} from "../config/file-types.js";
import type { YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { expose } from "../exposure/expose.js";
import { isRecord } from "../json-schema/describe-errors.js";
import type { JsonPath } from "../types/json.js";
import {
  CONTROL_NAMES,
  type ControlName,
  type ArgExpectation,
  type Config,
  type ConversationTurn,
  type JsonObject,
  type JsonValue,
  type Message,
  type Registry,
  type TurnPlan,
} from "../types.js";

/** The keys of a call set (docs/call-sets.md): a single decision's only. */
export const CALL_SET_KEYS = ["calls", "order", "allow_extra", "max_steps", "results"] as const;

/** The most turns a conversation may hold (docs/conversations.md). */
export const MAX_TURNS = 1_000;

/** The separator of a turn's id: `<conversation>@<turn>`. */
export const TURN_SEPARATOR = "@";

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

/** The id of a conversation's turn, as a case: `<conversation>@<turn>`. */
export function turnId(conversation: string, index: number): string {
  return `${conversation}${TURN_SEPARATOR}${index}`;
}

export function isConversation(entry: CaseEntry | ConversationEntry): entry is ConversationEntry {
  return "turns" in entry && Array.isArray(entry.turns);
}

/** One decision of a case file: a case as written, or one turn of a conversation. */
export interface Decision {
  /** The decision in the single-case shape: a turn's goal is its user message, its messages the gold history. */
  entry: CaseEntry;
  /** Where it is written in the file: ["cases", i] or ["cases", i, "turns", t]. */
  at: JsonPath;
  /** A turn's parts for on-policy asking; null for a single decision. */
  plan: TurnPlan | null;
  /** The key holding its request: goal, or a turn's user. */
  goalKey: "goal" | "user";
  turn: ConversationTurn | null;
}

type Surface = Pick<Registry, "snapshot" | "tools">;

/** Every decision of a case file, conversations expanded turn by turn against `registry`. */
export function listDecisions(
  yaml: YamlFile,
  written: CasesFile,
  registry: Surface,
  config: Pick<Config, "phases" | "exposure" | "controls">,
): Decision[] {
  return written.cases.flatMap((entry, index): Decision[] => {
    const fail = (key: string, message: string): never => {
      throw new InputError(
        at(yaml.shown, yaml.lineOf(["cases", index, key]), `case "${entry.id}": ${message}`),
      );
    };
    if (isConversation(entry)) {
      for (const key of ["goal", "acceptable", "forbidden", "args", "must_see", "must_not_see"]) {
        if (key in entry)
          fail(
            key,
            `a conversation (turns:) has no ${key} of its own; each turn gives its user message${key === "goal" ? "" : ` and its ${key}`}`,
          );
      }
      for (const key of CALL_SET_KEYS) {
        if (key in entry)
          fail(
            key,
            key === "results"
              ? "a conversation's results: belong to its turns (tool name → what a call returns there)"
              : `a conversation has no ${key}: of its own; give it in the turn that expects the calls`,
          );
      }
      return expandConversation(yaml, entry, index, registry, config);
    }
    const single: Partial<CaseEntry> = entry;
    if (single.goal === undefined)
      fail("id", "has no goal: give the user's request (goal:), or turns: for a conversation");
    if (single.acceptable === undefined && single.calls === undefined && single.todo === undefined)
      fail(
        "goal",
        "has no acceptable: the tools any of which is correct (or [ask_user] / [no_applicable_tool]), or calls: the calls expected",
      );
    return [{ entry, at: ["cases", index], goalKey: "goal", turn: null, plan: null }];
  });
}

function expandConversation(
  yaml: YamlFile,
  conversation: ConversationEntry,
  index: number,
  registry: Surface,
  config: Pick<Config, "phases" | "exposure" | "controls">,
): Decision[] {
  const fail = (path: JsonPath, message: string): never => {
    throw new InputError(
      at(yaml.shown, yaml.lineOf(path), `case "${conversation.id}": ${message}`),
    );
  };
  const known = new Set(registry.tools.map((tool) => tool.name));
  const turns = conversation.turns;
  // Each turn is asked with every turn before it: the requests, and the work of hashing and
  // sending them, grow with the square of the turns.
  if (turns.length > MAX_TURNS)
    fail(
      ["cases", index, "turns"],
      `${turns.length.toLocaleString("en")} turns; a conversation holds at most ${MAX_TURNS.toLocaleString("en")} (each turn is sent with all the turns before it, so the work grows with the square of the turns): split it into conversations of at most ${MAX_TURNS.toLocaleString("en")}, each with its prior turns as messages`,
    );
  const path = (t: number, ...rest: (string | number)[]): JsonPath => [
    "cases",
    index,
    "turns",
    t,
    ...rest,
  ];
  // Every turn expects a decision; every name it adds, removes or stubs is a registry tool (a control is always there).
  turns.forEach((turn, t) => {
    for (const name of Object.keys(turn.results ?? {})) {
      if (!known.has(name) && !CONTROL_NAMES.some((control) => control === name))
        fail(
          path(t, "results", name),
          `turn ${t + 1}: results names "${name}", which registry ${registry.snapshot} does not have`,
        );
    }
    checkGold(turn.gold ?? [], (i, message) =>
      fail(path(t, "gold", i), `turn ${t + 1}: ${message}`),
    );
    if (turn.acceptable === undefined && turn.calls === undefined)
      fail(
        path(t, "user"),
        `turn ${t + 1} has no decision: give its acceptable tools (or [ask_user] / [no_applicable_tool]), or calls: the calls expected`,
      );
    for (const key of ["add", "remove"] as const) {
      (turn[key] ?? []).forEach((name, i) => {
        if (CONTROL_NAMES.some((control) => control === name))
          fail(
            path(t, key, i),
            `turn ${t + 1}: ${key} names "${name}", a control, which every turn shows`,
          );
        if (!known.has(name))
          fail(
            path(t, key, i),
            `turn ${t + 1}: ${key} names "${name}", which registry ${registry.snapshot} does not have`,
          );
      });
    }
  });
  const addedAt = new Map<string, number>();
  turns.forEach((turn, t) =>
    (turn.add ?? []).forEach((name) => (addedAt.has(name) ? undefined : addedAt.set(name, t))),
  );
  const decisions: Decision[] = [];
  const added = new Set<string>();
  const removed = new Set<string>();
  let phase = conversation.phase ?? null;
  const history: Message[] = [...(conversation.messages ?? [])];
  turns.forEach((turn, t) => {
    if (turn.phase !== undefined) phase = turn.phase;
    for (const name of turn.add ?? []) {
      added.add(name);
      removed.delete(name);
    }
    const withheld = [...addedAt]
      .filter(([, first]) => first > t)
      .map(([name]) => name)
      .filter((name) => !added.has(name));
    const policy =
      phase === null || config.exposure === "off" ? null : (config.phases[phase] ?? null);
    const before = new Set([
      ...expose(registry.tools, policy, []).exposed.filter(
        (name) => !withheld.includes(name) && !removed.has(name),
      ),
      ...added,
    ]);
    (turn.remove ?? []).forEach((name, i) => {
      if (!before.has(name))
        fail(
          path(t, "remove", i),
          `turn ${t + 1}: remove names "${name}", which is not exposed at that turn${added.has(name) || removed.has(name) ? "" : ` (${phase === null ? "a later turn adds it" : `phase ${phase} hides it or a later turn adds it`})`}`,
        );
      removed.add(name);
      added.delete(name);
    });
    const id = turnId(conversation.id, t + 1);
    decisions.push({
      entry: {
        id,
        goal: turn.user,
        phase,
        ...(turn.acceptable === undefined ? {} : { acceptable: turn.acceptable }),
        ...callSetOfTurn(turn),
        ...(turn.forbidden === undefined ? {} : { forbidden: turn.forbidden }),
        ...(conversation.family === undefined ? {} : { family: conversation.family }),
        ...(conversation.tags === undefined ? {} : { tags: conversation.tags }),
        ...(turn.args === undefined ? {} : { args: turn.args }),
        ...(conversation.context === undefined ? {} : { context: conversation.context }),
        messages: [...history],
      },
      at: path(t),
      goalKey: "user",
      plan: {
        prior: [...(conversation.messages ?? [])],
        user: turn.user,
        result: turn.result ?? DEFAULT_RESULT,
        results: turn.results ?? {},
      },
      turn: {
        conversation: conversation.id,
        index: t + 1,
        of: turns.length,
        added: [...added],
        removed: [...removed],
        withheld,
        added_now: (turn.add ?? []).filter((name) => !(turn.remove ?? []).includes(name)),
      },
    });
    // What the turn offered: its surface after its own removals, and the configured controls.
    const offered = new Set([
      ...[...before].filter((name) => !(turn.remove ?? []).includes(name)),
      ...config.controls,
    ]);
    history.push(...goldExchange(turn, t, offered));
  });
  return decisions;
}

/**
 * A turn as the history of the turns after it: the user's message and what a correct model did —
 * the call of the first acceptable tool the turn offered, with its gold result; else a text reply.
 */
function goldExchange(turn: TurnEntry, t: number, offered: ReadonlySet<string>): Message[] {
  if (turn.gold !== undefined) return [{ role: "user", content: turn.user }, ...turn.gold];
  if (turn.calls !== undefined) return goldCalls(turn, turn.calls, t, offered);
  const name = (turn.acceptable ?? []).find((candidate) => offered.has(candidate));
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
function callSetOfTurn(turn: TurnEntry): Partial<CaseEntry> {
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
function checkGold(gold: Message[], fail: (index: number, message: string) => never): void {
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
