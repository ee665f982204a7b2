/**
 * An experiment — the ablation ladder of `route-eval ablate`, or a config's `variants:` under
 * `route-eval run` — run (live or through the batch APIs), rendered, written to the step summary,
 * and its outcome decided; and what report, merge and batch do with one (resume pins, rendering
 * an experiment.json). The command roots (app/ablate.ts, app/run.ts, …) compose it.
 */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXPERIMENT_FILE, runExperiment, type ExperimentResult } from "../trial/experiment.js";
import { appendStepSummary } from "./step-summary.js";
import { writeOutput } from "./write-output.js";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import type { ExperimentPlan } from "../ablate/plan.js";
import { runExperimentBatch } from "../trial/batch.js";
import { BATCH_FILE } from "../run-files/batch-file.js";
import { renderExperiment } from "../ablate/render-experiment.js";
import type { Experiment } from "../types/ablate.js";
import type { ExperimentFormat } from "../types/formats.js";
import { createProgressPrinter } from "../render/progress.js";
import { renderReport } from "../report/render.js";
import { readReportFile } from "../run-files/read-report.js";
import { readExperimentFile } from "../run-files/read-experiment.js";
import { readRecords } from "../run-files/records-io.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { explainRun } from "../show/explain-run.js";
import { inertLine } from "../text/inert.js";
import type { Outcome, Report } from "../types.js";
import { terminalWidth } from "../render/terminal-width.js";
import type { ConfigFlags } from "./cli-options.js";
import type { Shard } from "../run-files/shard.js";

export interface ExperimentFlags extends ConfigFlags {
  runId?: string;
  resume?: string;
  format: ExperimentFormat;
  output?: string;
  progress?: boolean;
  stepSummary?: boolean;
  failIfWorse?: string[];
  router?: string;
  shard?: Shard;
  batch?: boolean;
  detach?: boolean;
  batchPollMs?: number;
}

/**
 * Runs the experiment — through the batch APIs with --batch, or when the experiment being resumed
 * has batches.json — and renders it; a detached batch says how to collect it.
 */
export async function runPlannedExperiment(
  io: Io,
  plan: ExperimentPlan,
  flags: ExperimentFlags,
): Promise<Outcome> {
  const options = experimentOptions(io, flags);
  const batch =
    plan.base.batch ||
    (options.resume !== undefined && existsSync(join(options.resume, BATCH_FILE)));
  if (flags.detach === true && !batch)
    throw new InputError("--detach: only a batch run detaches; add --batch");
  if (!batch) return emitExperiment(io, await runExperiment(plan, options), flags);
  const result = await runExperimentBatch(plan, {
    ...options,
    detach: flags.detach === true,
    pollMs: flags.batchPollMs,
    onBatchProgress: (line) => io.stderr(`${line}\n`),
  });
  return result.detached
    ? reportDetached(io, result, `${EXPERIMENT_KINDS[plan.kind].command} --resume`)
    : emitExperiment(io, result, flags);
}

/** `--batch --detach`: what was submitted, and the command (`run --resume`, `ablate --resume`) that collects it. */
export function reportDetached(
  io: Io,
  result: { dir: string; submitted: number },
  collect: string,
): Outcome {
  const what = existsSync(join(result.dir, EXPERIMENT_FILE)) ? "experiment" : "run";
  io.stdout(
    `submitted ${result.submitted} request${result.submitted === 1 ? "" : "s"} in batches; ${what} folder: ${result.dir}\ncollect them (on any machine with this store and key): route-eval ${collect} ${result.dir}\n`,
  );
  return "ok";
}

