/**
 * The routing ladder (docs/metrics.md): locate the first rung a trial failed from the sets its record
 * keeps, and type selection failures. Pure: the sets are the evidence and the truth.
 */
import { ABSTAIN, ASK } from "../types.js";
import type { SelectionError, Stage, TrialRecord } from "../types.js";

/** `argument_errors` entries with this prefix mean the call's arguments did not parse at all. */
export const UNPARSEABLE_PREFIX = "unparseable arguments";

/** The sets one trial is classified from (retrieved_names is the visible set: controls ∪ retrieved tools). */
export type TrialSets = Pick<
  TrialRecord,
  | "acceptable"
  | "forbidden"
  | "registry_names"
  | "exposed_names"
  | "retrieved_names"
  | "visible_order"
  | "selected"
> & {
  /** Why the arguments did not parse, or null when they parsed (or there was no call). */
  arguments_error: string | null;
};

/** The classification fields of a record. */
export type Classification = Pick<TrialRecord, "failed_stage" | "selection_error" | "violated">;

/** True when some acceptable tool is among `names`. */
export function intersects(acceptable: readonly string[], names: readonly string[]): boolean {
  // acceptable is tiny (1–3 names): a linear scan of a short list beats any Set; a long list (a
  // registry, an exposed set) is shared by every record of a run, so its Set is built once.
  if (names.length <= LINEAR_SCAN) {
    for (const name of acceptable) if (names.includes(name)) return true;
    return false;
  }
  const members = memberSet(names);
  for (const name of acceptable) if (members.has(name)) return true;
  return false;
}

const LINEAR_SCAN = 32;

/** The names of a list as a Set, one per list object (records share their registry and exposed lists). */
export function memberSet(names: readonly string[]): ReadonlySet<string> {
  let members = memberSets.get(names);
  if (members === undefined) memberSets.set(names, (members = new Set(names)));
  return members;
}

const memberSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The first rung that fails: coverage → exposure → discovery → selection, or null when correct. */
export function findFailedStage(t: TrialSets): Stage | null {
  if (!intersects(t.acceptable, t.registry_names)) return "coverage";
  if (!intersects(t.acceptable, t.exposed_names)) return "exposure";
  if (!intersects(t.acceptable, t.retrieved_names)) return "discovery";
  if (t.selected === null || !t.acceptable.includes(t.selected)) return "selection";
  return null;
}

/** Why a trial that reached selection chose wrong; the first matching type wins. */
export function typeSelectionError(t: TrialSets): SelectionError {
  if (t.selected === null) return "no_call";
  if (!t.visible_order.includes(t.selected)) return "phantom_tool";
  if (t.selected === ABSTAIN) return "abstained";
  if (t.selected === ASK) return "asked";
  if (t.arguments_error !== null) return "malformed";
  return "wrong_tool";
}

/** Classify one trial. `violated` is independent of the stage: a covered-or-not forbidden pick still counts. */
export function classifyTrial(t: TrialSets): Classification {
  const failed_stage = findFailedStage(t);
  return {
    failed_stage,
    selection_error: failed_stage === "selection" ? typeSelectionError(t) : null,
    violated: t.selected !== null && t.forbidden.includes(t.selected),
  };
}

/** The parse failure recorded in `argument_errors`, or null when the arguments parsed. */
export function findArgumentsError(argumentErrors: string[] | null): string | null {
  return argumentErrors?.find((message) => message.startsWith(UNPARSEABLE_PREFIX)) ?? null;
}

/** Re-classify a stored record from its sets (records written by other tools may disagree). */
export function classifyRecord(record: TrialRecord): Classification {
  // The sets by name, not a spread of the whole record: this runs once per record of every report.
  const {
    acceptable,
    forbidden,
    registry_names,
    exposed_names,
    retrieved_names,
    visible_order,
    selected,
  } = record;
  return classifyTrial({
    acceptable,
    forbidden,
    registry_names,
    exposed_names,
    retrieved_names,
    visible_order,
    selected,
    arguments_error: findArgumentsError(record.argument_errors),
  });
}
