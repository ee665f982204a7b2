/**
 * The run directory `reports/<run-id>/`: created fresh, or reopened by `--resume` to continue an
 * interrupted run. Reopening keeps every complete record, drops a torn last line (a write cut by
 * a crash) and rewrites records.jsonl without it, so appending continues on a clean line.
 */
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { InputError } from "../errors.js";
import { readMeta } from "./read-run.js";
import { readRecords } from "./records-io.js";
import { writeLinesFile } from "./write-files.js";
import type { RunMeta, TrialRecord } from "../types.js";

export interface RunDirectory {
  dir: string;
  runId: string;
  /** run.json of the interrupted run, when resuming. */
  previous: RunMeta | null;
  /** Records already written (resume), each (case, trial) once. */
  records: TrialRecord[];
}

export function createRunDirectory(outDir: string, runId: string): RunDirectory {
  let dir = join(outDir, runId);
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${runId}-${n}`);
  mkdirSync(dir, { recursive: true });
  return { dir, runId: basename(dir), previous: null, records: [] };
}

export function reopenRunDirectory(target: string): RunDirectory {
  const dir = resolve(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(`--resume ${target}: no such run directory (expected reports/<run-id> of an interrupted run)`);
  }
  const metaFile = join(dir, "run.json");
  const previous = existsSync(metaFile) ? readMeta(metaFile) : null;
  const recordsFile = join(dir, "records.jsonl");
  const records = existsSync(recordsFile) ? keepFirstOfEachTrial(readRecords(recordsFile, { dropTornTail: true })) : [];
  writeLinesFile(recordsFile, records, (record) => JSON.stringify(record));
  return { dir, runId: previous?.run_id ?? basename(dir), previous, records };
}

/** "case\u0000trial": the identity of one decision. */
export function trialKey(caseId: string, trial: number): string {
  return `${caseId}\u0000${trial}`;
}

function keepFirstOfEachTrial(records: TrialRecord[]): TrialRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    const key = trialKey(record.case_id, record.trial);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A resumed run must ask the same endpoint and model, or its records would mix two runs. */
export function checkResumable(run: RunDirectory, endpoint: string, model: string): void {
  const previous = run.previous;
  if (previous === null || (previous.endpoint === endpoint && previous.model === model)) return;
  throw new InputError(
    `--resume ${run.dir}: that run asked ${previous.endpoint}/${previous.model}, this one would ask ${endpoint}/${model}; resume with the same --endpoint and --model, or start a new run`,
  );
}
