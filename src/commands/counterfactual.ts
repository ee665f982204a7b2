/** `route-eval counterfactual`: its flags, then app/counterfactual.ts. */
import { describeCommand } from "./catalogue.js";
import { Option, type Command } from "commander";
import {
  counterfactualCommand,
  parseKinds,
  type CounterfactualFlags,
} from "../app/counterfactual.js";
import { positiveInt } from "../app/cli-options.js";
import { addConfigOptions, formatOption, outputOption } from "./options.js";
import type { Io } from "../context.js";
import { FIX_KINDS } from "../types/counterfactual.js";
import { COUNTERFACTUAL_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerCounterfactual(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("counterfactual"))
    .argument("<run>", "a finished run directory (reports/<run-id>)")
    .description(describeCommand("counterfactual"))
    .addOption(
      new Option(
        "--kinds <list>",
        `which changes to try, comma-separated: ${FIX_KINDS.join(", ")} (the placebo is always asked)`,
      )
        .argParser(parseKinds)
        .default([...FIX_KINDS], "all"),
    )
    .option(
      "--max-counterfactuals <n>",
      "ask at most this many, spread case by case across stages",
      positiveInt,
    )
    .option(
      "--repeats <n>",
      "trials per counterfactual (default: the run's trials of that case)",
      positiveInt,
    )
    .option(
      "--registry-with <file>",
      "a registry snapshot holding tools the run's registry lacks, to inject for coverage failures",
    )
    .option("--dry-run", "print how many calls it would make, and ask none")
    .addOption(formatOption(COUNTERFACTUAL_FORMATS, "rendering on stdout"))
    .addOption(outputOption())
    .option("--no-progress", "no progress line on stderr")
    .addHelpText("after", helpAfter(COUNTERFACTUAL_HELP, io))
    .action(async (run: string, flags: CounterfactualFlags) =>
      setExit(exitOf(await counterfactualCommand(io, run, flags))),
    );
}

const COUNTERFACTUAL_HELP = `
For each failed trial (scored, not errored) of RUN, the same endpoint, case, prior turns and
settings are asked again with one change to the visible set, and once more unchanged:
  placebo       always asked: the visible set unchanged. Every change is read against it, so
                what chance recovers is not counted as headroom
  inject        coverage / exposure failures: the acceptable tool(s) exposed, then the run's
                retriever chooses again (so exposure's headroom is not also discovery's);
                discovery failures: added where the retriever ranked them (else at a seeded
                random position); a coverage failure needs the tool's definition from
                --registry-with
  inject-visible coverage / exposure failures: added past exposure and retrieval both
  remove-rival  selection failures that picked another visible tool: that tool removed
  first         selection failures: the acceptable tool moved to the first position
  pair          selection failures: only the acceptable tool, the rival and the controls
The placebo and the changes of one failed trial share fresh seeds (drawn from the run seed, the
case, the failed trial and the repeat), never the failed trial's own: two failed trials never send
one request twice. Answers go through the response store: a second run is free, and --mode
replay asks nothing.
Writes RUN/counterfactual/records.jsonl and RUN/counterfactual/counterfactual.json.

Examples:
  route-eval counterfactual reports/<run-id> --dry-run
  route-eval counterfactual reports/<run-id> --kinds remove-rival,pair --max-counterfactuals 50
  route-eval counterfactual reports/<run-id> --registry-with registries/distractors.yaml
`;
