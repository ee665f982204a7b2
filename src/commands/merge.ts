import type { Command } from "commander";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXPERIMENT_FILE } from "../app/ablate.js";
import { mergeExperimentShards, mergeShards, mergeSweepShards } from "../app/merge.js";
import { reportSweep } from "../app/report-sweep.js";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { emitExperiment } from "./ablate.js";
import { emitReport, formatOption, verdict, type OutputFlags } from "./io.js";
import { type SetExit } from "./exit.js";

interface MergeFlags extends OutputFlags {
  force?: boolean;
}

/** What the shard directories hold: runs, experiments (experiment.json) or sweeps (sweep.json). */
type ShardKind = "run" | "experiment" | "sweep";

export function registerMerge(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("merge")
    .argument("<out>", "the directory to write (e.g. reports/merged)")
    .argument("<shards...>", "the shard directories (run --shard I/N, or sweep --shard I/N), all of one run, experiment or sweep")
    .description("Combine shards (run --shard I/N, also of a variants experiment, or sweep --shard I/N) into one directory whose report equals the unsharded one's.")
    .addOption(formatOption())
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate the run's gates (plain runs)")
    .option("--force", "replace OUT when it already exists")
    .addHelpText("after", MERGE_HELP)
    .action((out: string, shards: string[], flags: MergeFlags) => {
      const outDir = resolve(io.cwd, out);
      const targets = shards.map((s) => resolve(io.cwd, s));
      const kind = kindOf(targets, shards);
      const options = { replace: flags.force === true, now: io.now };
      if (kind === "experiment") {
        const result = mergeExperimentShards(outDir, targets, options);
        io.stderr(`merged ${shards.length} experiment shards into ${result.dir}\n`);
        return setExit(emitExperiment(io, result, { format: flags.format, output: flags.output, stepSummary: false }));
      }
      if (kind === "sweep") {
        const { sweepDir } = mergeSweepShards(outDir, targets, options);
        io.stderr(`merged ${shards.length} sweep shards into ${sweepDir}\n`);
        reportSweep(io, sweepDir, flags);
        return setExit(0);
      }
      const { runDir, report, records } = mergeShards(outDir, targets, { gates: flags.gates !== false, replace: options.replace });
      emitReport(io, report, flags, report.gates, { runDir, records: () => records });
      io.stderr(`merged ${shards.length} shard${shards.length === 1 ? "" : "s"} into ${runDir}\n`);
      setExit(verdict(io, report, report.gates));
    });
}

function kindOf(targets: string[], shown: string[]): ShardKind {
  const kinds = targets.map((target): ShardKind => (existsSync(join(target, EXPERIMENT_FILE)) ? "experiment" : existsSync(join(target, "sweep.json")) ? "sweep" : "run"));
  const other = kinds.findIndex((k) => k !== kinds[0]);
  if (other !== -1) throw new InputError(`merge: ${shown[0]} is ${article(kinds[0])} shard and ${shown[other]} is ${article(kinds[other])} shard; give the shards of one run, experiment or sweep`);
  return kinds[0];
}

function article(kind: ShardKind): string {
  return kind === "experiment" ? "an experiment" : `a ${kind}`;
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
