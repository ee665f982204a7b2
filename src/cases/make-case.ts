/**
 * A routing case made from a decision a case file wrote (load-cases.ts reads and checks them):
 * its own copies of the file's strings, the names and lists of names shared by every case that
 * writes them, one object of fixed shape — what a run of 100,000 cases holds until it asks them.
 */
import type { CaseEntry } from "../config/file-types.js";
import type { CallSetSpec, Case, JsonValue, Registry } from "../types.js";
import { splitPath, type CaseSource } from "./check-case.js";
import type { Decision } from "./conversations.js";

/**
 * The one empty list and the one empty object every case that writes none shares (frozen: nothing
 * adds to them): a run of 100,000 cases does not hold 700,000 empty values (270 bytes a case).
 */
const NONE = Object.freeze([]) as never[];
const NOTHING = Object.freeze({}) as Record<string, never>;

export function toCase(
  { entry, turn, plan }: Decision,
  source: CaseSource,
  registry: Registry,
  hierarchy: NonNullable<Case["hierarchy"]> | null,
  names: Names,
): Case {
  const callSet = callSetOf(entry);
  const list = (written: string[] | undefined): string[] =>
    written === undefined || written.length === 0 ? NONE : names.shareList(written);
  // Every case's own fields first, in one literal: a case with no optional field is one object of
  // fixed shape (a literal with spreads is a third larger).
  const testCase: Case = {
    id: ownCopy(entry.id),
    goal: ownCopy(entry.goal),
    phase: entry.phase == null ? null : names.share(entry.phase),
    acceptable: list(
      hierarchy === null
        ? acceptableOf(entry)
        : [
            ...new Set(
              hierarchy.paths.map(([target, tool]) => (hierarchy.by === "agent" ? target : tool)),
            ),
          ],
    ),
    forbidden: list(entry.forbidden),
    family: entry.family == null ? null : names.share(entry.family),
    tags: list(entry.tags),
    args: entry.args ?? NOTHING,
    context: entry.context ?? NOTHING,
    messages: entry.messages ?? NONE,
    must_see: list(entry.must_see),
    must_not_see: list(entry.must_not_see),
    source,
    registry,
  };
  if (hierarchy !== null) testCase.hierarchy = hierarchy;
  if (entry.todo !== undefined) testCase.todo = entry.todo;
  if (entry.system !== undefined) testCase.system = entry.system;
  if (turn !== null) testCase.turn = turn;
  if (plan !== null) testCase.plan = plan;
  if (callSet !== null) testCase.call_set = callSet;
  if (entry.max_steps !== undefined) testCase.max_steps = entry.max_steps;
  if (entry.prior_steps !== undefined && entry.prior_steps.length > 0)
    testCase.prior_steps = entry.prior_steps;
  if (entry.parallel_tool_calls !== undefined)
    testCase.parallel_tool_calls = entry.parallel_tool_calls;
  if (entry.dispatch !== undefined) testCase.dispatch = entry.dispatch;
  const results = stubsOf(entry);
  if (results !== null) testCase.results = results;
  return testCase;
}

/**
 * A string the YAML reader made, copied: its strings are slices of the file's text, and V8 keeps
 * the whole text while one slice lives (14 MB for 100,000 cases, for their ids and goals).
 */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/**
 * Names (tools, phases, families, tags) and lists of names copied once per load and shared by
 * every case naming them (nothing changes a case's lists).
 */
export interface Names {
  share: (name: string) => string;
  shareList: (names: readonly string[]) => string[];
}

export function newNames(): Names {
  const held = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const share = (name: string): string => {
    let own = held.get(name);
    if (own === undefined) held.set(name, (own = ownCopy(name)));
    return own;
  };
  return {
    share,
    shareList: (names) => {
      const key = JSON.stringify(names);
      let own = lists.get(key);
      if (own === undefined) lists.set(key, (own = names.map(share)));
      return own;
    },
  };
}

/** What calls return between steps: the results written, then each expected call's own result (for calls matching it); null if none. */
function stubsOf(entry: CaseEntry): Case["results"] | null {
  if ((entry.max_steps ?? 1) <= 1) return null;
  const own = (entry.calls ?? []).flatMap((call) =>
    call.result === undefined
      ? []
      : (typeof call.tool === "string" ? [call.tool] : call.tool).map((tool) => ({
          tool,
          ...(call.args === undefined ? {} : { args: call.args }),
          result: call.result as JsonValue,
        })),
  );
  const results = [...(entry.results ?? []), ...own];
  return results.length === 0 ? null : results;
}

/** A case's expected calls as the run holds them: each call's tools a list. */
function callSetOf(entry: CaseEntry): CallSetSpec | null {
  if (entry.calls === undefined) return null;
  return {
    expected: entry.calls.map((call) => ({
      tools: typeof call.tool === "string" ? [call.tool] : call.tool,
      ...(call.args === undefined ? {} : { args: call.args }),
    })),
    order: entry.order ?? "any",
    allow_extra: entry.allow_extra ?? [],
  };
}

/**
 * A case's acceptable tools; for a call set every tool its calls name, once, in order (the ladder's
 * first rungs read them); for a hierarchical case (`target > tool`) the tools inside (loading it
 * against its registry makes them the agents when the targets are agents).
 */
export function acceptableOf(entry: CaseEntry): string[] {
  if (entry.calls === undefined)
    return (entry.acceptable ?? []).map((name) => splitPath(name)?.[1] ?? name);
  return [
    ...new Set(
      entry.calls.flatMap((call) => (typeof call.tool === "string" ? [call.tool] : call.tool)),
    ),
  ];
}
