/**
 * The routing ladder (docs/metrics.md): locate the first rung a trial failed from the sets its record
 * keeps, and type selection failures. Pure: the sets are the evidence and the truth.
 */
import { ABSTAIN, ASK } from "../types.js";
import type { SelectionError, Stage, TrialRecord } from "../types.js";
import { intersects } from "./name-sets.js";
import {
  callSetViolated,
  findCallSetStage,
  matchCallSet,
  typeCallSetError,
  type CallSetSets,
} from "./call-set.js";
import { classifyHierarchy } from "./hierarchy.js";

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

/** Classify a call-set decision (classify/call-set.ts): the ladder over each expected call. */
export function classifyCallSet(t: CallSetSets): Classification {
  const failed_stage = findCallSetStage(t);
  return {
    failed_stage,
    selection_error: failed_stage === "selection" ? typeCallSetError(t) : null,
    violated: callSetViolated(t),
  };
}

/** Re-classify a stored record from its sets (records written by other tools may disagree); a call set is matched again from its calls. */
export function classifyRecord(
  record: TrialRecord,
): Classification & Partial<Pick<TrialRecord, "call_set" | "hierarchy">> {
  if (record.call_set !== undefined) {
    const calls = record.calls ?? [];
    const call_set = { ...record.call_set, ...matchCallSet(record.call_set, calls) };
    return {
      ...classifyCallSet({
        ...record,
        calls,
        call_set,
        arguments_error: findArgumentsError(record.argument_errors),
      }),
      call_set,
    };
  }
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
  const sets = {
    acceptable,
    forbidden,
    registry_names,
    exposed_names,
    retrieved_names,
    visible_order,
    selected,
    arguments_error: findArgumentsError(record.argument_errors),
  };
  if (record.hierarchy === undefined) return classifyTrial(sets);
  const { level, ...classification } = classifyHierarchy(sets, record.hierarchy);
  return { ...classification, hierarchy: { ...record.hierarchy, level } };
}
