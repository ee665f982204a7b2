/**
 * The trials metrics are computed over: non-errored records, re-classified from their sets, and
 * the labels shared by confusion tables and per-case rows.
 */
import { classifyRecord } from "../classify/classify-trial.js";
import type { TrialRecord } from "../types.js";
import { compareText } from "../text/compare-text.js";

/** The selection label of a trial that answered without a tool call. */
export const NO_CALL_LABEL = "(no call)";


/** Sorted acceptable names joined by "|". */
export function labelAcceptable(acceptable: string[]): string {
  let label = labels.get(acceptable);
  if (label === undefined) {
    label = [...acceptable].sort(compareText).join("|");
    labels.set(acceptable, label);
  }
  return label;
}

/** Records share their name lists (see readRecords), so one label per list object is computed once. */
const labels = new WeakMap<string[], string>();

/** The selected tool, or "(no call)". */
export function labelSelected(selected: string | null): string {
  return selected ?? NO_CALL_LABEL;
}

/**
 * Records whose endpoint call succeeded, with failed_stage / selection_error / violated recomputed:
 * the sets are the truth, whatever tool wrote the record.
 */
export function scoreRecords(records: TrialRecord[]): TrialRecord[] {
  const scored: TrialRecord[] = [];
  for (const record of records) if (record.error === null) scored.push(scoreRecord(record));
  return scored;
}

// Scored trials are re-classified from their sets, so the rung a trial failed says which sets held
// an acceptable tool: no set is searched again (the run's metrics and diff's trial outcomes alike).
/** Some acceptable tool exists in the registry (of a scored trial). */
export const isCovered = (t: TrialRecord): boolean => t.failed_stage !== "coverage";
/** Some acceptable tool was exposed by the phase (of a scored trial). */
export const isExposed = (t: TrialRecord): boolean => t.failed_stage !== "coverage" && t.failed_stage !== "exposure";
/** Some acceptable tool was visible (of a scored trial). */
export const isRetrieved = (t: TrialRecord): boolean => t.failed_stage === null || t.failed_stage === "selection";

/** One re-classified copy per record, shared by the run's metrics, every breakdown and the case rows. */
const scoredCopies = new WeakMap<TrialRecord, TrialRecord>();

function scoreRecord(record: TrialRecord): TrialRecord {
  let copy = scoredCopies.get(record);
  if (copy === undefined) {
    const c = classifyRecord(record);
    const agrees = c.failed_stage === record.failed_stage && c.selection_error === record.selection_error && c.violated === record.violated;
    copy = agrees ? record : { ...record, ...c };
    scoredCopies.set(record, copy);
  }
  return copy;
}

/** Count items per key; keys in sorted order. */
export function countBy<T>(items: T[], keyOf: (item: T) => string): Record<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const key = keyOf(item);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts.entries()].sort(([a], [b]) => compareText(a, b)));
}

/** Group items by key; groups in sorted key order, items in input order. */
export function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return new Map([...groups.entries()].sort(([a], [b]) => compareText(a, b)));
}

/** The most frequent key of `counts` (ties go to the first name in sort order), or null when empty. */
export function findModal(counts: Record<string, number>): { key: string; count: number } | null {
  let modal: { key: string; count: number } | null = null;
  for (const [key, count] of Object.entries(counts)) {
    if (modal === null || count > modal.count || (count === modal.count && compareText(key, modal.key) < 0)) {
      modal = { key, count };
    }
  }
  return modal;
}
