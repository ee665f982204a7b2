/**
 * What one case's records add to every metric, gathered in one pass over the records: counts,
 * and the few per-trial values whose floating-point sums depend on their order. The run's
 * metrics, each breakdown slice (a set of cases) and the case rows are all computed from these,
 * so no slice reads the records again; record-tally.ts counts a run's records into them as they
 * come. Tallies hold no record except a conversation's turns and each case's lowest-numbered trial.
 */
import { RATE_NAMES } from "../types/rates.js";
import {
  FACTS,
  SELECTION_ERRORS,
  STAGES,
  type SelectionError,
  type Stage,
  type Success,
  type TrialRecord,
} from "../types.js";
import { findFacts, RATE_MASKS } from "./trial-facts.js";
import { labelAcceptable, labelSelected } from "./scored-trials.js";
import { clusterOf } from "./wilson.js";
import { sameList } from "../text/same-list.js";
import { addQuality, newQualityTally, type QualityTally } from "./retrieval-quality.js";
import { addCallSet, newCallSetSums } from "./call-sets.js";
import { addSearch, newSearchSums } from "./tool-search.js";
import { addHierarchy, newHierarchySums } from "./hierarchy.js";
import { thawTally } from "./settle-tally.js";

const bit = (fact: (typeof FACTS)[number]): number => 1 << FACTS.indexOf(fact);
const EXPOSED = bit("exposed");
const RETRIEVED = bit("retrieved");
const PICKED = bit("picked_acceptable");
const END_TO_END = bit("end_to_end");
const RIGHT_CALL = bit("right_call");
const VIOLATED = bit("violated");

/** One (acceptable label, selected label) cell of a case's confusions: every scored trial is in one. */
export interface Cell {
  acceptable: string;
  selected: string;
  count: number;
  /** Trials that passed every rung. */
  correct: number;
  /** Trials that failed at selection. */
  selectionFailures: number;
}

export interface CaseTally {
  caseId: string;
  /** The unit intervals treat as independent: the case, or a turn's conversation. */
  cluster: string;
  /** Every record, errored ones included. */
  trials: number;
  scored: number;
  /** Scored trials correct, by each way of counting success (a run's `success` picks one). */
  correct: Record<Success, number>;
  violated: number;
  /** n and s of each rate, in RATE_NAMES order. */
  rates: number[];
  /** Ordinary tools shown, over the scored trials. */
  visible: number;
  /** Exposed scored trials by retriever budget (k "all": no retriever), and how many retrieved an acceptable tool. */
  recallAtK: { k: string; n: number; s: number }[];
  stages: Record<Stage, number>;
  selectionErrors: Record<SelectionError, number>;
  /** The case's confusion cells (a case has one acceptable label, mostly, and few selections). */
  cells: Cell[];
  /** The ranking quality of its scored trials, summed in trial order. */
  quality: QualityTally;
  /** Per record, as it was counted: trial × 8, + 4 when scored, + OUTCOME[success] when correct by that success (adaptive trials decide by these). */
  outcomes: number[];
  tokens: { total: number; reported: number; estimated: number };
  /** n and s (acceptable picked) per third of the list: first, middle, last. */
  thirds: number[];
  /** Null until a scored trial had tool search on. */
  search: Float64Array | null;
  /** Null until a scored trial's case expected calls (metrics/call-sets.ts). */
  callSets: Float64Array | null;
  /** Null until a scored trial's case was hierarchical (metrics/hierarchy.ts). */
  hierarchy: Float64Array | null;
  /** A conversation's turn records, errored ones included (conversation metrics join them by trial); null for other cases. */
  turns: TrialRecord[] | null;
  /** The lowest-numbered trial (the first such in record order): the case row's fields and the exposure assertions. */
  first: CaseFields;
  /** That trial's number. */
  firstTrial: number;
  /** Whether the case's records disagree on their family, phase or tags (records of merged runs can). */
  mixed: { family: boolean; phase: boolean; tag: boolean };
  /** Its counts are shared values (settleTally): a record thaws them before it counts. */
  settled: boolean;
}

