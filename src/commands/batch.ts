import { join, resolve } from "node:path";
import { Argument, type Command } from "commander";
import { cancelBatches } from "../app/batch.js";
import { loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import { readMeta } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { EXIT, type SetExit } from "./io.js";
import { addConfigOptions, toOverrides, type ConfigFlags } from "./config-options.js";

export function registerBatch(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("batch"))
    .description("Manage a batch run's provider batches (run --batch): cancel the open ones. Collect them with run --resume RUN.")
    .addArgument(new Argument("<action>", "what to do").choices(["cancel"]))
    .argument("<run>", "the batch run's directory (it holds batches.json)")
    .action(async (_action: string, run: string, flags: ConfigFlags) => {
      const runDir = resolve(io.cwd, run);
      const config = loadConfig(flags.config ?? null, { ...pinnedOverrides(readMeta(join(runDir, "run.json"))), ...toOverrides(flags) }, io.cwd);
      const cancelled = await cancelBatches(runDir, config, io.env);
      io.stdout(`cancelled ${cancelled} open batch${cancelled === 1 ? "" : "es"} of ${runDir}; what they answered before stopping is collected by: route-eval run --resume ${runDir}\n`);
      setExit(EXIT.ok);
    });
}
