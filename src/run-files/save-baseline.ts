/**
 * The baseline convention: `<out_dir>/baselines/<name>/` holds a copy of a finished run
 * (records.jsonl, sets.jsonl, run.json, report.json) that later runs are diffed against. Saving replaces the
 * previous baseline of that name whole, so a reader never sees a mix of two runs.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { stableStringify } from "../render/stable-json.js";
import { canonicalJson } from "../text/canonical-json.js";
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
  // The baseline's own id in diff headers ("baseline main, from run <id>"), in run.json and report.json alike.
  for (const file of ["run.json", "report.json"])
    renameRun(join(staging, file), file === "run.json" ? null : "run", name);
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
  return target;
}

/** Sets run_id to "baseline <name>" (keeping the run it came from in baseline_of). */
function renameRun(file: string, field: "run" | null, name: string): void {
  if (!existsSync(file)) return;
  const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const meta = (field === null ? json : json[field]) as Record<string, unknown> | undefined;
  if (meta === undefined || typeof meta.run_id !== "string") return;
  meta.baseline_of ??= meta.run_id;
  meta.run_id = `baseline ${name}`;
  writeFileSync(
    file,
    field === null ? `${canonicalJson(json, 2)}\n` : `${stableStringify(json, 2)}\n`,
  );
}