const THIRD_INDEX = { first: 0, middle: 1, last: 2 } as const;

/** The bits of an outcome (CaseTally.outcomes): scored, and correct by each success. */
export const SCORED = 4;
export const OUTCOME: Record<Success, number> = { selection: 1, call: 2 };

/** What a case row, the exposure assertions and the breakdowns take from a case's first trial (its lists are the record's, or shared once settled). */
export type CaseFields = Pick<
  TrialRecord,
  | "family"
  | "tags"
  | "phase"
  | "acceptable"
  | "forbidden"
  | "exposed_names"
  | "must_see"
  | "must_not_see"
>;

function fieldsOf(r: TrialRecord): CaseFields {
  const { family, tags, phase, acceptable, forbidden, exposed_names, must_see, must_not_see } = r;
  return {
    family,
    tags,
    phase,
    acceptable,
    forbidden,
    exposed_names,
    must_see,
    must_not_see,
  };
}

/**
 * The counts of a case no trial of which failed, shared until one does (frozen: addRecord copies
 * them first); with lists made at their first entry, a passing case's tally is a third smaller.
 */
const NO_STAGES = Object.freeze(Object.fromEntries(STAGES.map((s) => [s, 0]))) as Record<
  Stage,
  number
>;
const NO_SELECTION_ERRORS = Object.freeze(
  Object.fromEntries(SELECTION_ERRORS.map((e) => [e, 0])),
) as Record<SelectionError, number>;

export function newTally(r: TrialRecord): CaseTally {
  return {
    caseId: r.case_id,
    cluster: clusterOf(r),
    trials: 0,
    scored: 0,
    correct: { selection: 0, call: 0 },
    violated: 0,
    // Whole counts in plain arrays: cheaper to make, per case, than typed arrays.
    rates: new Array<number>(2 * RATE_NAMES.length).fill(0),
    visible: 0,
    recallAtK: [],
    stages: NO_STAGES,
    selectionErrors: NO_SELECTION_ERRORS,
    cells: [],
    quality: newQualityTally(r.turn !== undefined),
    outcomes: [],
    tokens: { total: 0, reported: 0, estimated: 0 },
    thirds: [0, 0, 0, 0, 0, 0],
    search: null,
    callSets: null,
    hierarchy: null,
    turns: null,
    first: fieldsOf(r),
    firstTrial: r.trial,
    mixed: { family: false, phase: false, tag: false },
    settled: false,
  };
}

