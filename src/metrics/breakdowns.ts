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

function groupByKeys<T>(
  items: readonly T[],
  keysOf: (item: T) => string | string[],
): Map<string, T[]> {
  const slices = new Map<string, T[]>();
  const join = (key: string, item: T) => {
    const slice = slices.get(key);
    if (slice === undefined) slices.set(key, [item]);
    else slice.push(item);
  };
  for (const item of items) {
    const keys = keysOf(item);
    if (typeof keys === "string") join(keys, item);
    else if (keys.length === 1) join(keys[0], item);
    // A key listed twice joins once (a case's few tags: no set needed).
    else keys.forEach((key, i) => keys.indexOf(key) === i && join(key, item));
  }
  return slices;
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
      slices.set(key, slice.length === records.length ? whole : computeMetrics(slice, success));
  } else {
    for (const [key, slice] of groupByKeys(cases, (c) => keysOf(c.first)))
      slices.set(key, slice.length === cases.length ? whole : metricsOfCases(slice, success));
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
