/**
 * `route-eval report SWEEP_DIR`: a directory holding sweep.json is a sweep, not a run. Its
 * summary is rendered from sweep.json (points are not recomputed); html also writes each point's
 * report.html from that point's records.
 */
import type { Format, SweepFormat } from "../types/formats.js";
import { dirname } from "node:path";
import { InputError } from "../errors.js";
import { findSweepFile, readSweepFile } from "../run-files/read-sweep.js";
import { emitSweep } from "./emit-sweep.js";
import type { Io } from "../context.js";

/** Report formats a sweep has (null: none; a sweep has no per-case JUnit). */
const SWEEP_RENDERINGS: Record<Format, SweepFormat | null> = {
  terminal: "terminal",
  json: "json",
  markdown: "markdown",
  junit: null,
  html: "html",
};

/** Renders the sweep behind `target` and returns true, or returns false when `target` is not a sweep. */
export function reportSweep(
  io: Io,
  target: string,
  flags: { format: Format; output?: string },
): boolean {
  const file = findSweepFile(target);
  if (file === null) return false;
  const format = SWEEP_RENDERINGS[flags.format];
  if (format === null)
    throw new InputError(
      `${target}: a sweep has no ${flags.format} rendering (use terminal, json, markdown or html; sweep.csv is beside sweep.json)`,
    );
  emitSweep(io, dirname(file), readSweepFile(file), { format, output: flags.output });
  return true;
}
