/**
 * Hand-built trial records, classified as route-eval classifies what it writes (and what it reads
 * back): metrics, diff and show take a record's ladder verdict as given, so a fixture states the
 * sets and the choice, and the ladder fills in failed_stage, selection_error and violated.
 */
import { classifyRecord } from "../../src/classify/classify-trial.js";
import type { TrialRecord } from "../../src/types.js";

export function classified(record: TrialRecord): TrialRecord {
  return record.error === null ? { ...record, ...classifyRecord(record) } : record;
}
