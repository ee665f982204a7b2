/** Cells of the confusion matrix (acceptable label × selected) whose counts changed. */
import { compareText } from "../text/compare-text.js";
import type { Confusion } from "../types.js";
import type { ConfusionMove } from "./diff-types.js";

const SEPARATOR = "\u0000";

function index(cells: Confusion[]): Map<string, number> {
  return new Map(cells.map((c) => [`${c.acceptable}${SEPARATOR}${c.selected}`, c.count]));
}

/** Moved cells, largest move first, then by label; cells that did not move are left out. */
export function findConfusionMoves(base: Confusion[], current: Confusion[]): ConfusionMove[] {
  const before = index(base);
  const after = index(current);
  const moves: ConfusionMove[] = [];
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const [acceptable, selected] = key.split(SEPARATOR);
    const old = before.get(key) ?? 0;
    const now = after.get(key) ?? 0;
    if (old === now) continue;
    const correct = acceptable.split("|").includes(selected);
    moves.push({ acceptable, selected, correct, base: old, current: now, delta: now - old });
  }
  return moves.sort(
    (a, b) =>
      Math.abs(b.delta) - Math.abs(a.delta) || compareText(a.acceptable, b.acceptable) || compareText(a.selected, b.selected),
  );
}
