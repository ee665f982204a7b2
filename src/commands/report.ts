/** `route-eval report`: its flags, then app/report.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { formatOption, outputOption } from "./options.js";
import type { OutputFlags } from "../app/emit-report.js";
import { reportCommand } from "../app/report.js";
import type { Io } from "../context.js";
import { FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerReport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("report")
    .argument(
      "<run>",
      "a run directory (reports/<run-id>) or its records.jsonl; a sweep directory (holding sweep.json); or an experiment directory (holding experiment.json)",
    )
    .description(describeCommand("report"))
    .addOption(formatOption(FORMATS, "rendering on stdout (html: written to <run>/report.html)"))
    .addOption(outputOption())
    .option("--no-gates", "do not evaluate the run's gates")
    .addHelpText(
      "after",
      helpAfter(
        "\nRecords written by other tools in the same format work too (see docs/files.md: Trial records).\nA sweep directory is rendered from its sweep.json (html: <sweep>/report.html, plus each point's report.html).\nAn experiment directory (run with variants:, or ablate) is rendered from its experiment.json as written\n(html: <experiment>/experiment.html, plus each variant's report.html); report each variants/<name> to recompute it.\n",
        io,
      ),
    )
    .action((run: string, flags: OutputFlags) => setExit(exitOf(reportCommand(io, run, flags))));
}
