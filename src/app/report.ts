/**
 * `route-eval report` composition root: a sweep directory is rendered from sweep.json, an
 * experiment's from experiment.json; a run is read, its report rebuilt and written, then rendered.
 */
import { resolveRunTarget } from "../run-files/locate-run.js";
import { dirname, join } from "node:path";
import type { Io } from "../context.js";
import { findExperimentFile, readExperimentFile } from "../run-files/read-experiment.js";
import { emitExperiment } from "./experiment.js";
import { emitReport, verdict, type OutputFlags } from "./emit-report.js";
import { reportSweep } from "./report-sweep.js";
import { reportOfTally } from "../report/build-report.js";
import { countRun } from "../run-files/read-run.js";
import { writeReportFile } from "../run-files/write-files.js";
import type { Outcome, Report, TrialRecord } from "../types.js";

/**
 * `route-eval report`: rebuild report.json from records.jsonl alone (run.json, when present, only
 * supplies metadata). No endpoint is called and no registry is read.
 */
export function recomputeReport(
  target: string,
  options: { gates: boolean },
): { runDir: string; report: Report; records: () => TrialRecord[] } {
  const { runDir, meta, tally, records } = countRun(target);
  const report = reportOfTally(meta, tally, { ...options, records });
  writeReportFile(join(runDir, "report.json"), report);
  return { runDir, report, records };
}

export function reportCommand(io: Io, run: string, flags: OutputFlags): Outcome {
  if (reportSweep(io, run, flags)) return "ok";
  const experiment = findExperimentFile(resolveRunTarget(io.cwd, run));
  if (experiment !== null) {
    const dir = dirname(experiment);
    return emitExperiment(
      io,
      { dir, experiment: readExperimentFile(experiment) },
      { format: flags.format, output: flags.output, stepSummary: false },
    );
  }
  const { report, runDir, records } = recomputeReport(resolveRunTarget(io.cwd, run), {
    gates: flags.gates !== false,
  });
  emitReport(io, report, flags, report.gates, { runDir, records });
  return verdict(io, report, report.gates);
}
