/**
 * The trials metrics are computed over (non-errored records, classified once: when built, or
 * when read back by run-files/records-io.ts), and the labels shared by confusion tables and rows.
 */
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

/** The records whose endpoint call succeeded: every rate, pass^k, consistency and confusion counts these. */
export function scoreRecords(records: TrialRecord[]): TrialRecord[] {
  return records.filter((record) => record.error === null);
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
    if (
      modal === null ||
      count > modal.count ||
      (count === modal.count && compareText(key, modal.key) < 0)
    ) {
      modal = { key, count };
    }
  }
  return modal;
}
