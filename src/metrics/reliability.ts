/**
 * Repeated-trial reliability (docs/metrics.md "Reliability"): pass^k, pass@k, consistency and unstable cases.
 * A case's n is its scored (non-errored) trials; a trial is correct by the run's `success`.
 */
import { maxOf } from "../text/extremes.js";
import { keptOf } from "../text/same-list.js";
import type { Metrics, Success } from "../types.js";
import { computePassK } from "./pass-k.js";
import { rate } from "./wilson.js";
import { compareText } from "../text/compare-text.js";
import { findModal, labelSelected } from "./scored-trials.js";
import type { CaseTally } from "./case-tally.js";

type Reliability = Pick<
  Metrics,
  | "pass_hat_k"
  | "pass_at_k"
  | "pass_k_short_cases"
  | "consistency"
  | "consistency_rate"
  | "unstable_cases"
>;
type UnstableCase = Metrics["unstable_cases"][number];

/** A case's scored trials by selected label, in name order. */
export function sortedSelections(tally: CaseTally): Record<string, number> {
  const only = oneSelection(tally);
  if (only !== null) return { [only.label]: only.count };
  const selections = new Map<string, number>();
  for (const { selected, count } of tally.cells)
    selections.set(selected, (selections.get(selected) ?? 0) + count);
  return Object.fromEntries([...selections].sort(([a], [b]) => compareText(a, b)));
}

/** The one label every cell of the case selected, and its trials (most cases: every trial chose alike), else null. */
function oneSelection({ cells }: CaseTally): { label: string; count: number } | null {
  if (cells.length === 0) return null;
  let count = 0;
  for (const cell of cells) {
    if (cell.selected !== cells[0].selected) return null;
    count += cell.count;
  }
  return { label: cells[0].selected, count };
}

/** Per case: its selection counts and the modal selection (ties broken by name). */
function summariseCase(tally: CaseTally): UnstableCase {
  const selections = sortedSelections(tally);
  const modal = findModal(selections) ?? { key: labelSelected(null), count: 0 };
  return {
    case_id: tally.caseId,
    modal: modal.key,
    modal_count: modal.count,
    n: tally.scored,
    selections,
  };
}

/** Over the cases (in case order) with a scored trial. */
export function computeReliability(cases: readonly CaseTally[], success: Success): Reliability {
  const scored = keptOf(cases, (tally) => tally.scored > 0);
  // A case with one scored trial agrees with itself trivially: consistency needs two.
  let repeated = 0;
  let shares = 0;
  const unstable: UnstableCase[] = [];
  for (const tally of scored) {
    // A case whose trials all chose alike is summed without its summary (most cases of a run).
    const alike = oneSelection(tally)?.count ?? null;
    const summary = alike === null || alike < tally.scored ? summariseCase(tally) : null;
    const modalCount = summary?.modal_count ?? (alike as number);
    if (tally.scored >= 2) {
      repeated += 1;
      shares += modalCount / tally.scored;
    }
    if (summary !== null && summary.modal_count < summary.n) unstable.push(summary);
  }
  const consistency_rate = repeated === 0 ? null : { ...rate(shares, repeated), cases: repeated };
  const turns = scored.some((tally) => tally.cluster !== tally.caseId);
  const most = maxOf(
    scored.map((tally) => tally.scored),
    0,
  );
  const short = scored
    .filter((tally) => tally.scored < most)
    .map((tally) => ({ case_id: tally.caseId, scored: tally.scored }))
    .sort((a, b) => a.scored - b.scored || compareText(a.case_id, b.case_id));
  return {
    ...computePassK(scored, {
      n: (tally) => tally.scored,
      c: (tally) => tally.correct[success],
      // Without conversations every case is its own cluster: none named (no set of them made).
      cluster: (tally) => (turns ? tally.cluster : undefined),
    }),
    pass_k_short_cases: short,
    consistency: consistency_rate?.value ?? null,
    consistency_rate,
    unstable_cases: unstable,
  };
}
