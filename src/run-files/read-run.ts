/** A run read back from its directory: metadata and records, nothing written. */
import { basename, join, resolve } from "node:path";
import { InputError } from "../errors.js";
import { metaFromRecords } from "../report/build-report.js";
import { readJsonFile, readJsonPart, type JsonFileKind } from "./json-files.js";
import { locateRun, type RunFiles } from "./locate-run.js";
import { REPORT_FILE } from "./read-report.js";
import { readRecords } from "./records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";
import { TOOL_VERSION } from "../version.js";

/** A run directory's metadata and records, read without writing anything (`show` reads this way). */
export function readRun(target: string): { runDir: string; meta: RunMeta; records: TrialRecord[] } {
  const files = locateRun(target);
  const recordsFile = files.records ?? join(files.runDir, "records.jsonl");
  const records = readRecords(recordsFile);
  if (records.length === 0) throw new InputError(`${recordsFile}: no trial records (the run recorded nothing yet)`);
  return { runDir: files.runDir, meta: findMeta(files, records), records };
}

/** run.json (small), else report.json's run, else what the records themselves say. */
export function findMeta(files: RunFiles, records: TrialRecord[]): RunMeta {
  if (files.meta !== null) return readMeta(files.meta);
  // Only report.json's run is read and checked: the rest can run to megabytes.
  if (files.report !== null) return readJsonPart(files.report, REPORT_FILE, "run", RUN_FILE);
  return metaFromRecords(basename(resolve(files.runDir)), records, TOOL_VERSION);
}

const RUN_FILE: JsonFileKind<RunMeta> = { kind: "run", version: null, is: (value): value is RunMeta => typeof value === "object" && value !== null };

export function readMeta(file: string): RunMeta {
  return readJsonFile(file, RUN_FILE);
}
