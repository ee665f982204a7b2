/**
 * The full metrics of each slice of a run: per case family, per tag, per phase. Keys sorted;
 * records without a family or phase go under "(none)"; a record counts under each of its tags.
 */
import type { Metrics, Report, Success, TrialRecord } from "../types.js";
import { computeMetrics, metricsOfCases } from "./compute-metrics.js";
import { compareText } from "../text/compare-text.js";
import type { CaseTally } from "./case-tally.js";
import { lazy } from "../text/lazy.js";

/** The breakdown key of a record without a family or phase. */
export const NONE_LABEL = "(none)";

type Dimension = keyof CaseTally["mixed"];

/** A slice key, or a list of them (an item joins each slice once, however often its key is listed). */
const KEYS: Record<
  Dimension,
  (t: Pick<TrialRecord, "family" | "tags" | "phase">) => string | string[]
> = {
  family: (t) => t.family ?? NONE_LABEL,
  tag: (t) => t.tags,
  phase: (t) => t.phase ?? NONE_LABEL,
};

/**
 * The items of each key, or null for a key every item has (the whole: a shadow's one tag, a run
 * without families) — counted first, so that no slice is a copy of the whole and each is made at
 * its size (a list of a million grown a push at a time leaves each smaller copy behind).
 */
function groupByKeys<T>(
  items: readonly T[],
  keysOf: (item: T) => string | string[],
): Map<string, T[] | null> {
  const counts = new Map<string, number>();
  for (const item of items)
    eachKey(keysOf(item), (key) => counts.set(key, (counts.get(key) ?? 0) + 1));
  const slices = new Map<string, T[] | null>();
  for (const [key, count] of counts)
    slices.set(key, count === items.length ? null : new Array<T>(count));
  if ([...slices.values()].every((slice) => slice === null)) return slices;
  // Counted down as each slice is filled from its end (items in their order).
  for (let i = items.length - 1; i >= 0; i--)
    eachKey(keysOf(items[i]), (key) => {
      const slice = slices.get(key);
      if (slice === null || slice === undefined) return;
      const left = (counts.get(key) as number) - 1;
      counts.set(key, left);
      slice[left] = items[i];
    });
  return slices;
}

/** Each key once (a key listed twice joins its slice once; a case's few tags need no set). */
function eachKey(keys: string | string[], use: (key: string) => void): void {
  if (typeof keys === "string") use(keys);
  else if (keys.length === 1) use(keys[0]);
  else keys.forEach((key, i) => keys.indexOf(key) === i && use(key));
}

/**
 * A slice is a set of cases when every case's records agree on the key (a run's always do): its
 * metrics come from those cases' tallies. Otherwise (merged runs whose cases changed) each slice
 * is its records, counted again. A slice that holds the whole run is the run: its metrics are `whole`.
 */
function computeSlices(
  dimension: Dimension,
  readRecords: () => TrialRecord[],
  cases: readonly CaseTally[],
  success: Success,
  whole: Metrics,
): Record<string, Metrics> {
  const keysOf = KEYS[dimension];
  const slices = new Map<string, Metrics>();
  if (cases.some((c) => c.mixed[dimension])) {
    const records = readRecords();
    for (const [key, slice] of groupByKeys(records, keysOf))
      slices.set(key, slice === null ? whole : computeMetrics(slice, success));
  } else {
    for (const [key, slice] of groupByKeys(cases, (c) => keysOf(c.first)))
      slices.set(key, slice === null ? whole : metricsOfCases(slice, success));
  }
  return Object.fromEntries([...slices].sort(([a], [b]) => compareText(a, b)));
}

/**
 * `cases` are the records' tallies and `whole` their metrics, which a slice equal to the whole run
 * reuses; `readRecords` gives the records themselves, read only when some case's disagree on a key.
 */
export function computeBreakdowns(
  readRecords: () => TrialRecord[],
  cases: readonly CaseTally[],
  success: Success,
  whole: Metrics,
): Report["breakdowns"] {
  const records = lazy(readRecords);
  return {
    family: computeSlices("family", records, cases, success, whole),
    tag: computeSlices("tag", records, cases, success, whole),
    phase: computeSlices("phase", records, cases, success, whole),
  };
}
