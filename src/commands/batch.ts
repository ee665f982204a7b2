import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXPERIMENT_FILE } from "../app/ablate.js";
import { readExperimentFile } from "../run-files/read-experiment.js";
import { resumePins } from "./ablate.js";
import { Argument, type Command } from "commander";
import { batchStatus, cancelBatches, type BatchSummary } from "../app/batch.js";
import { inertLine } from "../text/inert.js";
import { loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import { readMeta } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { EXIT, type SetExit } from "./exit.js";
import { addConfigOptions, toOverrides, type ConfigFlags } from "./config-options.js";

export function registerBatch(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("batch"))
    .description("A batch run's provider batches (run --batch, ablate --batch): status asks the provider for each open one's state; cancel cancels the open ones. Collect them with run --resume DIR.")
    .addArgument(new Argument("<action>", "what to do").choices(["status", "cancel"]))
    .argument("<dir>", "the batch run's directory, or a batch experiment's (it holds batches.json)")
    .addHelpText("after", BATCH_HELP)
    .action(async (action: "status" | "cancel", target: string, flags: ConfigFlags) => {
      const dir = resolve(io.cwd, target);
      const experiment = existsSync(join(dir, EXPERIMENT_FILE)) ? readExperimentFile(join(dir, EXPERIMENT_FILE)) : null;
      const pins = experiment !== null ? resumePins(target, io.cwd, experiment.kind) : pinnedOverrides(readMeta(join(dir, "run.json")));
      const config = loadConfig(flags.config ?? null, { ...pins, ...toOverrides(flags) }, io.cwd);
      // An experiment's batches are each client's whose variant asked through it.
      const configs = experiment !== null && config.variants.length > 0 ? [config, ...config.variants.map((v) => v.config)] : [config];
      const collect = `route-eval ${experiment?.kind === "ladder" ? "ablate" : "run"} --resume ${dir}`;
      if (action === "status") {
        io.stdout(describeStatus(dir, await batchStatus(dir, configs, io.env), collect));
        return setExit(EXIT.ok);
      }
      const cancelled = await cancelBatches(dir, configs, io.env);
      io.stdout(`cancelled ${cancelled} open batch${cancelled === 1 ? "" : "es"} of ${dir}; what they answered before stopping is collected by: ${collect}\n`);
      setExit(EXIT.ok);
    });
}

/** Every batch on a line (the provider's ids and states shown as inert text), the requests per state, and what to run next. */
function describeStatus(dir: string, batches: BatchSummary[], collect: string): string {
  const requests = batches.reduce((n, b) => n + b.requests, 0);
  const perState = new Map<string, number>();
  for (const b of batches) perState.set(b.state, (perState.get(b.state) ?? 0) + b.requests);
  const counts = [...perState].map(([state, n]) => `${n} ${inertLine(state)}`).join(" · ");
  const lines = [`${dir}: ${batches.length} batch${batches.length === 1 ? "" : "es"}, ${requests} request${requests === 1 ? "" : "s"}${counts === "" ? "" : ` — ${counts}`}`];
  for (const b of batches) lines.push(`  ${inertLine(b.id)}  ${b.provider}:${inertLine(b.model)}  ${b.requests} request${b.requests === 1 ? "" : "s"}  ${inertLine(b.state)}${b.collected ? ", collected" : ""}`);
  const open = batches.some((b) => !b.collected);
  lines.push(open ? `collect and finish (when they are done, or to wait for them): ${collect}` : `every batch is collected; ${collect} finishes the run if it was stopped`);
  return `${lines.join("\n")}\n`;
}

const BATCH_HELP = `
status polls the provider once for each open batch (batches.json is updated) and lists every
batch; cancel cancels the open ones. Neither finishes the run: run --resume DIR (ablate --resume
for an ablation) collects what the batches answered, on any machine with the store and the key.

Examples:
  route-eval run -e openai:gpt-4.1-mini --batch --detach
  route-eval batch status reports/<run-id>
  route-eval run --resume reports/<run-id>
  route-eval batch cancel reports/<run-id>
`;
