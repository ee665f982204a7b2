/** `route-eval show`: its flags, then app/show.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { showCommand, type ShowFlags } from "../app/show.js";
import type { Io } from "../context.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerShow(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("show")
    .argument("<run>", "a run directory (reports/<run-id>), its records.jsonl or its report.json")
    .description(describeCommand("show"))
    .option(
      "--case <id>",
      "explain one case: what existed, was exposed, retrieved, chosen, and why it failed",
    )
    .option("--json", "print the explanation(s) as JSON instead of text")
    .addHelpText("after", helpAfter(SHOW_HELP, io))
    .action((run: string, flags: ShowFlags) => setExit(exitOf(showCommand(io, run, flags))));
}

const SHOW_HELP = `
Nothing is re-run and nothing is written: show reads run.json and records.jsonl (and, with
--case, the case's counterfactuals when route-eval counterfactual has run on it).
Exit codes: 0 shown · 2 bad input (no such run, unknown case id).

Examples:
  route-eval show reports/20261130-101500-baseline
  route-eval show reports/20261130-101500-baseline --case order-status-free-text
`;
