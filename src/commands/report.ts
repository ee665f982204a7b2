import type { Command } from "commander";
import { recomputeReport } from "../app/report.js";
import { emitReport, formatOption, verdict, type OutputFlags, type SetExit } from "./io.js";
import type { Io } from "../context.js";
import { reportSweep } from "../app/report-sweep.js";

export function registerReport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("report")
    .argument("<run>", "a run directory (reports/<run-id>) or its records.jsonl; or a sweep directory (holding sweep.json)")
    .description("Recompute report.json from records.jsonl alone (no endpoint calls) and render it.")
    .addOption(formatOption())
    .option("--output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate the run's gates")
    .addHelpText("after", "\nRecords written by other tools in the same format work too (see README: Trial records).\nA sweep directory is rendered from its sweep.json (html: <sweep>/report.html, plus each point's report.html).\n")
    .action((run: string, flags: OutputFlags) => {
      if (reportSweep(io, run, flags)) return setExit(0);
      const { report, runDir, records } = recomputeReport(run, { gates: flags.gates !== false });
      const gates = report.gates;
      emitReport(io, report, flags, gates, { runDir, records: () => records });
      setExit(verdict(io, report, gates));
    });
}
