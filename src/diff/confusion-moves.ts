/** Cells of the confusion matrix (acceptable label × selected) whose counts changed. */
import { compareText } from "../text/compare-text.js";
import type { Confusion } from "../types.js";
import type { ConfusionMove } from "../types/diff.js";

const SEPARATOR = "\u0000";

function index(cells: Confusion[]): Map<string, Confusion> {
  return new Map(cells.map((c) => [`${c.acceptable}${SEPARATOR}${c.selected}`, c]));
}

/**
 * A cell is "correct" by the trials' ladder outcome, not by selected ∈ acceptable: picking a tool
 * the registry lacks (a coverage failure) is not correct. Reports before schema_version 2 have
 * no outcome counts; there the label falls back to selected ∈ acceptable.
 */
function isCorrectCell(
  acceptable: string,
  selected: string,
  cells: (Confusion | undefined)[],
): boolean {
  const present = cells.filter((c): c is Confusion => c !== undefined && c.count > 0);
  if (present.some((c) => c.correct === undefined)) return acceptable.split("|").includes(selected);
  return present.length > 0 && present.every((c) => c.correct === c.count);
}

/** Moved cells, largest move first, then by label; cells that did not move are left out. */
export function findConfusionMoves(base: Confusion[], current: Confusion[]): ConfusionMove[] {
  const before = index(base);
  const after = index(current);
  const moves: ConfusionMove[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [acceptable, selected] = key.split(SEPARATOR);
    const old = before.get(key)?.count ?? 0;
    const now = after.get(key)?.count ?? 0;
    if (old === now) continue;
    const correct = isCorrectCell(acceptable, selected, [before.get(key), after.get(key)]);
    moves.push({ acceptable, selected, correct, base: old, current: now, delta: now - old });
  }
  return moves.sort(
    (a, b) =>
      Math.abs(b.delta) - Math.abs(a.delta) ||
      compareText(a.acceptable, b.acceptable) ||
      compareText(a.selected, b.selected),
  );
}
