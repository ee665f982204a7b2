import { DISTRACTOR_POLICIES, type DistractorPolicy } from "../types/sweep.js";
import { Option, type Command } from "commander";
import { BudgetWithoutRetriever, loadConfig, type ConfigOverrides } from "../config/load-config.js";
import type { Config } from "../types.js";
import { InputError } from "../errors.js";
import { SWEEP_FORMATS, type SweepFormat } from "../sweep/render-sweep.js";
import { DEFAULT_SIZES, runSweep } from "../app/sweep.js";
import { formatPercent } from "../render/format.js";
import { emitSweep } from "../app/emit-sweep.js";
import type { SetExit } from "./exit.js";
import type { Io } from "../context.js";
import { positiveIntList } from "../config/parse-number.js";
import { addConfigOptions, toOverrides } from "./config-options.js";
import { parseShard, type Shard } from "../run-files/shard.js";

interface SweepFlags {
  config?: string;
  sizes?: number[];
  /** In a sweep, --k is the list of budgets to sweep. */
  k?: number[];
  distractors: DistractorPolicy;
  distractorRegistry?: string;
  sweepId?: string;
  format: SweepFormat;
  output?: string;
  shard?: Shard;
}

export function registerSweep(program: Command, io: Io, setExit: SetExit): void {
  const command = addConfigOptions(program.command("sweep"));
  // The shared -k/--k sets one budget; a sweep takes a list of them instead.
  command.options.find((option) => option.long === "--k")?.argParser(positiveIntList);
  const budget = command.options.find((option) => option.long === "--k");
  if (budget !== undefined) budget.description = "sweep the retriever's budget over these k (e.g. 1,3,5,10,20)";
  command
    .description("Hold the cases fixed and vary the visible ordinary-tool count (--sizes) or the retriever's k (--k); one full run per point.")
    .option("--sizes <list>", `visible ordinary-tool counts (default ${DEFAULT_SIZES.join(",")})`, positiveIntList)
    .addOption(new Option("--distractors <policy>", "how distractors are drawn: random, or similar (hard negatives first)").choices(DISTRACTOR_POLICIES).default("random"))
    .option("--distractor-registry <file>", "pad registries with this snapshot's tools when a case has too few exposed tools")
    .option("--sweep-id <id>", "name of the sweep directory (default: <UTC time>-sweep-<size|k>)")
    .option("--shard <I/N>", "run only shard I of N of every point's (case, trial) units; route-eval merge combines the shards", parseShard)
    .addOption(new Option("-f, --format <format>", "rendering on stdout (html: written to <sweep>/report.html, with a page per point)").choices(SWEEP_FORMATS).default("terminal"))
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (html: instead of <sweep>/report.html; \"-\": stdout)")
    .addHelpText("after", SWEEP_HELP)
    .action(async (flags: SweepFlags) => {
      const { k, sizes, ...rest } = flags;
      if (k !== undefined && sizes !== undefined) throw new InputError("--sizes and --k: choose one sweep (visible-set sizes, or retriever budgets)");
      // Each point sets its own k; the first one satisfies the config's "a retriever needs k" check.
      const config = loadSweepConfig(flags.config ?? null, toOverrides(rest), k, io.cwd);
      if (config.batch) io.stderr("route-eval: note: batch: true applies to run and ablate; a sweep asks its points live (through the store)\n");
      const kind = k === undefined ? "size" : "k";
      const { sweepDir, sweep } = await runSweep(config, {
        env: io.env,
        now: io.now,
        kind,
        values: k ?? sizes ?? DEFAULT_SIZES,
        distractors: flags.distractors,
        distractorRegistry: flags.distractorRegistry ?? null,
        sweepId: flags.sweepId,
        shard: flags.shard,
        onPoint: (point, runDir) =>
          io.stderr(`${kind} ${point.value}: selection accuracy ${formatPercent(point.selection_accuracy.value)} over ${point.scored} trials — ${runDir}\n`),
      });
      emitSweep(io, sweepDir, sweep, { format: flags.format, output: flags.output });
      io.stderr(`sweep.json, sweep.csv and one run per point: ${sweepDir}\n`);
      setExit(0);
    });
}

/** Each point sets its own k; the first one satisfies the config's "a retriever needs k" check. */
function loadSweepConfig(file: string | null, overrides: ConfigOverrides, k: number[] | undefined, cwd: string): Config {
  try {
    return loadConfig(file, { ...overrides, ...(k === undefined ? {} : { k: k[0] }) }, cwd);
  } catch (error) {
    if (!(k !== undefined && error instanceof BudgetWithoutRetriever)) throw error;
    throw new InputError("--k: a k sweep varies the retriever's budget, and discovery.retriever is none; pass --retriever bm25 (or embeddings)");
  }
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
  route-eval sweep --shard 1/2 --sweep-id w1             # and --shard 2/2 --sweep-id w2 elsewhere,
  route-eval merge reports/sweep reports/w1 reports/w2   # then one sweep, as if run whole
  route-eval sweep --format csv --output sweep.csv
  route-eval sweep --format html                       # <sweep>/report.html + each point's report.html
  route-eval report <out>/<sweep-id> --format html     # the same from a finished sweep
`;
