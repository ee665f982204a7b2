/**
 * What a scored trial is, found once per record and shared by the run's metrics and every
 * breakdown (a report computes the metrics of each family, tag and phase too): the yes/no facts
 * the rates count, as bits; the ordinary tools shown; the retriever's ranking quality; and where
 * the first acceptable tool stood.
 */
import { isRightCall } from "../classify/classify-trial.js";
import { ABSTAIN, ASK, isControl, type PositionThird, type TrialRecord } from "../types.js";
import { thirdOfTrial } from "./position.js";
import { qualityOfTrial, type TrialQuality } from "./retrieval-quality.js";
import { isCovered, isExposed, isRetrieved } from "./scored-trials.js";

export const FACT = {
  COVERED: 1 << 0,
  EXPOSED: 1 << 1,
  RETRIEVED: 1 << 2,
  PICKED_ACCEPTABLE: 1 << 3,
  END_TO_END: 1 << 4,
  ABSTAIN_ACCEPTABLE: 1 << 5,
  ABSTAINED: 1 << 6,
  VIOLATED: 1 << 7,
  /** An ordinary tool's call with its arguments checked (a control's empty arguments say nothing about filling a schema). */
  TOOL_ARGUMENTS: 1 << 8,
  ARGUMENTS_VALID: 1 << 9,
  ARGUMENTS_CHECKED: 1 << 10,
  ARGUMENTS_MATCH: 1 << 11,
  RIGHT_CALL: 1 << 12,
  ASKED: 1 << 13,
  PHANTOM: 1 << 14,
  NO_CALL: 1 << 15,
  EXTRA_CALL: 1 << 16,
} as const;

export interface TrialFacts {
  bits: number;
  /** Ordinary tools shown, controls apart: the same count as a sweep's "visible" column. */
  visible: number;
  /** How the retriever ranked the acceptable tools; null without a recorded ranking or with none of them ranked. */
  quality: TrialQuality | null;
  /** The third of the list holding the first acceptable tool shown; null when none was shown. */
  third: PositionThird | null;
}

function findFacts(t: TrialRecord): TrialFacts {
  let bits = 0;
  const set = (fact: number, holds: boolean) => {
    if (holds) bits |= fact;
  };
  set(FACT.COVERED, isCovered(t));
  set(FACT.EXPOSED, isExposed(t));
  set(FACT.RETRIEVED, isRetrieved(t));
  set(FACT.PICKED_ACCEPTABLE, t.selected !== null && t.acceptable.includes(t.selected));
  set(FACT.END_TO_END, t.failed_stage === null);
  set(FACT.ABSTAIN_ACCEPTABLE, t.acceptable.includes(ABSTAIN));
  set(FACT.ABSTAINED, t.selected === ABSTAIN);
  set(FACT.VIOLATED, t.violated);
  set(FACT.TOOL_ARGUMENTS, t.argument_errors !== null && !isControl(t.selected ?? ""));
  set(FACT.ARGUMENTS_VALID, t.argument_errors?.length === 0);
  set(FACT.ARGUMENTS_CHECKED, t.argument_match !== null);
  set(FACT.ARGUMENTS_MATCH, t.argument_match === true);
  set(FACT.RIGHT_CALL, isRightCall(t));
  set(FACT.ASKED, t.selected === ASK);
  set(FACT.PHANTOM, t.selected !== null && !t.visible_order.includes(t.selected));
  set(FACT.NO_CALL, t.selected === null);
  set(FACT.EXTRA_CALL, t.tool_calls > 1);
  let visible = 0;
  for (const name of t.visible_order) if (!isControl(name)) visible += 1;
  return { bits, visible, quality: qualityOfTrial(t), third: thirdOfTrial(t) };
}

/** One per scored record (scored copies are shared, see scored-trials.ts). */
const factsOfRecord = new WeakMap<TrialRecord, TrialFacts>();

export function factsOf(t: TrialRecord): TrialFacts {
  let facts = factsOfRecord.get(t);
  if (facts === undefined) factsOfRecord.set(t, (facts = findFacts(t)));
  return facts;
}
