/**
 * One row per case for reports and JUnit: its trials, their stages and selections, and whether
 * the case passed (every scored trial correct, and at least one scored trial).
 */
import { STAGES } from "../types.js";
import type { CaseRow, Report, Success, TrialRecord } from "../types.js";
import type { CaseTally } from "./case-tally.js";
import { tallyCases } from "./record-tally.js";
import { sortedSelections } from "./reliability.js";

/** The stage label of a trial: its failed stage, or "correct". */
export const CORRECT_LABEL = "correct";

/** Stage counts in ladder order, "correct" last; stages no trial reached are left out. */
function countStages(tally: CaseTally): Record<string, number> {
  const counts: Record<string, number> = {};
  let failed = 0;
  for (const stage of STAGES) {
    failed += tally.stages[stage];
    if (tally.stages[stage] > 0) counts[stage] = tally.stages[stage];
  }
  if (tally.scored > failed) counts[CORRECT_LABEL] = tally.scored - failed;
  return counts;
}

/** A case's row; its fields come from its lowest-numbered trial; `correct` by the run's success. */
export function rowOfCase(tally: CaseTally, success: Success): CaseRow {
  const { first } = tally;
  const correct = tally.correct[success];
  return {
    case_id: tally.caseId,
    family: first.family,
    tags: first.tags,
    phase: first.phase,
    acceptable: first.acceptable,
    forbidden: first.forbidden,
    trials: tally.trials,
    errored: tally.trials - tally.scored,
    correct,
    violated: tally.violated,
    stages: countStages(tally),
    selections: sortedSelections(tally),
    passed: tally.scored > 0 && correct === tally.scored,
  };
}

/** How each report made by withCaseRows gives its rows one at a time. */
const rowStreams = new WeakMap<Report, () => Iterable<CaseRow>>();

/**
 * The report with its case rows made when read: a run of 100,000 cases holds its tallies, not
 * 100,000 rows beside them. A list made is shared while any reader holds it (one list for a
 * render that reads it twice), and made again for a reader after; eachCaseRow makes no list.
 */
export function withCaseRows(report: Omit<Report, "cases">, rows: () => Iterable<CaseRow>): Report {
  let made: WeakRef<CaseRow[]> | null = null;
  const whole = Object.defineProperty(report, "cases", {
    enumerable: true,
    get: () => {
      let list = made?.deref();
      if (list === undefined) made = new WeakRef((list = [...rows()]));
      return list;
    },
  }) as Report;
  rowStreams.set(whole, () => made?.deref() ?? rows());
  return whole;
}

/** A report's case rows one at a time: made as they are read (withCaseRows), else its list. */
export function eachCaseRow(report: Report): Iterable<CaseRow> {
  return rowStreams.get(report)?.() ?? report.cases;
}

/** Rows sorted by case_id. */
export function buildCaseRows(records: TrialRecord[], success: Success = "selection"): CaseRow[] {
  return tallyCases(records).map((tally) => rowOfCase(tally, success));
}
