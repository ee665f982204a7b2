/**
 * The run directory `reports/<run-id>/`: created fresh, or reopened by `--resume` to continue an
 * interrupted run. Reopening keeps every complete scored record, drops a torn last line (a write
 * cut by a crash) and errored trials, and rewrites records.jsonl without them, so appending
 * continues on a clean line.
 */
import { makeDirectory } from "./write-files.js";
import { closeSync, existsSync, openSync, readSync, renameSync, rmSync, statSync } from "node:fs";
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
  /** Rewrites records.jsonl as `records` when reopening dropped a line (or the last line has no newline). */
  repair(): void;
  /**
   * The run a `--force` replaces, set aside until this one records something: `keep()` drops it
   * (the new run stands), `restore()` puts it back in place of this one (nothing was recorded).
   */
  replacing?: { keep(): void; restore(): void };
}

/** A run, sweep or experiment id names one directory inside the reports folder: one path segment (no separator, not "." or ".."). */
const RUN_ID = /^(?!\.{1,2}$)[^/\\\0]{1,200}$/;

/** The directory of `id` inside `outDir`; an id that would reach outside it (a path, "..") is refused. */
export function runDirectoryOf(outDir: string, id: string, flag = "--run-id"): string {
  if (!RUN_ID.test(id)) {
    throw new InputError(
      `${flag} ${JSON.stringify(id)}: an id names one directory inside the reports folder — no "/" or "\\", not "." or ".." (use --out-dir to choose the folder)`,
    );
  }
  return join(outDir, id);
}

/**
 * A fresh run directory. A default id (a timestamp) that is taken gets a -2, -3… suffix; an id the
 * user named (`named`) that is taken is an error, unless `replace` says to replace that run.
 */
export function createRunDirectory(
  outDir: string,
  runId: string,
  options: { named?: boolean; replace?: boolean } = {},
): RunDirectory {
  let dir = runDirectoryOf(outDir, runId);
  let replacing: RunDirectory["replacing"];
  if (options.named === true && existsSync(dir)) {
    if (options.replace !== true)
      throw new InputError(
        `--run-id ${runId}: ${dir} already exists; choose another id, or pass --force to replace that run`,
      );
    // Set aside, not deleted: a run that stops before recording anything gives it back.
    const aside = join(outDir, `.${basename(dir)}.replaced`);
    rmSync(aside, { recursive: true, force: true });
    renameSync(dir, aside);
    const target = dir;
    replacing = {
      keep: () => rmSync(aside, { recursive: true, force: true }),
      restore: () => {
        rmSync(target, { recursive: true, force: true });
        renameSync(aside, target);
      },
    };
  }
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${runId}-${n}`);
  makeDirectory(dir);
  return {
    dir,
    runId: basename(dir),
    previous: null,
    records: [],
    redo: 0,
    repair: () => {},
    ...(replacing === undefined ? {} : { replacing }),
  };
}

/**
 * Reopen an interrupted run. Only a route-eval run directory (one with run.json) is reopened.
 * Errored trials are not results: they are dropped here so the run asks them again.
 */
export function reopenRunDirectory(target: string): RunDirectory {
  const dir = resolve(target);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError(
      `--resume ${target}: no such run directory (expected reports/<run-id> of an interrupted run)`,
    );
  }
  const metaFile = join(dir, "run.json");
  if (!existsSync(metaFile)) {
    throw new InputError(
      `--resume ${target}: not a route-eval run directory (it has no run.json); give the reports/<run-id> directory of the run to continue`,
    );
  }
  const previous = readMeta(metaFile);
  const recordsFile = join(dir, "records.jsonl");
  let dropped = 0;
  const all = existsSync(recordsFile)
    ? readRecords(recordsFile, {
        dropTornTail: true,
        keepFirstDuplicate: true,
        onDrop: () => void (dropped += 1),
      })
    : [];
  const records = all.filter((record) => record.error === null);
  const clean = dropped === 0 && records.length === all.length && endsWithNewline(recordsFile);
  const repair = () => void (clean ? undefined : rewriteRecords(recordsFile, records));
  return {
    dir,
    runId: previous.run_id,
    previous,
    records,
    redo: all.length - records.length,
    repair,
  };
}

/** Whether the file is empty or ends with "\n" (so the next append starts a line). */
function endsWithNewline(file: string): boolean {
  if (!existsSync(file)) return true;
  const size = statSync(file).size;
  if (size === 0) return true;
  const fd = openSync(file, "r");
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } finally {
    closeSync(fd);
  }
}
