/**
 * The full metrics of each slice of a run: per case family, per tag, per phase. Keys sorted;
 * records without a family or phase go under "(none)"; a record counts under each of its tags.
 */
import type { Metrics, Report, Success, TrialRecord } from "../types.js";
import { computeMetrics } from "./compute-metrics.js";
import { compareText } from "../text/compare-text.js";

/** The breakdown key of a record without a family or phase. */
export const NONE_LABEL = "(none)";

/** `keysOf` gives one key, or a list of them (a record joins each slice once, however often its key is listed). */
function computeSlices(records: TrialRecord[], keysOf: (t: TrialRecord) => string | string[], success: Success, whole: Metrics): Record<string, Metrics> {
  const slices = new Map<string, TrialRecord[]>();
  const join = (key: string, record: TrialRecord) => {
    const slice = slices.get(key);
    if (slice === undefined) slices.set(key, [record]);
    else slice.push(record);
  };
  for (const record of records) {
    const keys = keysOf(record);
    if (typeof keys === "string") join(keys, record);
    else if (keys.length === 1) join(keys[0], record);
    else for (const key of new Set(keys)) join(key, record);
  }
  const keys = [...slices.keys()].sort(compareText);
  // A record joins a slice at most once, so a slice as long as the run is the run: its metrics are the run's.
  const metricsOf = (slice: TrialRecord[]) => (slice.length === records.length ? whole : computeMetrics(slice, success));
  return Object.fromEntries(keys.map((key) => [key, metricsOf(slices.get(key) ?? [])]));
}

/** `whole` is computeMetrics(records, success), which a slice equal to the whole run reuses. */
export function computeBreakdowns(records: TrialRecord[], success: Success, whole: Metrics): Report["breakdowns"] {
  return {
    family: computeSlices(records, (t) => t.family ?? NONE_LABEL, success, whole),
    tag: computeSlices(records, (t) => t.tags, success, whole),
    phase: computeSlices(records, (t) => t.phase ?? NONE_LABEL, success, whole),
  };
}
