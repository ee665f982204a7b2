import type { Command } from "commander";
import { recomputeReport } from "../app/report.js";
import { emitReport, formatOption, verdict, type OutputFlags } from "./io.js";
import { type SetExit } from "./exit.js";
import type { Io } from "../context.js";
import { reportSweep } from "../app/report-sweep.js";
import { dirname, resolve } from "node:path";
import { findExperimentFile, readExperimentFile } from "../run-files/read-experiment.js";
import { emitExperiment } from "./ablate.js";

export function registerReport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("report")
    .argument("<run>", "a run directory (reports/<run-id>) or its records.jsonl; a sweep directory (holding sweep.json); or an experiment directory (holding experiment.json)")
    .description("Recompute report.json from records.jsonl alone (no endpoint calls) and render it.")
    .addOption(formatOption())
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate the run's gates")
    .addHelpText("after", "\nRecords written by other tools in the same format work too (see README: Trial records).\nA sweep directory is rendered from its sweep.json (html: <sweep>/report.html, plus each point's report.html).\nAn experiment directory (run with variants:, or ablate) is rendered from its experiment.json as written\n(html: <experiment>/experiment.html, plus each variant's report.html); report each variants/<name> to recompute it.\n")
    .action((run: string, flags: OutputFlags) => {
      if (reportSweep(io, run, flags)) return setExit(0);
      const experiment = findExperimentFile(resolve(io.cwd, run));
      if (experiment !== null) {
        const dir = dirname(experiment);
        return setExit(emitExperiment(io, { dir, experiment: readExperimentFile(experiment) }, { format: flags.format, output: flags.output, stepSummary: false }));
      }
      const { report, runDir, records } = recomputeReport(run, { gates: flags.gates !== false });
      const gates = report.gates;
      emitReport(io, report, flags, gates, { runDir, records: () => records });
      setExit(verdict(io, report, gates));
    });
}
