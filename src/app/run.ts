/**
 * `route-eval run`: the cases × trials of the config (or the run being resumed) through the
 * endpoint — live, or through the providers' batch APIs — then the report rendered, the step
 * summary, an optional baseline copy and counterfactuals, and the verdict of the gates. A config
 * with `variants:` runs as an experiment (app/ablate.ts).
 */
import { boundHeapGrowth } from "./bounded-heap.js";
import { plural } from "../render/format.js";
import { existsSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { loadCases } from "../cases/load-cases.js";
import { InputError, ArgumentError } from "../errors.js";
import { inertLine } from "../text/inert.js";
import { readMeta } from "../run-files/read-run.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { batchOverride, toOverrides, type ConfigFlags } from "./cli-options.js";
import { configRoot, loadConfig } from "../config/load-config.js";
import { renderMarkdown } from "../report/render-markdown.js";
import { BASELINE_NAME, saveBaseline } from "../run-files/save-baseline.js";
import { runEvaluation, type RunOptions } from "../trial/evaluate.js";
import { emitReport, verdict, type OutputFlags } from "./emit-report.js";
import { terminalWidth } from "../render/terminal-width.js";
import type { Io } from "../context.js";
import { appendStepSummary } from "./step-summary.js";
import { createProgressPrinter } from "../render/progress.js";
import { EXPERIMENT_FILE } from "../trial/experiment.js";
import { planVariants } from "../ablate/plan.js";
import type { Shard } from "../run-files/shard.js";
import { runBatch } from "../trial/batch.js";
import { BATCH_FILE } from "../run-files/batch-file.js";
import { reportDetached, resumePins, runPlannedExperiment } from "./experiment.js";
import { COUNTERFACTUAL_DIR, runCounterfactuals } from "../trial/counterfactual.js";
import { FIX_KINDS } from "../types/counterfactual.js";
import { renderCounterfactual } from "../counterfactual/render-counterfactual.js";
import type { Config, GateResult, Outcome, Report, RunProgress } from "../types.js";

export interface RunFlags extends ConfigFlags, OutputFlags {
  runId?: string;
  saveBaseline?: string;
  stepSummary?: boolean;
  resume?: string;
  progress?: boolean;
  failIfWorse?: string[];
  counterfactual?: boolean;
  force?: boolean;
  shard?: Shard;
  batch?: boolean;
  detach?: boolean;
  batchPollMs?: number;
  printInputs?: boolean;
}

export async function runCommand(io: Io, flags: RunFlags): Promise<Outcome> {
  boundHeapGrowth();
  // --resume of an experiment continues it with the settings experiment.json pins.
  if (
    flags.resume !== undefined &&
    existsSync(join(resolve(io.cwd, flags.resume), EXPERIMENT_FILE))
  ) {
    const pinnedExperiment = loadConfig(
      flags.config ?? null,
      {
        ...resumePins(flags.resume, io.cwd, "variants"),
        ...toOverrides(flags),
        ...batchOverride(flags),
      },
      io.cwd,
    );
    return runVariants(io, flags, pinnedExperiment);
  }
  // --resume continues the experiment run.json pins: its settings, unless a flag says otherwise (then refused).
  const previous =
    flags.resume === undefined ? null : readMeta(resumeMetaFile(flags.resume, io.cwd));
  const pinned =
    previous === null ? {} : pinnedOverrides(previous, configRoot(flags.config ?? null, io.cwd));
  const config = loadConfig(
    flags.config ?? null,
    { ...pinned, ...toOverrides(flags), ...batchOverride(flags) },
    io.cwd,
  );
  if (flags.printInputs === true) return printInputs(io, config);
  if (config.variants.length > 0) return runVariants(io, flags, config);
  const onProgress =
    flags.progress === false
      ? undefined
      : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) });
  const onWarning = (message: string) => io.stderr(`${inertLine(message)}\n`);
  const resume = flags.resume === undefined ? undefined : resolve(io.cwd, flags.resume);
  const options: RunOptions = {
    place:
      resume === undefined
        ? { kind: "new", id: flags.runId, replace: flags.force === true }
        : { kind: "resume", dir: resume },
    // --resume of a shard continues that shard.
    shard: flags.shard ?? previous?.shard,
    onProgress,
    onWarning,
    onNotice: onWarning,
    env: io.env,
    now: io.now,
    signal: io.interrupts?.(),
    gates: flags.gates !== false,
  };
  const batch = config.batch || (resume !== undefined && existsSync(join(resume, BATCH_FILE)));
  if (flags.detach === true && !batch)
    throw new InputError("--detach: only a batch run detaches; add --batch");
  const result = batch
    ? await runBatch(config, {
        ...options,
        detach: flags.detach === true,
        pollMs: flags.batchPollMs,
        onBatchProgress: (line) => io.stderr(`${line}\n`),
      })
    : { detached: false as const, ...(await runEvaluation(config, options)) };
  if (result.detached) return reportDetached(io, result, "run --resume");
  const { report, runDir, records } = result;
  const gates = report.gates;
  emitReport(io, report, flags, gates, { runDir, records });
  io.stderr(`records and report: ${runDir}\n`);
  appendStepSummary(io, () => renderMarkdown(report, { gates }), flags.stepSummary !== false);
  if (flags.saveBaseline !== undefined) {
    io.stderr(
      `baseline: ${saveBaseline(runDir, join(config.out_dir, "baselines"), flags.saveBaseline)}\n`,
    );
  }
  if (flags.counterfactual === true)
    await counterfactualAfterRun(
      io,
      runDir,
      config,
      flags.format === "terminal" && flags.output === undefined,
      options.onProgress,
    );
  return runOutcome(io, report, gates, runDir, options.shard !== undefined);
}

