import { InvalidArgumentError, Option, type Command } from "commander";
import { COUNTERFACTUAL_DIR, runCounterfactuals } from "../app/counterfactual.js";
import { writeOutput } from "../app/write-output.js";
import { loadConfig } from "../config/load-config.js";
import { positiveInt } from "../config/parse-number.js";
import type { Io } from "../context.js";
import { COUNTERFACTUAL_KINDS, type CounterfactualKind } from "../types/counterfactual.js";
import { COUNTERFACTUAL_FORMATS, renderCounterfactual, type CounterfactualFormat } from "../counterfactual/render-counterfactual.js";
import { createProgressPrinter } from "../render/progress.js";
import { readRun } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { inertLine } from "../text/inert.js";
import { EXIT, type SetExit } from "./exit.js";
import { terminalWidth } from "../render/terminal.js";
import { addConfigOptions, toOverrides, type ConfigFlags } from "./config-options.js";
import { join, resolve } from "node:path";

interface CounterfactualFlags extends ConfigFlags {
  kinds: CounterfactualKind[];
  maxCounterfactuals?: number;
  repeats?: number;
  registryWith?: string;
  dryRun?: boolean;
  format: CounterfactualFormat;
  output?: string;
  progress?: boolean;
}

function parseKinds(text: string): CounterfactualKind[] {
  const kinds = text.split(",").map((k) => k.trim()).filter((k) => k !== "");
  const unknown = kinds.filter((k) => !COUNTERFACTUAL_KINDS.some((known) => known === k));
  if (unknown.length > 0 || kinds.length === 0) throw new InvalidArgumentError(`expected a comma-separated list of ${COUNTERFACTUAL_KINDS.join(", ")}${unknown.length > 0 ? ` (got ${unknown.join(", ")})` : ""}.`);
  return kinds as CounterfactualKind[];
}

export function registerCounterfactual(program: Command, io: Io, setExit: SetExit): void {
  addConfigOptions(program.command("counterfactual"))
    .argument("<run>", "a finished run directory (reports/<run-id>)")
    .description("Re-ask each failed trial with one change to what the model saw; report which fixes would have fixed it (headroom per stage).")
    .option("--kinds <list>", `which counterfactuals (default all: ${COUNTERFACTUAL_KINDS.join(",")})`, parseKinds, [...COUNTERFACTUAL_KINDS])
    .option("--max-counterfactuals <n>", "ask at most this many, spread case by case across stages", positiveInt)
    .option("--repeats <n>", "trials per counterfactual (default: the run's trials of that case)", positiveInt)
    .option("--registry-with <file>", "a registry snapshot holding tools the run's registry lacks, to inject for coverage failures")
    .option("--dry-run", "print how many calls it would make, and ask none")
    .addOption(new Option("-f, --format <format>", "rendering on stdout").choices(COUNTERFACTUAL_FORMATS).default("terminal"))
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (\"-\": stdout)")
    .option("--no-progress", "no progress line on stderr")
    .addHelpText("after", COUNTERFACTUAL_HELP)
    .action(async (run: string, flags: CounterfactualFlags) => {
      const target = resolve(io.cwd, run);
      const { meta } = readRun(target);
      const config = loadConfig(flags.config ?? null, { ...pinnedOverrides(meta), ...toOverrides(flags) }, io.cwd);
      if (config.batch) io.stderr("route-eval: note: batch: true applies to run and ablate; counterfactuals are asked live (through the store)\n");
      const result = await runCounterfactuals(target, config, {
        kinds: flags.kinds,
        max: flags.maxCounterfactuals ?? null,
        repeats: flags.repeats ?? null,
        registryWith: flags.registryWith ?? null,
        dryRun: flags.dryRun === true,
        env: io.env,
        onProgress: flags.progress === false || flags.dryRun === true ? undefined : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
        onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
        signal: io.interrupts?.(),
      });
      if (result.dryRun) {
        const byKind = new Map<string, number>();
        for (const unit of result.plan.units) byKind.set(unit.kind, (byKind.get(unit.kind) ?? 0) + 1);
        const kinds = [...byKind].map(([kind, n]) => `${n} ${kind}`).join(", ") || "none";
        io.stdout(`dry run: ${result.plan.units.length} counterfactuals (${kinds}) would make ${result.calls} endpoint call${result.calls === 1 ? "" : "s"} (fewer when the store has answers)\n`);
        for (const note of result.plan.notes) io.stdout(`note: ${inertLine(note)}\n`);
        return setExit(EXIT.ok);
      }
      const output = flags.output;
      writeOutput(io, renderCounterfactual(result.report, flags.format, { color: io.color && output === undefined, width: terminalWidth(io) }), output);
      io.stderr(`counterfactual records and counterfactual.json: ${join(result.runDir, COUNTERFACTUAL_DIR)}\n`);
      setExit(EXIT.ok);
    });
}

const COUNTERFACTUAL_HELP = `
For each failed trial (scored, not errored) of RUN, the same endpoint, case, prior turns and
settings are asked again with one change to the visible set:
  inject        coverage / exposure / discovery failures: the acceptable tool(s) added, where the
                retriever ranked them (else at a seeded random position); a coverage failure needs
                the tool's definition from --registry-with
  remove-rival  selection failures that picked another visible tool: that tool removed
  first         selection failures: the acceptable tool moved to the first position
  pair          selection failures: only the acceptable tool, the rival and the controls
Answers go through the response store: a second run is free, and --mode replay asks nothing.
Writes RUN/counterfactual/records.jsonl and RUN/counterfactual/counterfactual.json.

Examples:
  route-eval counterfactual reports/<run-id> --dry-run
  route-eval counterfactual reports/<run-id> --kinds remove-rival,pair --max-counterfactuals 50
  route-eval counterfactual reports/<run-id> --registry-with registries/distractors.yaml
`;
