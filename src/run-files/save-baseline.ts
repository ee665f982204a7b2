/**
 * The baseline convention: `<out_dir>/baselines/<name>/` holds a copy of a finished run
 * (records.jsonl, sets.jsonl, run.json, report.json) that later runs are diffed against. Saving replaces the
 * previous baseline of that name whole, so a reader never sees a mix of two runs.
 */
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/** The files of a run directory that make a baseline (records first: diff pairs trials by them). */
export const BASELINE_FILES = ["records.jsonl", "sets.jsonl", "run.json", "report.json"] as const;

/** A baseline name is one path segment: letters, digits, `.`, `_`, `-`. */
export const BASELINE_NAME = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/** Copies the run into `<baselinesDir>/<name>/`, replacing what was there; returns that path. */
export function saveBaseline(runDir: string, baselinesDir: string, name: string): string {
  const target = join(baselinesDir, name);
  const staging = join(baselinesDir, `.${name}.${process.pid}.tmp`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of BASELINE_FILES) {
    if (existsSync(join(runDir, file))) copyFileSync(join(runDir, file), join(staging, file));
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return target;
}
