/**
 * One row per case for reports and JUnit: its trials, their stages and selections, and whether
 * the case passed (every scored trial correct, and at least one scored trial).
 */
import { isSuccess } from "./trial-facts.js";
import { STAGES } from "../types.js";
import type { CaseRow, Success, TrialRecord } from "../types.js";
import { countBy, groupBy, labelSelected, scoreRecords } from "./scored-trials.js";

/** The stage label of a trial: its failed stage, or "correct". */
export const CORRECT_LABEL = "correct";
const STAGE_ORDER: string[] = [...STAGES, CORRECT_LABEL];

/** Stage counts in ladder order, "correct" last; stages no trial reached are left out. */
function countStages(scored: TrialRecord[]): Record<string, number> {
  const counts = countBy(scored, (t) => t.failed_stage ?? CORRECT_LABEL);
  return Object.fromEntries(STAGE_ORDER.filter((label) => label in counts).map((label) => [label, counts[label]]));
}

function buildCaseRow(caseId: string, records: TrialRecord[], success: Success): CaseRow {
  const first = records[0];
  const scored = scoreRecords(records);
  const correct = scored.filter((t) => isSuccess(t, success)).length;
  return {
    case_id: caseId,
    family: first.family,
    tags: first.tags,
    phase: first.phase,
    acceptable: first.acceptable,
    forbidden: first.forbidden,
    trials: records.length,
    errored: records.length - scored.length,
    correct,
    violated: scored.filter((t) => t.violated).length,
    stages: countStages(scored),
    selections: countBy(scored, (t) => labelSelected(t.selected)),
    passed: scored.length > 0 && correct === scored.length,
  };
}

/** Rows sorted by case_id; case fields come from the case's lowest-numbered trial; `correct` by the run's success. */
export function buildCaseRows(records: TrialRecord[], success: Success = "selection"): CaseRow[] {
  return [...groupBy(records, (t) => t.case_id).entries()].map(([caseId, group]) =>
    buildCaseRow(caseId, [...group].sort((a, b) => a.trial - b.trial), success),
  );
}
