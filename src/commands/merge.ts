import type { Command } from "commander";
import { mergeShards } from "../app/merge.js";
import type { Io } from "../context.js";
import { resolve } from "node:path";
import { emitReport, formatOption, verdict, type OutputFlags, type SetExit } from "./io.js";

interface MergeFlags extends OutputFlags {
  force?: boolean;
}

export function registerMerge(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("merge")
    .argument("<out>", "the run directory to write (e.g. reports/merged)")
    .argument("<shards...>", "the shard run directories (run --shard I/N), all of one run")
    .description("Combine shard runs (run --shard I/N) into one run directory whose report equals the unsharded run's.")
    .addOption(formatOption())
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-gates", "do not evaluate the run's gates")
    .option("--force", "replace OUT when it already holds a run")
    .addHelpText("after", MERGE_HELP)
    .action((out: string, shards: string[], flags: MergeFlags) => {
      const { runDir, report, records } = mergeShards(resolve(io.cwd, out), shards.map((s) => resolve(io.cwd, s)), { gates: flags.gates !== false, replace: flags.force === true });
      emitReport(io, report, flags, report.gates, { runDir, records: () => records });
      io.stderr(`merged ${shards.length} shard${shards.length === 1 ? "" : "s"} into ${runDir}\n`);
      setExit(verdict(io, report, report.gates));
    });
}

const MERGE_HELP = `
Refuses shards of different runs (settings, endpoint, cases or tool definitions differ: each
difference is named) and a set of shards with a (case, trial) missing or recorded twice (exit 2).

Examples:
  route-eval run --shard 1/3 --run-id s1 && route-eval run --shard 2/3 --run-id s2 && route-eval run --shard 3/3 --run-id s3
  route-eval merge reports/merged reports/s1 reports/s2 reports/s3
`;
