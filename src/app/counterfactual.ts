import { resolveRunTarget } from "../run-files/locate-run.js";
import { ArgumentError } from "../errors.js";
/** `route-eval counterfactual RUN`: re-ask a finished run's failed trials with one change each, and render the headroom. */
import { join } from "node:path";
import { COUNTERFACTUAL_DIR, runCounterfactuals } from "../trial/counterfactual.js";
import { writeOutput } from "./write-output.js";
import { configRoot, loadConfig } from "../config/load-config.js";
import type { Io } from "../context.js";
import { FIX_KINDS, type FixKind } from "../types/counterfactual.js";
import type { CounterfactualFormat } from "../types/formats.js";
import { renderCounterfactual } from "../counterfactual/render-counterfactual.js";
import { createProgressPrinter } from "../render/progress.js";
import { readRun } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { inertLine } from "../text/inert.js";
import { terminalWidth } from "../render/terminal-width.js";
import { toOverrides, type ConfigFlags } from "./cli-options.js";
import type { Outcome } from "../types.js";

export interface CounterfactualFlags extends ConfigFlags {
  kinds: FixKind[];
  maxCounterfactuals?: number;
  repeats?: number;
  registryWith?: string;
  dryRun?: boolean;
  format: CounterfactualFormat;
  output?: string;
  progress?: boolean;
}

/** --kinds a,b: the changes to try (the placebo is always asked beside them). */
export function parseKinds(text: string): FixKind[] {
  const kinds = text
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k !== "");
  if (kinds.includes("placebo"))
    throw new ArgumentError("the placebo is always asked beside the changes; name only changes.");
  const unknown = kinds.filter((k) => !FIX_KINDS.some((known) => known === k));
  if (unknown.length > 0 || kinds.length === 0)
    throw new ArgumentError(
      `expected a comma-separated list of ${FIX_KINDS.join(", ")}${unknown.length > 0 ? ` (got ${unknown.join(", ")})` : ""}.`,
    );
  return kinds as FixKind[];
}

export async function counterfactualCommand(
  io: Io,
  run: string,
  flags: CounterfactualFlags,
): Promise<Outcome> {
  const target = resolveRunTarget(io.cwd, run);
  const { meta } = readRun(target);
  const config = loadConfig(
    flags.config ?? null,
    { ...pinnedOverrides(meta, configRoot(flags.config ?? null, io.cwd)), ...toOverrides(flags) },
    io.cwd,
    "other",
  );
  if (config.batch)
    io.stderr(
      "route-eval: note: batch: true applies to run and ablate; counterfactuals are asked live (through the store)\n",
    );
  const result = await runCounterfactuals(target, config, {
    kinds: flags.kinds,
    max: flags.maxCounterfactuals ?? null,
    repeats: flags.repeats ?? null,
    registryWith: flags.registryWith ?? null,
    dryRun: flags.dryRun === true,
    env: io.env,
    onProgress:
      flags.progress === false || flags.dryRun === true
        ? undefined
        : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
    onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
    signal: io.interrupts?.(),
  });
  if (result.dryRun) {
    const byKind = new Map<string, number>();
    for (const unit of result.plan.units) byKind.set(unit.kind, (byKind.get(unit.kind) ?? 0) + 1);
    const kinds = [...byKind].map(([kind, n]) => `${n} ${kind}`).join(", ") || "none";
    io.stdout(
      `dry run: ${result.plan.units.length} counterfactuals (${kinds}) would make ${result.calls} endpoint call${result.calls === 1 ? "" : "s"} (fewer when the store has answers)\n`,
    );
    for (const note of result.plan.notes) io.stdout(`note: ${inertLine(note)}\n`);
    return "ok";
  }
  const output = flags.output;
  writeOutput(
    io,
    renderCounterfactual(result.report, flags.format, {
      color: io.color && output === undefined,
      width: terminalWidth(io),
    }),
    output,
  );
  io.stderr(
    `counterfactual records and counterfactual.json: ${join(result.runDir, COUNTERFACTUAL_DIR)}\n`,
  );
  return "ok";
}
