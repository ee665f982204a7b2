/** `route-eval batch status|cancel DIR`: a batch run's (or experiment's) provider batches, asked about or cancelled. */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXPERIMENT_FILE } from "../trial/experiment.js";
import { readExperimentFile } from "../run-files/read-experiment.js";
import { resumePins } from "./experiment.js";
import { batchStatus, cancelBatches, type BatchSummary } from "../trial/batch.js";
import { inertLine } from "../text/inert.js";
import { configRoot, loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import { readMeta } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { toOverrides, type ConfigFlags } from "./cli-options.js";
import type { Outcome } from "../types.js";

export const BATCH_ACTIONS = ["status", "cancel"] as const;
export type BatchAction = (typeof BATCH_ACTIONS)[number];

export async function batchCommand(
  io: Io,
  action: BatchAction,
  target: string,
  flags: ConfigFlags,
): Promise<Outcome> {
  const dir = resolve(io.cwd, target);
  const experiment = existsSync(join(dir, EXPERIMENT_FILE))
    ? readExperimentFile(join(dir, EXPERIMENT_FILE))
    : null;
  const pins =
    experiment !== null
      ? resumePins(target, io.cwd, experiment.kind)
      : pinnedOverrides(readMeta(join(dir, "run.json")), configRoot(flags.config ?? null, io.cwd));
  const config = loadConfig(
    flags.config ?? null,
    { ...pins, ...toOverrides(flags) },
    io.cwd,
    "other",
  );
  // An experiment's batches are each client's whose variant asked through it.
  const configs =
    experiment !== null && config.variants.length > 0
      ? [config, ...config.variants.map((v) => v.config)]
      : [config];
  const collect = `route-eval ${experiment === null ? "run" : EXPERIMENT_KINDS[experiment.kind].command} --resume ${dir}`;
  if (action === "status") {
    io.stdout(describeStatus(dir, await batchStatus(dir, configs, io.env), collect));
    return "ok";
  }
  const cancelled = await cancelBatches(dir, configs, io.env);
  io.stdout(
    `cancelled ${cancelled} open batch${cancelled === 1 ? "" : "es"} of ${dir}; what they answered before stopping is collected by: ${collect}\n`,
  );
  return "ok";
}

/** Every batch on a line (the provider's ids and states shown as inert text), the requests per state, and what to run next. */
function describeStatus(dir: string, batches: BatchSummary[], collect: string): string {
  const requests = batches.reduce((n, b) => n + b.requests, 0);
  const perState = new Map<string, number>();
  for (const b of batches) perState.set(b.state, (perState.get(b.state) ?? 0) + b.requests);
  const counts = [...perState].map(([state, n]) => `${n} ${inertLine(state)}`).join(" · ");
  const lines = [
    `${dir}: ${batches.length} batch${batches.length === 1 ? "" : "es"}, ${requests} request${requests === 1 ? "" : "s"}${counts === "" ? "" : ` — ${counts}`}`,
  ];
  for (const b of batches)
    lines.push(
      `  ${inertLine(b.id)}  ${b.provider}:${inertLine(b.model)}  ${b.requests} request${b.requests === 1 ? "" : "s"}  ${inertLine(b.state)}${b.collected ? ", collected" : ""}`,
    );
  const open = batches.some((b) => !b.collected);
  lines.push(
    open
      ? `collect and finish (when they are done, or to wait for them): ${collect}`
      : `every batch is collected; ${collect} finishes the run if it was stopped`,
  );
  return `${lines.join("\n")}\n`;
}