/** Counts a record of the tally's case. */
export function addRecord(tally: CaseTally, r: TrialRecord): void {
  if (tally.settled) thawTally(tally);
  tally.trials += 1;
  const first = tally.first;
  tally.mixed.family ||= r.family !== first.family;
  tally.mixed.phase ||= r.phase !== first.phase;
  tally.mixed.tag ||= !sameList(r.tags, first.tags);
  if (r.trial < tally.firstTrial) {
    tally.first = fieldsOf(r);
    tally.firstTrial = r.trial;
  }
  if (r.turn !== undefined) (tally.turns ??= []).push(r);
  if (r.error !== null) {
    tally.outcomes.push(8 * r.trial);
    addQuality(tally.quality, r.trial, null);
    return;
  }
  // Counted once, so not remembered (factsOf would keep a WeakMap entry per record).
  const { bits, visible, quality, third } = findFacts(r);
  tally.scored += 1;
  // isSuccess: the ladder passed, and for "call" the arguments too.
  const selection = (bits & END_TO_END) !== 0;
  const call = selection && (bits & RIGHT_CALL) !== 0;
  if (selection) tally.correct.selection += 1;
  if (call) tally.correct.call += 1;
  tally.outcomes.push(
    8 * r.trial + SCORED + (selection ? OUTCOME.selection : 0) + (call ? OUTCOME.call : 0),
  );
  if ((bits & VIOLATED) !== 0) tally.violated += 1;
  for (let k = 0; k < RATE_MASKS.length; k++) {
    const [population, hit] = RATE_MASKS[k];
    if ((bits & population) !== population) continue;
    tally.rates[2 * k] += 1;
    if ((bits & hit) === hit) tally.rates[2 * k + 1] += 1;
  }
  tally.visible += visible;
  if ((bits & EXPOSED) !== 0) {
    const k = r.retrieval_k === null ? "all" : String(r.retrieval_k);
    let recall = tally.recallAtK.find((at) => at.k === k);
    // Made anew with each new entry: a list pushed to holds room for 17.
    if (recall === undefined) {
      recall = { k, n: 0, s: 0 };
      tally.recallAtK = tally.recallAtK.length === 0 ? [recall] : tally.recallAtK.concat([recall]);
    }
    recall.n += 1;
    if ((bits & RETRIEVED) !== 0) recall.s += 1;
  }
  if (r.failed_stage !== null) {
    if (tally.stages === NO_STAGES) tally.stages = { ...NO_STAGES };
    tally.stages[r.failed_stage] += 1;
  }
  if (r.selection_error !== null) {
    if (tally.selectionErrors === NO_SELECTION_ERRORS)
      tally.selectionErrors = { ...NO_SELECTION_ERRORS };
    tally.selectionErrors[r.selection_error] += 1;
  }
  addCell(tally, r);
  addQuality(tally.quality, r.trial, quality);
  if (r.usage.input_tokens !== null) {
    tally.tokens.total += r.usage.input_tokens;
    tally.tokens.reported += 1;
  } else if (typeof r.usage.input_tokens_estimated === "number") {
    tally.tokens.total += r.usage.input_tokens_estimated;
    tally.tokens.estimated += 1;
  }
  if (third !== null) {
    tally.thirds[2 * THIRD_INDEX[third]] += 1;
    if ((bits & PICKED) !== 0) tally.thirds[2 * THIRD_INDEX[third] + 1] += 1;
  }
  if (r.search !== undefined) addSearch((tally.search ??= newSearchSums()), r);
  if (r.call_set !== undefined) addCallSet((tally.callSets ??= newCallSetSums()), r);
  if (r.hierarchy !== undefined) addHierarchy((tally.hierarchy ??= newHierarchySums()), r);
}

/**
 * The (expected, selected) pair a trial counts in. A call set that missed an expected call pairs
 * the first one missed with the first extra call made in its place (or no call); an extra call
 * alone pairs the expected set with it.
 */
function cellOf(r: TrialRecord): [string, string] {
  const h = r.hierarchy;
  if (h !== undefined && h.by === "agent" && h.inside !== null)
    return [
      labelAcceptable(h.paths.map(([target, tool]) => `${target} > ${tool}`)),
      `${h.target} > ${h.inside}`,
    ];
  const set = r.call_set;
  if (set === undefined || set.exact)
    return [labelAcceptable(r.acceptable), labelSelected(r.selected)];
  const calls = r.calls ?? [];
  const instead = set.extra.length === 0 ? null : calls[set.extra[0]].tool;
  const missed = set.matched.indexOf(null);
  return [
    labelAcceptable(missed === -1 ? r.acceptable : set.expected[missed].tools),
    labelSelected(missed === -1 && instead === null ? r.selected : instead),
  ];
}

function addCell(tally: CaseTally, r: TrialRecord): void {
  const [acceptable, selected] = cellOf(r);
  let cell = tally.cells.find((c) => c.selected === selected && c.acceptable === acceptable);
  if (cell === undefined) {
    cell = { acceptable, selected, count: 0, correct: 0, selectionFailures: 0 };
    tally.cells = tally.cells.length === 0 ? [cell] : tally.cells.concat([cell]);
  }
  cell.count += 1;
  if (r.failed_stage === null) cell.correct += 1;
  if (r.failed_stage === "selection") cell.selectionFailures += 1;
}
