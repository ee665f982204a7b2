/**
 * The nearest rival of a case's expected tool, and the fix its failing rung points to:
 * coverage → build a tool, exposure → fix an exposure rule, discovery → improve retrieval,
 * selection → sharpen one pair of descriptions.
 */
import { findModal, labelAcceptable, NO_CALL_LABEL } from "../metrics/scored-trials.js";
import { tokenize } from "../text/tokenize.js";
import { SELECTION_ERRORS, isControl } from "../types.js";
import type { HiddenReason, Rival, SelectionError, Stage, TrialRecord } from "../types.js";
import { bestAcceptable } from "./explain-ladder.js";
import type { CaseFacts, FixView, HiddenTool, RivalView, ToolText } from "../types/explain.js";
import { formatDecimal, plural } from "../render/format.js";

export const FIX_ACTIONS: Record<Stage, string> = {
  coverage: "build a tool",
  exposure: "fix an exposure rule",
  discovery: "improve retrieval",
  selection: "sharpen one pair of descriptions",
};

/** The acceptable tool to compare against: a visible one, else a registered one, else the first. */
export function pickExpected(f: CaseFacts): string {
  // A hierarchical case whose agent was right and its tool inside wrong: the tool is what to compare.
  const inside = f.trial_views.some((v) => v.level === "inside");
  if (inside && f.paths !== undefined) return f.paths[0][1];
  return (
    f.acceptable.find((name) => f.visible_order.includes(name)) ??
    f.registry.acceptable_present[0] ??
    f.acceptable[0]
  );
}

/** The tool most often chosen instead in this case; else the run-wide rival of the same expected label. */
export function findRival(
  f: CaseFacts,
  descriptions: Record<string, string>,
  rivals: Rival[],
): RivalView | null {
  const text = (name: string): ToolText => ({ name, description: descriptions[name] ?? null });
  const counts: Record<string, number> = {};
  for (const v of f.trial_views) {
    if (v.error === null && v.selected !== null && !v.acceptable)
      counts[v.selected] = (counts[v.selected] ?? 0) + 1;
  }
  const modal = findModal(counts);
  const expected = text(pickExpected(f));
  if (modal !== null)
    return { expected, rival: text(modal.key), count: modal.count, of: f.scored, scope: "case" };
  const label = labelAcceptable(f.acceptable);
  const run = rivals.find((r) => r.expected === label && r.rival !== NO_CALL_LABEL);
  return run === undefined
    ? null
    : { expected, rival: text(run.rival), count: run.count, of: run.of, scope: "run" };
}

type FixFacts = CaseFacts & { rival: RivalView | null };
type Detail = (
  f: FixFacts,
  scored: TrialRecord[],
  descriptions: Record<string, string>,
) => string[];

const RULE_FIXES: Record<HiddenReason, (tool: HiddenTool, phase: string) => string> = {
  family: (tool, phase) => `add "${tool.family ?? "?"}" to phases.${phase}.families`,
  effect: (tool, phase) => `raise phases.${phase}.max_effect to ${tool.effect ?? "?"}`,
  open_world: (_tool, phase) => `set phases.${phase}.open_world to true`,
  withheld: (tool) =>
    `the conversation adds ${tool.name} only at a later turn: add it at this turn, or expect another tool here`,
  removed: (tool) => `an earlier turn removed ${tool.name}: keep it, or expect another tool here`,
};

const DETAILS: Record<Stage, Detail> = {
  coverage: (f) => [
    `No registered tool can do this: ${f.acceptable.join(", ")} ${f.acceptable.length === 1 ? "is" : "are"} not in the registry.`,
    `Build it (and add it to the registry snapshot), or, if the agent should decline, make the case's acceptable [no_applicable_tool].`,
  ],
  exposure: (f) => {
    const phase = f.exposure.phase ?? "?";
    const lines = f.exposure.hidden_acceptable.map((tool) =>
      tool.rules.length === 0
        ? `${tool.name} is hidden in phase ${phase}, but run.json does not say why (no definition or policy).`
        : `${tool.name} is hidden in phase ${phase} by ${tool.rules.join(" and ")}: ${tool.rules.map((rule) => RULE_FIXES[rule](tool, phase)).join(", and ")} to admit it.`,
    );
    return [
      ...lines,
      `If the phase is right to hide it, the case expects the wrong tool: change acceptable, or run the case in a phase that admits it.`,
    ];
  },
  discovery: (f, scored, descriptions) => {
    if (scored.some((t) => t.search !== undefined)) return searchFix(f, scored);
    const best = f.discovery.ranking === null ? null : bestAcceptable(f.discovery.ranking);
    if (best === null)
      return [
        `No acceptable tool was visible, and the retriever's scores were not recorded.`,
        `Raise k, or make the acceptable tools' purpose and use_when say what this goal asks.`,
      ];
    const missing = missingGoalWords(f.goal, descriptions[best.name] ?? "");
    const words = missing.length === 0 ? "" : ` (goal word stems it lacks: ${missing.join(", ")})`;
    const kept = f.discovery.ranking?.filter((t) => t.kept).length ?? 0;
    return [
      `${best.name} ranked #${best.rank} of ${f.discovery.exposed} for this goal (score ${formatDecimal(best.score)}); k=${f.discovery.k ?? "?"} kept only the top ${kept}.`,
      `Raise k to at least ${best.rank}, or put the goal's words in ${best.name}'s purpose or use_when${words}.`,
    ];
  },
  selection: (f, scored) => {
    const expected = f.rival?.expected.name ?? pickExpected(f);
    const type = modalSelectionError(scored) ?? "wrong_tool";
    return SELECTION_FIXES[type](expected, f);
  },
};