/**
 * A run's outcome: "errored" when any trial's endpoint call failed for good (never a green run:
 * those trials are in no rate), else the gates' verdict — except for a shard, which is not gated
 * (its gates see a part of the cases; route-eval merge evaluates them on the whole).
 */
function runOutcome(
  io: Io,
  report: Report,
  gates: GateResult[],
  runDir: string,
  shard: boolean,
): Outcome {
  const gated = shard ? "ok" : verdict(io, report, gates);
  if (shard && gates.some((g) => !g.passed))
    io.stderr(
      "route-eval: note: a shard is not gated (its gates see part of the cases); route-eval merge evaluates the gates on the merged run\n",
    );
  const { errored, trials } = report.metrics;
  if (errored === 0) return gated;
  io.stderr(
    `route-eval: ${errored} of ${plural(trials, "trial")} errored (the endpoint failed for good; they are in no rate); ask them again with: route-eval run --resume ${runDir}\n`,
  );
  return "errored";
}

/**
 * `run --print-inputs`: what the run reads — the config, the case files, the registry snapshots
 * they name (paths relative to the working directory) — and the store it answers from. The
 * GitHub Action keys its store cache on these files' contents.
 */
function printInputs(io: Io, config: Config): Outcome {
  const cases = loadCases(config);
  const shown = (file: string) => relative(io.cwd, file).split(sep).join("/");
  const unique = (files: string[]) => [...new Set(files)].sort().map(shown);
  const inputs = {
    config: config.file === null ? null : shown(config.file),
    cases: unique(cases.map((c) => c.source.file)),
    registries: unique(cases.map((c) => c.registry.file).filter((file) => file !== "")),
    store: shown(config.store_dir),
  };
  io.stdout(`${JSON.stringify(inputs, null, 2)}\n`);
  return "ok";
}

/** `run --counterfactual`: the headroom of the run just finished (printed after the report on a terminal). */
async function counterfactualAfterRun(
  io: Io,
  runDir: string,
  config: Config,
  print: boolean,
  onProgress: ((p: RunProgress) => void) | undefined,
): Promise<void> {
  const result = await runCounterfactuals(runDir, config, {
    kinds: FIX_KINDS,
    max: null,
    repeats: null,
    registryWith: null,
    dryRun: false,
    env: io.env,
    onProgress,
    signal: io.interrupts?.(),
    onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
  });
  if (result.dryRun) return;
  if (print)
    io.stdout(
      `\n${renderCounterfactual(result.report, "terminal", { color: io.color, width: terminalWidth(io) })}`,
    );
  io.stderr(
    `counterfactual records and counterfactual.json: ${join(runDir, COUNTERFACTUAL_DIR)}\n`,
  );
}

/** A config with `variants:` (or the resumed experiment's): the base and every variant, compared; sharded and batched like a run. */
async function runVariants(io: Io, flags: RunFlags, config: Config): Promise<Outcome> {
  if (flags.saveBaseline !== undefined)
    throw new InputError(
      "--save-baseline: saves one run, and this config has variants:; copy the variant you want instead (reports/<id>/variants/<name>) into reports/baselines/<name>",
    );
  if (flags.counterfactual === true)
    throw new InputError(
      "--counterfactual: re-asks one run's failures, and this config has variants:; run route-eval counterfactual on the variant you want (reports/<id>/variants/<name>)",
    );
  return runPlannedExperiment(io, planVariants(config), { ...flags, format: flags.format });
}

/** The run.json of the run to resume; a target that is not a route-eval run is refused. */
function resumeMetaFile(target: string, cwd: string): string {
  const file = join(resolve(cwd, target), "run.json");
  if (!existsSync(file)) {
    throw new InputError(
      `--resume ${target}: not a route-eval run directory (it has no run.json); give the reports/<run-id> directory of the run to continue`,
    );
  }
  return file;
}

/** --save-baseline NAME: a name that is safe as a directory. */
export function parseBaselineName(value: string): string {
  if (!BASELINE_NAME.test(value))
    throw new ArgumentError("expected a name of letters, digits, '.', '_' or '-' (e.g. main).");
  return value;
}
