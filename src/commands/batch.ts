import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXPERIMENT_FILE } from "../app/experiment.js";
import { readExperimentFile } from "../run-files/read-experiment.js";
import { resumePins } from "./ablate.js";
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
    .argument("<run>", "the batch run's directory, or a batch experiment's (it holds batches.json)")
    .action(async (_action: string, run: string, flags: ConfigFlags) => {
      const runDir = resolve(io.cwd, run);
      const experiment = existsSync(join(runDir, EXPERIMENT_FILE));
      const pins = experiment ? resumePins(run, io.cwd, readExperimentFile(join(runDir, EXPERIMENT_FILE)).kind) : pinnedOverrides(readMeta(join(runDir, "run.json")));
      const config = loadConfig(flags.config ?? null, { ...pins, ...toOverrides(flags) }, io.cwd);
      // An experiment's batches are each client's whose variant asked through it.
      const configs = experiment && config.variants.length > 0 ? [config, ...config.variants.map((v) => v.config)] : [config];
      const cancelled = await cancelBatches(runDir, configs, io.env);
      io.stdout(`cancelled ${cancelled} open batch${cancelled === 1 ? "" : "es"} of ${runDir}; what they answered before stopping is collected by: route-eval run --resume ${runDir}\n`);
      setExit(EXIT.ok);
    });
}
