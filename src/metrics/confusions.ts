/**
 * Who takes whose cases: the selection-failure confusions, the full confusion matrix and the
 * rivals table. Inputs are scored (re-classified) trials.
 */
import type { Confusion, Rival, TrialRecord } from "../types.js";
import { countBy, findModal, groupBy, labelAcceptable, labelSelected } from "./scored-trials.js";
import { compareText } from "../text/compare-text.js";

/**
 * Count (acceptable label, selected label) pairs; count desc, then acceptable, then selected.
 * `withOutcome` adds each cell's count of trials that passed every rung (the full matrix).
 * One pass, two levels of Map keyed by the (cached) labels: no key string is built per trial.
 */
export function countConfusions(trials: TrialRecord[], withOutcome = false): Confusion[] {
  const cells = new Map<string, Map<string, { count: number; correct: number }>>();
  for (const t of trials) {
    const acceptable = labelAcceptable(t.acceptable);
    let row = cells.get(acceptable);
    if (row === undefined) cells.set(acceptable, (row = new Map()));
    const selected = labelSelected(t.selected);
    let cell = row.get(selected);
    if (cell === undefined) row.set(selected, (cell = { count: 0, correct: 0 }));
    cell.count += 1;
    if (t.failed_stage === null) cell.correct += 1;
  }
  const out: Confusion[] = [];
  for (const [acceptable, row] of cells) {
    for (const [selected, { count, correct }] of row) out.push(withOutcome ? { acceptable, selected, count, correct } : { acceptable, selected, count });
  }
  return out.sort((a, b) => b.count - a.count || compareText(a.acceptable, b.acceptable) || compareText(a.selected, b.selected));
}

/**
 * For each expected label with selection failures, the selection that most often took its place.
 * `of` counts the trials with that label that reached selection. Count desc, then expected label.
 */
export function findRivals(trials: TrialRecord[]): Rival[] {
  const reached = trials.filter((t) => t.failed_stage === null || t.failed_stage === "selection");
  const rivals: Rival[] = [];
  for (const [expected, group] of groupBy(reached, (t) => labelAcceptable(t.acceptable))) {
    const failures = group.filter((t) => t.failed_stage === "selection");
    const modal = findModal(countBy(failures, (t) => labelSelected(t.selected)));
    if (modal !== null) rivals.push({ expected, rival: modal.key, count: modal.count, of: group.length });
  }
  return rivals.sort((a, b) => b.count - a.count || compareText(a.expected, b.expected));
}

export function computeConfusions(
  trials: TrialRecord[],
): { selection_confusions: Confusion[]; confusion_matrix: Confusion[]; rivals: Rival[] } {
  return {
    selection_confusions: countConfusions(trials.filter((t) => t.failed_stage === "selection")),
    confusion_matrix: countConfusions(trials, true),
    rivals: findRivals(trials),
  };
}
