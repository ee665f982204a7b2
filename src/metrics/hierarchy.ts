/**
 * Hierarchical decisions (docs/targets.md): over the scored decisions whose case wrote
 * `acceptable: target > tool`, how many failed at the target (wrong agent or server), how many
 * inside it (the right target, the wrong tool), and how often the tool inside was right once the
 * target was. Rates are clustered by case, as every rate is. A case's sums are gathered by addHierarchy.
 */
import type { HierarchyMetrics, TrialRecord } from "../types.js";
import type { Cluster } from "./wilson.js";
import { slotFigures } from "./slot-figures.js";

const SLOT = {
  decisions: 0,
  wrongTarget: 1,
  wrongInside: 2,
  rightTarget: 3,
  rightInside: 4,
} as const;

export function newHierarchySums(): Float64Array {
  return new Float64Array(Object.keys(SLOT).length);
}

/** Adds one scored hierarchical record to its case's sums. */
export function addHierarchy(sums: Float64Array, r: TrialRecord): void {
  const h = r.hierarchy;
  if (h === undefined) return;
  sums[SLOT.decisions] += 1;
  if (h.level === "target") sums[SLOT.wrongTarget] += 1;
  if (h.level === "inside") sums[SLOT.wrongInside] += 1;
  if (h.paths.some(([target]) => target === h.target)) {
    sums[SLOT.rightTarget] += 1;
    if (r.failed_stage === null) sums[SLOT.rightInside] += 1;
  }
}

/** The hierarchy figures of the clusters' cases, or null when no scored decision was hierarchical. */
export function computeHierarchy(clusters: readonly Cluster[]): HierarchyMetrics | null {
  const { decisions, share } = slotFigures(clusters, (c) => c.hierarchy, SLOT.decisions);
  if (decisions.every((n) => n === 0)) return null;
  return {
    decisions: decisions.reduce((a, b) => a + b, 0),
    wrong_target: share(SLOT.decisions, SLOT.wrongTarget),
    wrong_inside: share(SLOT.decisions, SLOT.wrongInside),
    right_inside_given_target: share(SLOT.rightTarget, SLOT.rightInside),
  };
}
