/** A run's report on stdout (or a file) in the chosen format, and the verdict of its gates. */
import { join } from "node:path";
import { readHeadroom } from "../run-files/read-headroom.js";
import { writeChunks, writeOutput } from "./write-output.js";
import { reportJson } from "../run-files/write-files.js";
import type { Io } from "../context.js";
import { inertLine } from "../text/inert.js";
import { terminalWidth } from "../render/terminal-width.js";
import { explainRun } from "../show/explain-run.js";
import { renderReport } from "../report/render.js";
import type { GateResult, Outcome, Report, TrialRecord } from "../types.js";
import type { Format } from "../types/formats.js";

export interface OutputFlags {
  format: Format;
  output?: string;
  gates?: boolean;
}

/** The run directory behind a report, for renderings that need its records (html). */
export interface RunSource {
  runDir: string;
  /** Read lazily: only the html rendering needs the records. */
  records: () => TrialRecord[];
}

/**
 * Prints the report in the chosen format, or writes it to --output ("-" = stdout). html goes to
 * <run>/report.html unless --output says otherwise, with every case's explanation embedded.
 */
export function emitReport(
  io: Io,
  report: Report,
  flags: OutputFlags,
  gates: GateResult[],
  source?: RunSource,
): void {
  const html = flags.format === "html" && source !== undefined;
  const explanations = html ? explainRun(report, source.records()) : null;
  const headroom = html ? readHeadroom(source.runDir) : null;
  const output = flags.output ?? (html ? join(source.runDir, "report.html") : undefined);
  // JSON is written as it is rendered, a case row at a time (or as report.json was written).
  if (flags.format === "json") return writeChunks(io, reportJson(report), output);
  const text = renderReport(report, flags.format, {
    color: io.color && output === undefined,
    gates,
    explanations,
    headroom,
    width: terminalWidth(io),
  });
  writeOutput(io, text, output);
}

/**
 * "failed" when a gate or an exposure assertion failed. Every failure says why on stderr,
 * whatever the format: each failed gate (name, threshold, value and population) and assertion.
 */
export function verdict(io: Io, report: Report, gates: GateResult[]): Outcome {
  const failed = gates.filter((g) => !g.passed);
  for (const gate of failed)
    io.stderr(
      `route-eval: gate failed: ${gate.name} ${gate.threshold}: ${inertLine(gate.reason)}\n`,
    );
  for (const { case_id, failures } of report.exposure_assertions)
    io.stderr(
      `route-eval: exposure assertion failed: case "${inertLine(case_id)}": ${inertLine(failures.join("; "))}\n`,
    );
  return failed.length > 0 || report.exposure_assertions.length > 0 ? "failed" : "ok";
}
