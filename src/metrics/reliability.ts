/**
 * Repeated-trial reliability (DESIGN §4): pass^k, pass@k, consistency and unstable cases.
 * A case's n is its scored (non-errored) trials; a trial is correct when failed_stage is null.
 */
import { maxOf } from "../text/extremes.js";
import { isSuccess } from "./trial-facts.js";
import type { Metrics, Success, TrialRecord } from "../types.js";
import { computePassK } from "./pass-k.js";
import { rate } from "./wilson.js";
import { compareText } from "../text/compare-text.js";
import { countBy, findModal, groupBy, labelSelected } from "./scored-trials.js";

type Reliability = Pick<Metrics, "pass_hat_k" | "pass_at_k" | "pass_k_short_cases" | "consistency" | "consistency_rate" | "unstable_cases">;
type UnstableCase = Metrics["unstable_cases"][number];

/** Per case: its selection counts and the modal selection (ties broken by name). */
function summariseCase(case_id: string, trials: TrialRecord[]): UnstableCase {
  const selections = countBy(trials, (t) => labelSelected(t.selected));
  const modal = findModal(selections) ?? { key: labelSelected(null), count: 0 };
  return { case_id, modal: modal.key, modal_count: modal.count, n: trials.length, selections };
}

export function computeReliability(trials: TrialRecord[], success: Success = "selection"): Reliability {
  const cases = groupBy(trials, (t) => t.case_id);
  const tallies = [...cases.values()].map((group) => ({
    n: group.length,
    c: group.filter((t) => isSuccess(t, success)).length,
  }));
  const summaries = [...cases.entries()].map(([caseId, group]) => summariseCase(caseId, group));
  // A case with one scored trial agrees with itself trivially: consistency needs two.
  const repeated = summaries.filter((s) => s.n >= 2);
  const shares = repeated.reduce((sum, s) => sum + s.modal_count / s.n, 0);
  const consistency_rate = repeated.length === 0 ? null : { ...rate(shares, repeated.length), cases: repeated.length };
  const most = maxOf(tallies.map((tally) => tally.n), 0);
  const short = [...cases.entries()]
    .filter(([, group]) => group.length < most)
    .map(([case_id, group]) => ({ case_id, scored: group.length }))
    .sort((a, b) => a.scored - b.scored || compareText(a.case_id, b.case_id));
  return {
    ...computePassK(tallies),
    pass_k_short_cases: short,
    consistency: consistency_rate?.value ?? null,
    consistency_rate,
    unstable_cases: summaries.filter((s) => s.modal_count < s.n),
  };
}
