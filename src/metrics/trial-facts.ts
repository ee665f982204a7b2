/**
 * What a scored trial is, found once per record and shared by the run's metrics, every breakdown
 * (a report computes the metrics of each family, tag and phase too) and diff's trial pairing:
 * the yes/no facts the rate table (types/rates.ts) counts, as bits; the ordinary tools shown; the
 * retriever's ranking quality; and where the first acceptable tool stood.
 */
import { RATE_NAMES, type RateName } from "../types/rates.js";
import {
  ABSTAIN,
  ASK,
  FACTS,
  RATES,
  isControl,
  type Fact,
  type PositionThird,
  type Success,
  type TrialRecord,
} from "../types.js";
import { thirdOfTrial } from "./position.js";
import { qualityOfTrial, type TrialQuality } from "./retrieval-quality.js";

/** Some acceptable tool exists in the registry (of a scored trial: its failed_stage is the ladder's verdict). */
export const isCovered = (t: TrialRecord): boolean => t.failed_stage !== "coverage";
/** Some acceptable tool was exposed by the phase. */
export const isExposed = (t: TrialRecord): boolean =>
  t.failed_stage !== "coverage" && t.failed_stage !== "exposure";
/** Some acceptable tool was visible. */
export const isRetrieved = (t: TrialRecord): boolean =>
  t.failed_stage === null || t.failed_stage === "selection";

/**
 * The right tool *and* its arguments filled right: selected ∈ acceptable, the arguments parse and
 * are valid against the schema shown, and the case's stated expectations hold. The ladder stops
 * at selection (arguments belong to the action boundary); this is the figure beside it.
 */
export function isRightCall(t: TrialRecord): boolean {
  // A call set: every expected call matched (no extra, order kept) with its arguments valid and as expected.
  if (t.call_set !== undefined)
    return (
      t.call_set.exact &&
      !t.call_set.args_match.includes(false) &&
      !t.call_set.args_valid.includes(false)
    );
  return (
    pickedAcceptable(t) &&
    (t.argument_errors === null || t.argument_errors.length === 0) &&
    t.argument_match !== false
  );
}

/** An acceptable pick: of a hierarchical agent decision, the agent's pick inside it too. */
function pickedAcceptable(t: TrialRecord): boolean {
  if (t.selected === null || !t.acceptable.includes(t.selected)) return false;
  return t.hierarchy?.level !== "inside";
}

/** Whether a trial counts as correct for pass^k, JUnit and flips, by the run's `success`. */
export function isSuccess(t: TrialRecord, success: Success = "selection"): boolean {
  return t.failed_stage === null && (success === "selection" || isRightCall(t));
}

/** The predicate of every fact the rates count (exhaustive: a new fact cannot be left undecided). */
const FACT_HOLDS: Record<Fact, (t: TrialRecord) => boolean> = {
  covered: isCovered,
  exposed: isExposed,
  retrieved: isRetrieved,
  picked_acceptable: (t) => (t.call_set !== undefined ? t.call_set.exact : pickedAcceptable(t)),
  end_to_end: (t) => t.failed_stage === null,
  abstain_acceptable: (t) => t.acceptable.includes(ABSTAIN),
  abstained: (t) => t.selected === ABSTAIN,
  violated: (t) => t.violated,
  // An ordinary tool's call with its arguments checked (a control's empty arguments say nothing about filling a schema).
  tool_arguments: (t) => t.argument_errors !== null && !isControl(t.selected ?? ""),
  arguments_valid: (t) => t.argument_errors?.length === 0,
  arguments_checked: (t) => t.argument_match !== null,
  arguments_match: (t) => t.argument_match === true,
  right_call: isRightCall,
  asked: (t) => t.selected === ASK,
  phantom: (t) =>
    t.call_set !== undefined
      ? (t.calls ?? []).some((call) => !t.visible_order.includes(call.tool))
      : t.selected !== null && !t.visible_order.includes(t.selected),
  no_call: (t) => t.selected === null,
  // A call set expects several calls: an extra one is a call matched to none and not allowed.
  extra_call: (t) => (t.call_set !== undefined ? t.call_set.extra.length > 0 : t.tool_calls > 1),
};

const bitOf = (fact: Fact): number => 1 << FACTS.indexOf(fact);
const maskOf = (facts: readonly Fact[]): number =>
  facts.reduce((mask, fact) => mask | bitOf(fact), 0);

/** Each rate of the table as [population mask, success mask], in RATE_NAMES order. */
export const RATE_MASKS: readonly (readonly [number, number])[] = RATE_NAMES.map(
  (name) => [maskOf(RATES[name].population), maskOf(RATES[name].success)] as const,
);

export interface TrialFacts {
  bits: number;
  /** Ordinary tools shown, controls apart: the same count as a sweep's "visible" column. */
  visible: number;
  /** How the retriever ranked the acceptable tools; null without a recorded ranking or with none of them ranked. */
  quality: TrialQuality | null;
  /** The third of the list holding the first acceptable tool shown; null when none was shown. */
  third: PositionThird | null;
}

/** A record's facts, found afresh (factsOf remembers them per record). */
export function findFacts(t: TrialRecord): TrialFacts {
  let bits = 0;
  for (let f = 0; f < FACTS.length; f++) if (FACT_HOLDS[FACTS[f]](t)) bits |= 1 << f;
  let visible = 0;
  for (const name of t.visible_order) if (!isControl(name)) visible += 1;
  return { bits, visible, quality: qualityOfTrial(t), third: thirdOfTrial(t) };
}

/** One per scored record (scored records are shared by the run and its breakdowns). */
const factsOfRecord = new WeakMap<TrialRecord, TrialFacts>();

export function factsOf(t: TrialRecord): TrialFacts {
  let facts = factsOfRecord.get(t);
  if (facts === undefined) factsOfRecord.set(t, (facts = findFacts(t)));
  return facts;
}

/** Rate name → success, for each rate whose population holds the trial (diff pairs trials by these). */
export function outcomesOf(t: TrialRecord): Map<RateName, boolean> {
  const { bits } = factsOf(t);
  const out = new Map<RateName, boolean>();
  RATE_NAMES.forEach((name, r) => {
    const [population, success] = RATE_MASKS[r];
    if ((bits & population) === population) out.set(name, (bits & success) === success);
  });
  return out;
}
