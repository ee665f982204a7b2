/**
 * The experiment's composition root: every variant is a full run (variants/<slug>/ with records,
 * run.json and report.json, so `show`, `diff` and `report` work on each), all asked through one
 * trial loop (one concurrency budget) and one response store (a request identical across
 * variants is asked once), then compared: experiment.json beside them.
 */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import { makeDirectory } from "../run-files/write-files.js";
import { runDirectoryOf } from "../run-files/run-directory.js";
import type { ResponseStore } from "../types/endpoint.js";
import { existsSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { EndpointFailure, InputError, Interrupted } from "../errors.js";
import {
  adjustVerdicts,
  compareVariant,
  profileOf,
  tabulateMetrics,
  type VariantRun,
} from "../ablate/compare-variants.js";
import { EXPERIMENT_SCHEMA_VERSION, type Experiment, findVariant } from "../types/ablate.js";
import { type ExperimentPlan } from "../ablate/plan.js";
import { evaluateVariantGates } from "../gates/variant-gates.js";
import { pickRunConfig } from "../config/run-config.js";
import { openResponseStore } from "../store/response-store.js";
import { stableStringify } from "../render/stable-json.js";
import { writeTextFile } from "../run-files/write-files.js";
import { TOOL_VERSION } from "../version.js";
import type { Shard } from "../run-files/shard.js";
import { type Answering, type StartedRun } from "./evaluate.js";
import { runSideBySide, startRuns, type SideBySideOptions } from "./start-runs.js";
import { newRunId } from "./run-meta.js";
import { readExperimentFile } from "../run-files/read-experiment.js";

export interface ExperimentOptions extends SideBySideOptions {
  /** Variants whose paired verdict against their reference must not be "hurt" (exit 1 otherwise). */
  failIfWorse?: string[];
  /** Run only this shard's (case, trial) units in every variant (`run --shard I/N`). */
  shard?: Shard;
  /** Default: the endpoints; through the providers' batch APIs, each variant's run.json says so (the miss names its endpoint: whether a batch can ask it). */
  answering?: Answering;
  /** No "resuming …" notice per variant (a batch run's collection pass). */
  quiet?: boolean;
}

export interface ExperimentResult {
  dir: string;
  experiment: Experiment;
}

export const EXPERIMENT_FILE = "experiment.json";

export async function runExperiment(
  plan: ExperimentPlan,
  options: ExperimentOptions,
): Promise<ExperimentResult> {
  const { dir, experiment } = openExperiment(plan, options);
  // One store for every variant: identical requests are asked once (and a second run asks none).
  const store = openResponseStore(plan.base.store_dir);
  let runs: StartedRun[] = [];
  let stopped;
  try {
    runs = startVariants(plan, dir, store, options);
    stopped = await runSideBySide(
      runs,
      () => runs.flatMap((run) => [...run.jobs]),
      plan.base.concurrency,
      options,
    );
  } finally {
    store.close();
  }
  if (stopped !== null) {
    const kept = `${runs.reduce((sum, run) => sum + run.recorded(), 0)} trial records kept in ${join(dir, "variants")}`;
    if (stopped.kind === "interrupted")
      throw new Interrupted(
        stopped.signal,
        `interrupted by ${stopped.signal}: ${kept}; continue with --resume ${dir}`,
      );
    throw new EndpointFailure(
      `${stopped.message} (experiment stopped early; ${kept}; fix it, then continue with --resume ${dir})`,
    );
  }
  const finished = runs.map((run, index): VariantRun => {
    const { report, records } = run.finish(null);
    return {
      name: plan.variants[index].name,
      label: join(dir, "variants", plan.variants[index].slug),
      report,
      records: records(),
    };
  });
  completeExperiment(experiment, finished, options.now());
  writeExperiment(dir, experiment);
  return { dir, experiment };
}

/**
 * The experiment directory made (or reopened by --resume, which must continue the same plan), and
 * experiment.json written with the plan and no results yet.
 */
export function openExperiment(plan: ExperimentPlan, options: ExperimentOptions): ExperimentResult {
  for (const name of options.failIfWorse ?? []) {
    const variant = findVariant(plan.variants, name);
    if (variant === undefined)
      throw new InputError(
        `--fail-if-worse ${name}: no variant is named so; this experiment has: ${plan.variants.map((v) => v.name).join(", ")}`,
      );
    if (variant.reference === null)
      throw new InputError(
        `--fail-if-worse ${name}: it is the reference of the others; name a variant compared with another`,
      );
  }
  const started = options.now();
  const dir = openExperimentDir(plan, options, started);
  const previous =
    options.resume === undefined ? null : readExperimentFile(join(dir, EXPERIMENT_FILE));
  if (previous !== null) checkSamePlan(plan, previous, options.resume ?? dir);
  const experiment = describePlan(
    plan,
    dir,
    previous?.started_at ?? started.toISOString(),
    options,
  );
  writeExperiment(dir, experiment);
  options.onNotice?.(
    `experiment directory: ${dir} (${plan.variants.length} variants${plan.skipped.length > 0 ? `; skipped: ${plan.skipped.map((s) => `${s.name} (${s.reason})`).join(", ")}` : ""})`,
  );
  return { dir, experiment };
}

/** Every variant's run opened in variants/<slug>/ (a run already there is resumed), all asking through `store`. */
export function startVariants(
  plan: ExperimentPlan,
  dir: string,
  store: ResponseStore,
  options: ExperimentOptions,
): StartedRun[] {
  const names = new Map(plan.variants.map((v) => [v.slug, v.name]));
  return startRuns(
    plan.variants.map((variant) => ({
      slug: variant.slug,
      config: { ...variant.config, out_dir: join(dir, "variants") },
    })),
    store,
    {
      resumeAs: dir,
      now: options.now,
      env: options.env,
      onWarning: options.onWarning,
      shard: options.shard,
      answering: options.answering,
      onResumed: (spec, run) => {
        if (options.quiet !== true)
          options.onNotice?.(
            `resuming ${names.get(spec.slug)}: ${run.resumed} trials kept, ${run.jobs.length} to run`,
          );
      },
    },
  );
}

/**
 * The comparison, from every variant's finished run: the metric table, the failure profiles, each
 * variant against its reference, the notes, and the gates (the rules experiment.json carries).
 */
export function completeExperiment(
  experiment: Experiment,
  finished: VariantRun[],
  now: Date,
): void {
  experiment.metrics = tabulateMetrics(finished);
  experiment.profiles = finished.map((run) => profileOf(run.report.metrics));
  experiment.comparisons = finished.flatMap((run, index) => {
    const reference = experiment.variants[index].reference;
    const against = finished.find((other) => other.name === reference);
    return against === undefined ? [] : [compareVariant(against, run)];
  });
  adjustVerdicts(
    experiment.comparisons,
    (name) => finished.find((run) => run.name === name)?.report.metrics.scored ?? 0,
  );
  experiment.cases = finished[0].report.cases.length;
  experiment.notes = notesOf(finished, experiment.shard);
  experiment.gates = evaluateVariantGates(
    experiment,
    experiment.gate_rules?.variants ?? [],
    experiment.gate_rules?.fail_if_worse ?? [],
  );
  experiment.verdict = experiment.gates.every((g) => g.passed) ? "pass" : "fail";
  experiment.finished_at = now.toISOString();
}

function openExperimentDir(
  plan: ExperimentPlan,
  options: ExperimentOptions,
  started: Date,
): string {
  if (options.resume !== undefined) return resolve(options.resume);
  const outDir = resolve(plan.base.root, plan.base.out_dir);
  const id = options.id ?? newRunId(started, EXPERIMENT_KINDS[plan.kind].id);
  let dir = runDirectoryOf(outDir, id);
  for (let n = 2; existsSync(dir); n++) dir = join(outDir, `${id}-${n}`);
  makeDirectory(join(dir, "variants"));
  return dir;
}

/** A resumed experiment runs the same variants with the same settings (each variant's run checks its own inputs). */
function checkSamePlan(plan: ExperimentPlan, previous: Experiment, target: string): void {
  const before = previous.variants.map((v) => v.name).join(", ");
  const now = plan.variants.map((v) => v.name).join(", ");
  if (previous.kind !== plan.kind || before !== now) {
    throw new InputError(
      `--resume ${target}: this would not continue the same experiment: it ran ${previous.kind} [${before}], these inputs give ${plan.kind} [${now}]; resume with the same config, or start a new experiment`,
    );
  }
}

function describePlan(
  plan: ExperimentPlan,
  dir: string,
  startedAt: string,
  options: ExperimentOptions,
): Experiment {
  const base = plan.base;
  const id = basename(dir);
  const failIfWorse = options.failIfWorse ?? [];
  const rules =
    plan.gates.length > 0 || failIfWorse.length > 0
      ? { gate_rules: { variants: plan.gates, fail_if_worse: failIfWorse } }
      : {};
  return {
    ...(options.shard === undefined ? {} : { shard: options.shard }),
    ...rules,
    schema_version: EXPERIMENT_SCHEMA_VERSION,
    experiment_id: id,
    kind: plan.kind,
    tool_version: TOOL_VERSION,
    started_at: startedAt,
    finished_at: null,
    base: { endpoint: base.endpoint, model: base.model ?? "", config: pickRunConfig(base) },
    cases: 0,
    trials: base.trials,
    variants: plan.variants.map((v) => {
      // As run.json pins them (base_url without credentials), the registry relative to the config.
      const settings = pickRunConfig(v.config) as Record<string, unknown>;
      const registry = v.config.registry === null ? null : relative(base.root, v.config.registry);
      const valueOf = (key: string) =>
        key === "registry"
          ? registry
          : key in settings
            ? settings[key]
            : v.config[key as keyof typeof v.config];
      return {
        name: v.name,
        dir: `variants/${v.slug}`,
        reference: v.reference,
        changes: Object.fromEntries(v.changes.map((key) => [key, valueOf(key) ?? null])),
        endpoint: v.config.endpoint,
        model: v.config.model ?? "",
      };
    }),
    skipped: plan.skipped,
    metrics: [],
    profiles: [],
    comparisons: [],
    gates: [],
    verdict: "pass",
    notes: [],
  };
}

/** Caveats that hold for the whole experiment. */
function notesOf(runs: VariantRun[], shard: Shard | undefined): string[] {
  const notes: string[] = [];
  if (shard !== undefined)
    notes.push(
      `shard ${shard.index}/${shard.count}: these comparisons cover this shard's (case, trial) units only; route-eval merge combines the shards into the whole experiment`,
    );
  const deterministic = runs.every(
    (r) => r.report.run.config.trials > 1 && r.report.metrics.consistency === 1,
  );
  if (deterministic)
    notes.push(
      "every case chose the same tool in all its trials in every variant: trials repeat each other, so the verdicts rest on the per-case sign test, not on trial pairs",
    );
  return notes;
}

function writeExperiment(dir: string, experiment: Experiment): void {
  writeTextFile(join(dir, EXPERIMENT_FILE), `${stableStringify(experiment, 2)}\n`);
}
