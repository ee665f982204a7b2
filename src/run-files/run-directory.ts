/**
 * The run directory `reports/<run-id>/`: created fresh, or reopened by `--resume` to continue an
 * interrupted run. Reopening keeps every complete scored record, drops a torn last line (a write
 * cut by a crash) and errored trials, and rewrites records.jsonl without them, so appending
 * continues on a clean line.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { InputError } from "../errors.js";
import { readMeta } from "./read-run.js";
import { readRecords, rewriteRecords } from "./records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";

export interface RunDirectory {
  dir: string;
  runId: string;
  /** run.json of the interrupted run, when resuming. */
  previous: RunMeta | null;
  /** Scored records already written (resume), each (case, trial) once. */
  records: TrialRecord[];
  /** Errored trials dropped on reopening, to be asked again. */
  redo: number;
}

export function createRunDirectory(outDir: string, runId: string): RunDirectory {
  let dir = join(outDir, runId);
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${runId}-${n}`);
  mkdirSync(dir, { recursive: true });
  return { dir, runId: basename(dir), previous: null, records: [], redo: 0 };
}

/**
 * Reopen an interrupted run. Only a route-eval run directory (one with run.json) is reopened.
 * Errored trials are not results: they are dropped here so the run asks them again.
 */
export function reopenRunDirectory(target: string): RunDirectory {
  const dir = resolve(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`--resume ${target}: no such run directory (expected reports/<run-id> of an interrupted run)`);
  }
  const metaFile = join(dir, "run.json");
  if (!existsSync(metaFile)) {
    throw new InputError(`--resume ${target}: not a route-eval run directory (it has no run.json); give the reports/<run-id> directory of the run to continue`);
  }
  const previous = readMeta(metaFile);
  const recordsFile = join(dir, "records.jsonl");
  const all = existsSync(recordsFile) ? readRecords(recordsFile, { dropTornTail: true, keepFirstDuplicate: true }) : [];
  const records = all.filter((record) => record.error === null);
  rewriteRecords(recordsFile, records);
  return { dir, runId: previous.run_id, previous, records, redo: all.length - records.length };
}


