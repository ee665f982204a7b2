/**
 * Call-set metrics (docs/call-sets.md): over the scored decisions whose case expected calls
 * (`calls:`), how many were exactly right, what share of the expected calls were made (recall)
 * and of the calls made were expected (precision), whether a sequence kept its order, and how
 * many steps and calls a decision took. Rates are clustered by case (a call is never the unit of
 * independence); means carry cluster-robust intervals. A case's sums are gathered by addCallSet.
 */
import type { CallSetMetrics, TrialRecord } from "../types.js";
import { isRightCall } from "./trial-facts.js";
import type { Cluster } from "./wilson.js";
import { slotFigures } from "./slot-figures.js";

/** The slots of a case's call-set sums. */
export const CALL_SET = {
  decisions: 0,
  exact: 1,
  expected: 2,
  matched: 3,
  made: 4,
  orderable: 5,
  inOrder: 6,
  stepLimit: 7,
  steps: 8,
  calls: 9,
} as const;

const SLOTS = Object.keys(CALL_SET).length;

/** A case's call-set sums, made on its first call-set record. */
export function newCallSetSums(): Float64Array {
  return new Float64Array(SLOTS);
}

/** Adds one scored call-set record to its case's sums. */
export function addCallSet(sums: Float64Array, r: TrialRecord): void {
  const set = r.call_set;
  if (set === undefined) return;
  const matched = set.matched.filter((index) => index !== null).length;
  sums[CALL_SET.decisions] += 1;
  if (isRightCall(r)) sums[CALL_SET.exact] += 1;
  sums[CALL_SET.expected] += set.expected.length;
  sums[CALL_SET.matched] += matched;
  // Precision's denominator: the calls that count, matched or extra (allowed look-ups are neither).
  sums[CALL_SET.made] += matched + set.extra.length;
  if (set.order === "sequence" && (!set.in_order || matched === set.expected.length)) {
    sums[CALL_SET.orderable] += 1;
    if (set.in_order) sums[CALL_SET.inOrder] += 1;
  }
  if (set.ended === "step_limit") sums[CALL_SET.stepLimit] += 1;
  sums[CALL_SET.steps] += set.steps;
  sums[CALL_SET.calls] += r.calls?.length ?? r.tool_calls;
}

/** The call-set figures of the clusters' cases, or null when no scored decision expected calls. */
export function computeCallSets(clusters: readonly Cluster[]): CallSetMetrics | null {
  const { decisions, share, mean } = slotFigures(clusters, (c) => c.callSets, CALL_SET.decisions);
  if (decisions.every((n) => n === 0)) return null;
  return {
    decisions: decisions.reduce((a, b) => a + b, 0),
    call_set_exact: share(CALL_SET.decisions, CALL_SET.exact),
    call_recall: share(CALL_SET.expected, CALL_SET.matched),
    call_precision: share(CALL_SET.made, CALL_SET.matched),
    order_kept: share(CALL_SET.orderable, CALL_SET.inOrder),
    step_limit: share(CALL_SET.decisions, CALL_SET.stepLimit),
    steps_per_decision: mean(CALL_SET.steps),
    calls_per_decision: mean(CALL_SET.calls),
  };
}
