/**
 * Who takes whose cases: the selection-failure confusions, the full confusion matrix and the
 * rivals table, from the cases' confusion cells (case-tally.ts).
 */
import type { Confusion, Rival } from "../types.js";
import { findModal } from "./scored-trials.js";
import { compareText } from "../text/compare-text.js";
import type { CaseTally, Cell } from "./case-tally.js";

const byCount =
  <T extends { count: number }>(key: (item: T) => string, second: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || compareText(key(a), key(b)) || compareText(second(a), second(b));

/** The cells of every case added up, by acceptable label, then selected label. */
function mergeCells(cases: readonly CaseTally[]): Map<string, Map<string, Cell>> {
  const cells = new Map<string, Map<string, Cell>>();
  for (const tally of cases) {
    for (let i = 0; i < tally.cells.length; i++) {
      const cell = tally.cells[i];
      let row = cells.get(cell.acceptable);
      if (row === undefined) cells.set(cell.acceptable, (row = new Map()));
      const into = row.get(cell.selected);
      if (into === undefined) row.set(cell.selected, { ...cell });
      else
        ((into.count += cell.count),
          (into.correct += cell.correct),
          (into.selectionFailures += cell.selectionFailures));
    }
  }
  return cells;
}

/**
 * selection_confusions: (acceptable, selected) pairs of the selection failures; confusion_matrix:
 * every pair with its count of trials that passed every rung; both count desc, then acceptable,
 * then selected. rivals: for each expected label with selection failures, the selection that most
 * often took its place (ties to the first name), `of` its trials that reached selection; count
 * desc, then expected label.
 */
export function computeConfusions(cases: readonly CaseTally[]): {
  selection_confusions: Confusion[];
  confusion_matrix: Confusion[];
  rivals: Rival[];
} {
  const cells = mergeCells(cases);
  const selection_confusions: Confusion[] = [];
  const confusion_matrix: Confusion[] = [];
  const rivals: Rival[] = [];
  for (const [acceptable, row] of cells) {
    const failures: Record<string, number> = Object.create(null);
    // The trials that reached selection: passed it, or failed there.
    let reached = 0;
    for (const [selected, { count, correct, selectionFailures }] of row) {
      confusion_matrix.push({ acceptable, selected, count, correct });
      reached += correct + selectionFailures;
      if (selectionFailures === 0) continue;
      selection_confusions.push({ acceptable, selected, count: selectionFailures });
      failures[selected] = selectionFailures;
    }
    const modal = findModal(failures);
    if (modal !== null)
      rivals.push({ expected: acceptable, rival: modal.key, count: modal.count, of: reached });
  }
  const cell = byCount<Confusion>(
    (c) => c.acceptable,
    (c) => c.selected,
  );
  return {
    selection_confusions: selection_confusions.sort(cell),
    confusion_matrix: confusion_matrix.sort(cell),
    rivals: rivals.sort(
      byCount<Rival>(
        (r) => r.expected,
        () => "",
      ),
    ),
  };
}
