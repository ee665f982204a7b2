import { ArgumentError } from "../errors.js";
/** `route-eval sweep`: its flags, then app/sweep.ts. */
import { describeCommand } from "./catalogue.js";
import { Option, type Command } from "commander";
import { TOOL_SEARCH_MODES, type ToolSearchMode } from "../types.js";
import { sweepCommand, type SweepFlags } from "../app/sweep.js";
import { positiveIntList } from "../app/cli-options.js";
import { addConfigOptions, formatOption, outputOption, shardOption } from "./options.js";
import type { Io } from "../context.js";
import { SWEEP_FORMATS } from "../types/formats.js";
import { DEFAULT_SIZES, DISTRACTOR_POLICIES } from "../types/sweep.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerSweep(program: Command, io: Io, setExit: SetExit): void {
  const command = addConfigOptions(program.command("sweep"));
  // The shared -k/--k sets one budget; a sweep takes a list of them instead.
  command.options.find((option) => option.long === "--k")?.argParser(positiveIntList);
  const budget = command.options.find((option) => option.long === "--k");
  if (budget !== undefined)
    budget.description = "sweep the retriever's budget over these k (e.g. 1,3,5,10,20)";
  command
    .description(describeCommand("sweep"))
    .option(
      "--sizes <list>",
      `visible ordinary-tool counts (default ${DEFAULT_SIZES.join(",")})`,
      positiveIntList,
    )
    .addOption(
      new Option(
        "--distractors <policy>",
        "how distractors are drawn: random, or similar (hard negatives first)",
      )
        .choices(DISTRACTOR_POLICIES)
        .default("random"),
    )
    .option(
      "--distractor-registry <file>",
      "pad registries with this snapshot's tools when a case has too few exposed tools",
    )
    .option(
      "--tool-search-axis <modes>",
      "run each size once per tool_search mode, e.g. off,client: search on vs off as the catalogue grows",
      parseSearchModes,
    )
    .option("--sweep-id <id>", "name of the sweep directory (default: <UTC time>-sweep-<size|k>)")
    .addOption(
      shardOption(
        "run only shard I of N of every point's (case, trial) units; route-eval merge combines the shards",
      ),
    )
    .addOption(
      formatOption(
        SWEEP_FORMATS,
        "rendering on stdout (html: written to <sweep>/report.html, with a page per point)",
      ),
    )
    .addOption(
      outputOption(
        'write the rendering to a file instead of stdout (html: instead of <sweep>/report.html; "-": stdout)',
      ),
    )
    .option("--no-progress", "no progress lines on stderr")
    .addHelpText("after", helpAfter(SWEEP_HELP, io))
    .action(async (flags: SweepFlags) => setExit(exitOf(await sweepCommand(io, flags))));
}

/** "off,client" → the modes, each one known. */
function parseSearchModes(raw: string): ToolSearchMode[] {
  const modes = raw
    .split(",")
    .map((m) => m.trim())
    .filter((m) => m !== "");
  const bad = modes.find((m) => !(TOOL_SEARCH_MODES as readonly string[]).includes(m));
  if (bad !== undefined || modes.length === 0)
    throw new ArgumentError(
      `expected modes from ${TOOL_SEARCH_MODES.join(", ")}, comma-separated (e.g. off,client)${bad === undefined ? "" : `; got "${bad}"`}`,
    );
  return [...new Set(modes)] as ToolSearchMode[];
}

const SWEEP_HELP = `
Every point is a full run (records.jsonl, run.json, report.json) under <out>/<sweep-id>/, so
\`route-eval report <out>/<sweep-id>/size-05\` works on it; sweep.json and sweep.csv sum them up.
A size sweep shows each case its exposed acceptable tools plus distractors, N ordinary tools in
all (controls are always visible and never counted); the sets are nested across sizes and fixed
by --seed. A k sweep keeps the configured retriever and varies its budget.

Examples:
  route-eval sweep                                     # sizes 5,10,20,40, random distractors
  route-eval sweep --sizes 5,10,20,40 --distractors similar --seed 7
  route-eval sweep --distractor-registry registries/distractors.yaml
  route-eval sweep --retriever bm25 --k 1,3,5,10,20
  route-eval sweep --distractor-registry registries/distractors.yaml --sizes 10,20,40,80 --tool-search-axis off,client
  route-eval sweep --shard 1/2 --sweep-id w1             # and --shard 2/2 --sweep-id w2 elsewhere,
  route-eval merge reports/sweep reports/w1 reports/w2   # then one sweep, as if run whole
  route-eval sweep --format csv --output sweep.csv
  route-eval sweep --format html                       # <sweep>/report.html + each point's report.html
  route-eval report <out>/<sweep-id> --format html     # the same from a finished sweep
`;