/** `--resume DIR` of an experiment: the base settings experiment.json pins, as config overrides. */
export function resumePins(
  target: string | undefined,
  cwd: string,
  kind: Experiment["kind"],
): ReturnType<typeof pinnedOverrides> {
  if (target === undefined) return {};
  const file = join(resolve(cwd, target), EXPERIMENT_FILE);
  if (!existsSync(file)) {
    const what = EXPERIMENT_KINDS[kind].article;
    throw new InputError(
      `--resume ${target}: not ${what} directory (it has no ${EXPERIMENT_FILE}); give the reports/<id> directory it printed`,
    );
  }
  const previous = readExperimentFile(file);
  if (previous.kind !== kind) {
    const other = `route-eval ${EXPERIMENT_KINDS[previous.kind].command} --resume`;
    throw new InputError(
      `--resume ${target}: it is ${EXPERIMENT_KINDS[previous.kind].article}; continue it with ${other} ${target}`,
    );
  }
  // experiment.json names the endpoint as configured ("openai:MODEL", with `model` only when set apart), not as run.json does.
  const { endpoint, model } = previous.base;
  return {
    ...pinnedOverrides({ endpoint, model, config: previous.base.config }),
    endpoint,
    ...(model === "" ? {} : { model }),
  };
}

export function experimentOptions(
  io: Io,
  flags: ExperimentFlags,
): Parameters<typeof runExperiment>[1] {
  const onWarning = (message: string) => io.stderr(`${inertLine(message)}\n`);
  const resume = flags.resume === undefined ? undefined : resolve(io.cwd, flags.resume);
  return {
    id: flags.runId,
    resume,
    // --resume of a shard continues that shard.
    shard:
      flags.shard ??
      (resume === undefined ? undefined : readExperimentFile(join(resume, EXPERIMENT_FILE)).shard),
    now: io.now,
    env: io.env,
    onProgress:
      flags.progress === false
        ? undefined
        : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
    onWarning,
    onNotice: onWarning,
    signal: io.interrupts?.(),
    failIfWorse: flags.failIfWorse,
  };
}

/** Each variant's report.json, in experiment order (JUnit's suites, and each variant's report.html). */
function readVariantReports(dir: string, experiment: Experiment): Report[] {
  return experiment.variants.map((v) => readReportFile(join(dir, v.dir, "report.json")));
}

/**
 * Prints (or writes) the rendering; html goes to <dir>/experiment.html with each variant's own
 * report.html beside its records. Appends the Markdown summary to $GITHUB_STEP_SUMMARY. "failed"
 * when a variant gate, --fail-if-worse, or (for variants:) a base run gate failed.
 */
export function emitExperiment(
  io: Io,
  result: ExperimentResult,
  flags: Pick<ExperimentFlags, "format" | "output" | "stepSummary">,
): Outcome {
  const { dir, experiment } = result;
  const reports = readVariantReports(dir, experiment);
  const html = flags.format === "html";
  if (html) {
    experiment.variants.forEach((v, i) => {
      const runDir = join(dir, v.dir);
      const page = renderReport(reports[i], "html", {
        color: false,
        gates: reports[i].gates,
        explanations: explainRun(reports[i], readRecords(join(runDir, "records.jsonl"))),
      });
      writeOutput({ ...io, stderr: () => undefined }, page, join(runDir, "report.html"));
    });
  }
  const output = flags.output ?? (html ? join(dir, "experiment.html") : undefined);
  const text = renderExperiment(experiment, flags.format, {
    color: io.color && output === undefined,
    width: terminalWidth(io),
    reports,
  });
  writeOutput(io, text, output);
  io.stderr(`experiment.json and one run per variant: ${dir}\n`);
  appendStepSummary(
    io,
    () => renderExperiment(experiment, "markdown", { color: false, reports }),
    flags.stepSummary !== false,
  );
  for (const gate of experiment.gates.filter((g) => !g.passed))
    io.stderr(`route-eval: gate failed: ${inertLine(gate.rule)}: ${inertLine(gate.reason)}\n`);
  let failed = experiment.verdict === "fail";
  if (EXPERIMENT_KINDS[experiment.kind].gatedBase) {
    for (const gate of reports[0].gates.filter((g) => !g.passed)) {
      io.stderr(
        `route-eval: gate failed (base): ${gate.name} ${gate.threshold}: ${inertLine(gate.reason)}\n`,
      );
      failed = true;
    }
  }
  return failed ? "failed" : "ok";
}
