/** `route-eval merge`: its flags, then app/merge.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { formatOption, outputOption } from "./options.js";
import { mergeCommand, type MergeFlags } from "../app/merge.js";
import type { Io } from "../context.js";
import { FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerMerge(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("merge")
    .argument("<out>", "the directory to write (e.g. reports/merged)")
    .argument(
      "<shards...>",
      "the shard directories (run --shard I/N, or sweep --shard I/N), all of one run, experiment or sweep",
    )
    .description(describeCommand("merge"))
    .addOption(formatOption(FORMATS, "rendering on stdout (html: written to <run>/report.html)"))
    .addOption(outputOption())
    .option("--no-gates", "do not evaluate the run's gates (plain runs)")
    .option("--force", "replace OUT when it already exists")
    .addHelpText("after", helpAfter(MERGE_HELP, io))
    .action((out: string, shards: string[], flags: MergeFlags) =>
      setExit(exitOf(mergeCommand(io, out, shards, flags))),
    );
}

const MERGE_HELP = `
Refuses shards of different runs (settings, endpoint, cases or tool definitions differ: each
difference is named) and a set of shards with a (case, trial) missing or recorded twice (exit 2).
Shards of a config with variants: (or of ablate) merge every variant, then compare them again;
shards of a sweep merge every point, then sum the sweep up again (sweep.json, sweep.csv).

Examples:
  route-eval run --shard 1/3 --run-id s1 && route-eval run --shard 2/3 --run-id s2 && route-eval run --shard 3/3 --run-id s3
  route-eval merge reports/merged reports/s1 reports/s2 reports/s3
  route-eval sweep --shard 1/2 --sweep-id w1 && route-eval sweep --shard 2/2 --sweep-id w2
  route-eval merge reports/sweep reports/w1 reports/w2
`;
