import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { InputError } from "../errors.js";
import { buildReport, metaFromRecords } from "../report/build-report.js";
import { readRecords } from "./records-io.js";
import { writeJsonFile, writeReportFile } from "./write-files.js";
import type { Report, RunMeta, TrialRecord } from "../types.js";
import { TOOL_VERSION } from "../version.js";

/**
 * `route-eval report`: rebuild report.json from records.jsonl alone (run.json, when present, only
 * supplies metadata). No endpoint is called and no registry is read.
 */
export function recomputeReport(target: string): { runDir: string; report: Report; records: TrialRecord[] } {
  const { runDir, meta, records } = readRun(target);
  const report = buildReport(meta, records);
  writeReportFile(join(runDir, "report.json"), report);
  return { runDir, report, records };
}

/** A run directory's metadata and records, read without writing anything (`show` reads this way). */
export function readRun(target: string): { runDir: string; meta: RunMeta; records: TrialRecord[] } {
  const { runDir, recordsFile } = locate(target);
  const records = readRecords(recordsFile);
  if (records.length === 0) throw new InputError(`${recordsFile}: no trial records (the run recorded nothing yet)`);
  const metaFile = join(runDir, "run.json");
  const meta = existsSync(metaFile) ? readMeta(metaFile) : metaFromRecords(basename(runDir), records, TOOL_VERSION);
  return { runDir, meta, records };
}

function locate(target: string): { runDir: string; recordsFile: string } {
  if (!existsSync(target)) throw new InputError(`${target}: no such file or directory (expected a run directory such as reports/<run-id>)`);
  if (statSync(target).isDirectory()) return { runDir: target, recordsFile: join(target, "records.jsonl") };
  if (["report.json", "run.json"].includes(basename(target))) return { runDir: dirname(target), recordsFile: join(dirname(target), "records.jsonl") };
  return { runDir: dirname(target), recordsFile: target };
}

export function readMeta(file: string): RunMeta {
  try {
    const value: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (value === null || typeof value !== "object" || !("run_id" in value) || !("config" in value)) {
      throw new InputError(`${file}: not a route-eval run.json (expected run_id and config)`);
    }
    return value as RunMeta;
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}
