/** `route-eval ablate`: its flags, then app/ablate.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { ablateCommand, type ExperimentFlags } from "../app/ablate.js";
import {
  addConfigOptions,
  batchOptions,
  formatOption,
  outputOption,
  shardOption,
} from "./options.js";
import type { Io } from "../context.js";
import { EXPERIMENT_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerAblate(program: Command, io: Io, setExit: SetExit): void {
  const command = addConfigOptions(program.command("ablate"))
    .description(describeCommand("ablate"))
    .option(
      "--router <endpoint>",
      "the ladder's last rung: the same cases through this endpoint (e.g. openai:MODEL), with every mechanism on",
    )
    .option("--run-id <id>", "name of the experiment directory (default: <UTC time>-ablate)")
    .addOption(
      formatOption(
        EXPERIMENT_FORMATS,
        "rendering on stdout (html: written to <experiment>/experiment.html)",
      ),
    )
    .addOption(outputOption())
    .option(
      "--fail-if-worse <rung...>",
      'exit 1 when this rung\'s paired verdict against the rung before is "hurt"',
    )
    .option(
      "--resume <dir>",
      "continue an interrupted ablation: every rung keeps its records and runs the trials it lacks",
    )
    .addOption(
      shardOption(
        "run only shard I of N of the (case, trial) units in every rung; route-eval merge combines the shards",
      ),
    );
  for (const option of batchOptions({
    batch:
      "ask through the providers' batch APIs (openai, anthropic); a rung without one is asked live (config: batch)",
    detach: "with --batch: submit and exit; collect later with --resume DIR",
  }))
    command.addOption(option);
  command
    .option("--no-progress", "no progress line on stderr")
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .addHelpText("after", helpAfter(ABLATE_HELP, io))
    .action(async (flags: ExperimentFlags) => setExit(exitOf(await ablateCommand(io, flags))));
}

const ABLATE_HELP = `
The rungs, built from the config (the cases' phase, acceptable and forbidden stay fixed):
  purpose-only   each tool's purpose only, every registry tool exposed, no controls, no retriever
  + boundaries   full descriptions (use_when / avoid_when)
  + exposure     the config's phases          (skipped when it has none)
  + controls     the config's controls        (skipped when it offers none)
  + retrieval    the config's retriever and k (skipped without one)
  + tool search  the config's tool_search      (skipped when it is off)
  + router       --router ENDPOINT            (skipped without it)
A rung without controls scores abstention cases as failures: that is the point.

Each rung is a full run under <out>/<id>/variants/<rung>/ (show, diff and report work on it);
experiment.json holds the comparison. One response store serves every rung, so a request that
two rungs share is asked once, and a second ablate asks nothing.

Exit codes: 0 ok · 1 a gates.variants threshold or --fail-if-worse failed · 2 bad input ·
            3 endpoint failure · 4 internal error

Examples:
  route-eval ablate                                   # bundled example, baseline endpoint
  route-eval ablate -e openai:gpt-4.1-mini --trials 5 # needs OPENAI_API_KEY
  route-eval ablate --fail-if-worse "+ exposure"      # CI: the mechanism must not hurt
  route-eval ablate --format html                     # <experiment>/experiment.html
  route-eval ablate --resume reports/20261201-101500-ablate
`;
