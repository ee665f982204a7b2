/** `route-eval tune`: its flags, then app/tune.ts. */
import { describeCommand } from "./catalogue.js";
import { Option, type Command } from "commander";
import { parseHoldout, tuneCommand, type TuneFlags } from "../app/tune.js";
import { parseAlpha, positiveInt } from "../app/cli-options.js";
import { addConfigOptions, formatOption, outputOption } from "./options.js";
import type { Io } from "../context.js";
import { TUNE_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerTune(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("tune"))
    .description(describeCommand("tune"))
    .addOption(
      new Option(
        "--proposer <kind>",
        "who writes revisions: rules (lint's fixes, no model) or endpoint (the endpoint, with the prompt in docs/tune.md)",
      )
        .choices(["rules", "endpoint"])
        .default("rules"),
    )
    .option(
      "--proposer-command <cmd>",
      "a command that writes revisions instead: the brief as JSON on stdin, revisions as JSON on stdout (docs/tune.md)",
    )
    .addOption(
      new Option("--rounds <n>", "at most this many rounds").argParser(positiveInt).default(3),
    )
    .option(
      "--budget <calls>",
      "at most this many endpoint calls in all (store hits are free)",
      positiveInt,
    )
    .addOption(
      new Option("--candidates <n>", "at most this many candidate revisions per round")
        .argParser(positiveInt)
        .default(4),
    )
    .addOption(
      new Option(
        "--holdout <share>",
        "the share of each family's cases held out (never shown to the proposer)",
      )
        .argParser(parseHoldout)
        .default(0.5),
    )
    .addOption(
      new Option(
        "--alpha <p>",
        "significance of the held-out gain (Holm across a round's candidates)",
      )
        .argParser(parseAlpha)
        .default(0.05),
    )
    .addOption(
      new Option(
        "--guard-alpha <p>",
        "a held-out case, or another tool, falling with one-sided Fisher p below this rejects the revision",
      )
        .argParser(parseAlpha)
        .default(0.1),
    )
    .option("--dry-run", "print the split and the most calls it could make, and ask none")
    .option(
      "--apply",
      "write the tuned snapshot over the original (default: beside it, <name>.tuned.yaml)",
    )
    .option("--id <name>", "the tune directory's name under out_dir (default <UTC time>-tune)")
    .option("--resume <dir>", "continue an interrupted tune (same flags): finished runs are kept")
    .addOption(formatOption(TUNE_FORMATS, "rendering on stdout"))
    .addOption(outputOption())
    .option("--no-progress", "no progress line on stderr")
    .addHelpText("after", helpAfter(TUNE_HELP, io))
    .action(async (flags: TuneFlags) => setExit(exitOf(await tuneCommand(io, flags))));
}

const TUNE_HELP = `
The cases are split, seeded by --seed and stratified by family, into a tune split and a held-out
split (a conversation's turns stay together). The registry is run; then, each round, the tools
behind the tune split's discovery and selection failures are briefed to the proposer (their
failing and passing tune goals, their rivals, lint's findings — never a held-out goal), and each
revision it writes is run on every case, through the response store. A revision is kept only when
  - held-out end-to-end accuracy rises beyond noise: the exact one-sided sign test over held-out
    cases, Holm-adjusted across the round's candidates, below --alpha;
  - no held-out case falls beyond its trial noise (one-sided Fisher p below --guard-alpha);
  - no other tool's cases fall (either split): its blast radius.
Of those that pass, the one that raised held-out accuracy most is kept, and the next round starts
from it. Rounds stop at --rounds, at --budget, or when nothing passes. The tuned snapshot (revision
counted up) is written beside the registry, or over it with --apply; every run is under
<out_dir>/<id>/runs/, and tune.json holds every candidate's evidence.

Examples:
  route-eval tune -c examples/tune/route-eval.yaml
  route-eval tune --endpoint openai:gpt-4.1-mini --proposer endpoint --rounds 2 --budget 2000
  route-eval tune --proposer-command "node my-proposer.js" -f markdown -o tune.md
`;