/** A tool-search run's discovery failures: what the model searched for, and what would have loaded the tool. */
function searchFix(f: FixFacts, scored: TrialRecord[]): string[] {
  const failed = scored.filter((t) => t.failed_stage === "discovery" && t.search !== undefined);
  const unsearched = failed.filter((t) => t.search?.searches.length === 0).length;
  const queries = [
    ...new Set(failed.flatMap((t) => t.search?.searches.map((s) => s.query ?? "(no query)") ?? [])),
  ];
  const expected =
    f.acceptable.filter((name) => !isControl(name)).join(", ") || f.acceptable.join(", ");
  const lines = [
    unsearched === failed.length
      ? `The model never searched: it chose among the ${plural(failed[0]?.search?.always_loaded.length ?? 0, "tool")} loaded up front.`
      : `No search loaded ${expected}; the model searched for ${queries
          .slice(0, 3)
          .map((q) => JSON.stringify(q))
          .join(
            ", ",
          )}${queries.length > 3 ? ` and ${queries.length - 3} more` : ""}${unsearched > 0 ? ` (${unsearched} of ${failed.length} trials did not search)` : ""}.`,
  ];
  lines.push(
    `Put the words this goal and those queries use in ${expected}'s purpose or use_when, raise tool_search.k, or keep it loaded (tool_search.always_loaded).`,
  );
  return lines;
}

const SELECTION_FIXES: Record<SelectionError, (expected: string, f: FixFacts) => string[]> = {
  wrong_tool: (x, f) => {
    const r = f.rival?.rival.name ?? "the rival";
    if (isControl(x)) {
      return [
        `The model chose ${r} instead of ${x} on ${f.rival?.count ?? 0} of ${f.scored} trials.`,
        `${x} is a trusted control (its text is route-eval's), so sharpen ${r}: add an avoid_when that excludes this goal (e.g. when input it needs is missing or the request is out of scope).`,
      ];
    }
    return [
      `The model chose ${r} instead of ${x} on ${f.rival?.count ?? 0} of ${f.scored} trials.`,
      `Sharpen this pair: add a use_when to ${x} that covers this goal, and an avoid_when to ${r} that excludes it.`,
    ];
  },
  phantom_tool: (x, f) => [
    `The model called ${f.rival?.rival.name ?? "a tool"}, which was not visible (a phantom tool).`,
    `Make ${x}'s name and purpose say plainly what this goal asks, so the visible tool is the obvious one.`,
  ],
  no_call: (x) => [
    `The model answered in text instead of calling a tool.`,
    `Make ${x}'s purpose state this request plainly, so that calling it is clearly the next step.`,
  ],
  abstained: (x) => [
    `The model declined (no_applicable_tool) although ${x} applied.`,
    `Add this kind of request to ${x}'s use_when; if declining is right, add no_applicable_tool to acceptable.`,
  ],
  asked: (x) => [
    `The model asked the user (ask_user) although the goal held what ${x} needs.`,
    `Say in ${x}'s use_when what input suffices; if something is missing indeed, add ask_user to acceptable.`,
  ],
  malformed: (x) => [
    `The model's arguments did not parse.`,
    `Simplify ${x}'s input_schema (enums over free strings, fewer and flatter parameters).`,
  ],
  missed_call: (x) => [
    `The model's calls were right but too few: an expected call (${x}) was not made.`,
    `Say in the goal's tools' use_when that they are used together (e.g. "call this beside …"), or raise max_steps if the model stopped at the bound.`,
  ],
  wrong_order: (x) => [
    `The model made the expected calls (${x}), but not in the order the case requires.`,
    `Say in each tool's use_when what must come before it (e.g. "after looking the order up").`,
  ],
};

/** The most frequent selection-error type (ties: vocabulary order), or null. */
function modalSelectionError(scored: TrialRecord[]): SelectionError | null {
  let modal: SelectionError | null = null;
  let most = 0;
  for (const type of SELECTION_ERRORS) {
    const count = scored.filter((t) => t.selection_error === type).length;
    if (count > most) [modal, most] = [type, count];
  }
  return modal;
}

/** Goal words (stems, stopwords dropped) the description does not contain. */
function missingGoalWords(goal: string | null, description: string): string[] {
  if (goal === null) return [];
  const have = new Set(tokenize(description));
  return [...new Set(tokenize(goal))].filter((word) => !have.has(word));
}

/** The fix of the case's earliest failing rung; null when every scored trial was correct. */
export function findFix(
  f: FixFacts,
  scored: TrialRecord[],
  descriptions: Record<string, string>,
): FixView | null {
  if (f.stage === null) return null;
  return {
    stage: f.stage,
    action: FIX_ACTIONS[f.stage],
    detail: DETAILS[f.stage](f, scored, descriptions),
  };
}
