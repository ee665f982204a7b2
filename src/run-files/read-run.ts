/** A run read back from its directory: metadata and records, nothing written. */
import { basename, join, resolve } from "node:path";
import { InputError } from "../errors.js";
import { metaFromRecords } from "../report/build-report.js";
import { RecordTally, tallyRecords } from "../metrics/record-tally.js";
import { readJsonFile, readJsonPart, type JsonFileKind } from "./json-files.js";
import { locateRun, type RunFiles } from "./locate-run.js";
import { checkPlanned } from "./plan.js";
import { REPORT_FILE } from "./read-report.js";
import { forEachRecord, readRecords } from "./records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";
import { lazy } from "../text/lazy.js";
import { TOOL_VERSION } from "../version.js";

/** A run directory's metadata and records, read without writing anything (`show` reads this way). */
export function readRun(target: string): { runDir: string; meta: RunMeta; records: TrialRecord[] } {
  const files = locateRun(target);
  const recordsFile = recordsOf(files);
  const records = readRecords(recordsFile);
  if (records.length === 0) throw noRecords(recordsFile);
  return { runDir: files.runDir, meta: findMeta(files, records), records };
}

/**
 * A run directory's metadata and its records counted as they are read, none kept (`report`
 * reads this way, in memory that does not grow with the records); each record is checked
 * against the run's plan as it comes. `records()` reads them all again, for what needs them.
 */
export function countRun(target: string): {
  runDir: string;
  meta: RunMeta;
  tally: RecordTally;
  records: () => TrialRecord[];
} {
  const files = locateRun(target);
  const recordsFile = recordsOf(files);
  const known = findOwnMeta(files);
  const check = known === null ? () => null : checkPlanned(known, known.shard);
  const tally = new RecordTally();
  forEachRecord(recordsFile, {}, (record) => {
    const unplanned = check(record);
    if (unplanned !== null)
      throw new InputError(`${join(files.runDir, "records.jsonl")}: ${unplanned}`);
    tally.add(record);
  });
  if (tally.count === 0) throw noRecords(recordsFile);
  return {
    runDir: files.runDir,
    meta: known ?? metaFromRecords(basename(resolve(files.runDir)), tally, TOOL_VERSION),
    tally,
    records: lazy(() => readRecords(recordsFile)),
  };
}

const recordsOf = (files: RunFiles): string => files.records ?? join(files.runDir, "records.jsonl");
const noRecords = (file: string) =>
  new InputError(`${file}: no trial records (the run recorded nothing yet)`);

/** run.json (small), else report.json's run, else what the records themselves say. */
export function findMeta(files: RunFiles, records: TrialRecord[]): RunMeta {
  return (
    findOwnMeta(files) ??
    metaFromRecords(basename(resolve(files.runDir)), tallyRecords(records), TOOL_VERSION)
  );
}

/** run.json, else report.json's run; null when the run has neither (records written by another tool). */
function findOwnMeta(files: RunFiles): RunMeta | null {
  if (files.meta !== null) return readMeta(files.meta);
  // Only report.json's run is read and checked: the rest can run to megabytes.
  if (files.report !== null) return readJsonPart(files.report, REPORT_FILE, "run", RUN_FILE);
  return null;
}

const RUN_FILE: JsonFileKind<RunMeta> = {
  kind: "run",
  version: null,
  is: (value): value is RunMeta => typeof value === "object" && value !== null,
};

export function readMeta(file: string): RunMeta {
  return readJsonFile(file, RUN_FILE);
}
