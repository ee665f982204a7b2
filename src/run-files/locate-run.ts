/**
 * The one way to find a run's files from what a user names: a run directory, its run.json,
 * report.json or records.jsonl, or (for `diff`) a report.json standing alone.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { InputError } from "../errors.js";

export const RUN_TARGET =
  "expected a run directory (reports/<run-id>, or its run id), its records.jsonl, or a report.json";

/**
 * What a user names, as a path: the path itself when it exists; else, for a bare name (a run id,
 * as run and diff headers print it), reports/<name> or reports/baselines/<name> under `cwd`.
 */
export function resolveRunTarget(cwd: string, target: string): string {
  const path = resolve(cwd, target);
  if (existsSync(path) || /[\\/]/.test(target)) return path;
  const named = [join(cwd, "reports", target), join(cwd, "reports", "baselines", target)];
  return named.find((place) => existsSync(place)) ?? path;
}

export interface RunFiles {
  runDir: string;
  /** The trial records, when the target has them (a run directory, or a .jsonl file named directly). */
  records: string | null;
  /** run.json, when present. */
  meta: string | null;
  /** report.json: the directory's, or a .json file named directly. */
  report: string | null;
}

export function locateRun(target: string): RunFiles {
  if (!existsSync(target))
    throw new InputError(`${target}: no such file or directory (${RUN_TARGET})`);
  const isDir = statSync(target).isDirectory();
  const runDir = isDir ? target : dirname(target);
  const own = (name: string) => (existsSync(join(runDir, name)) ? join(runDir, name) : null);
  const named = isDir ? null : basename(target);
  if (
    named !== null &&
    named !== "run.json" &&
    named !== "report.json" &&
    !named.endsWith(".jsonl")
  ) {
    return { runDir, records: null, meta: null, report: target };
  }
  const records = named?.endsWith(".jsonl") ? target : own("records.jsonl");
  return {
    runDir,
    records,
    meta: own("run.json"),
    report: named === "report.json" ? target : own("report.json"),
  };
}
