/**
 * The full metrics of each slice of a run: per case family, per tag, per phase. Keys sorted;
 * records without a family or phase go under "(none)"; a record counts under each of its tags.
 */
import type { Metrics, Report, Success, TrialRecord } from "../types.js";
import { computeMetrics } from "./compute-metrics.js";
import { compareText } from "../text/compare-text.js";

/** The breakdown key of a record without a family or phase. */
export const NONE_LABEL = "(none)";

function computeSlices(records: TrialRecord[], keysOf: (t: TrialRecord) => string[], success: Success): Record<string, Metrics> {
  const slices = new Map<string, TrialRecord[]>();
  for (const record of records) {
    for (const key of new Set(keysOf(record))) {
      const slice = slices.get(key);
      if (slice === undefined) slices.set(key, [record]);
      else slice.push(record);
    }
  }
  const keys = [...slices.keys()].sort(compareText);
  return Object.fromEntries(keys.map((key) => [key, computeMetrics(slices.get(key) ?? [], success)]));
}

export function computeBreakdowns(records: TrialRecord[], success: Success = "selection"): Report["breakdowns"] {
  return {
    family: computeSlices(records, (t) => [t.family ?? NONE_LABEL], success),
    tag: computeSlices(records, (t) => t.tags, success),
    phase: computeSlices(records, (t) => [t.phase ?? NONE_LABEL], success),
  };
}
