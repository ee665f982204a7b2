/**
 * Conversation cases, turned into the decisions a run asks: one per turn, teacher-forced. Turn t
 * is asked with the gold history of the turns before it — each user message and what a correct
 * model did there: the call of the first acceptable tool that turn offered (with the exact values
 * its `args` expect) and its gold `result`; or, where the first acceptable move the turn offered is
 * a control, or it offered no acceptable tool at all, a text reply (GOLD_TEXT, gold-history.ts) —
 * never a successful call of a tool the turn did not show — and with its own tool surface: the phase in effect at t (a turn's `phase` holds from
 * it on), then the tools added up to t (exposed whatever the phase says), minus the tools removed
 * up to t and the tools a later turn adds (withheld until then). Every surface is derived here,
 * before any call, and every mistake is a line-numbered error.
 */
import type { CaseEntry, CasesFile, ConversationEntry } from "../config/file-types.js";
import type { YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { expose } from "../exposure/expose.js";
import type { JsonPath } from "../types/json.js";
import { DEFAULT_RESULT, callSetOfTurn, checkGold, goldExchange } from "./gold-history.js";
import {
  CONTROL_NAMES,
  type Config,
  type ConversationTurn,
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
