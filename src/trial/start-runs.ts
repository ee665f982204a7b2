/**
 * Several runs opened side by side under one directory, all asking through one store: each in
 * `<out_dir>/<slug>/`, resumed when a run is already there (an experiment's variants, a tune's
 * base and candidates). A warning several runs raise alike is said once.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../types.js";
import type { ResponseStore } from "../types/endpoint.js";
import { startRun, type RunOptions, type StartedRun } from "./evaluate.js";
import { runTrialJobs, type LoopStop, type TrialJob } from "./run-loop.js";

export interface RunSpec {
  /** Its directory's name under config.out_dir. */
  slug: string;
  config: Config;
  /** Cases given instead of loaded (a tune's candidate: the cases with its revised registry). */
  sweep?: RunOptions["sweep"];
}

/** What a command that opens runs side by side under one directory (an experiment, a tune) is told: where, the run context, who hears of it. */
export interface SideBySideOptions extends Pick<
  RunOptions,
  "now" | "env" | "onProgress" | "onWarning" | "onNotice" | "signal"
> {
  /** The directory's name under out_dir (default <UTC time>-<kind>). */
  id?: string;
  /** Continue the interrupted one in this directory. */
  resume?: string;
}

export interface StartRunsOptions extends Pick<
  RunOptions,
  "now" | "env" | "shard" | "answering" | "onWarning"
> {
  /** The directory `--resume` takes to continue them. */
  resumeAs: string;
  /** Told of each run that was already there, once it is reopened. */
  onResumed?: (spec: RunSpec, run: StartedRun) => void;
}

export function startRuns(
  specs: readonly RunSpec[],
  store: ResponseStore,
  options: StartRunsOptions,
): StartedRun[] {
  const warned = new Set<string>();
  const onWarning = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    options.onWarning?.(message);
  };
  const runs: StartedRun[] = [];
  try {
    for (const spec of specs) {
      const dir = join(spec.config.out_dir, spec.slug);
      const resumed = existsSync(join(dir, "run.json"));
      const run = startRun(spec.config, {
        place: resumed
          ? { kind: "resume", dir, as: options.resumeAs }
          : { kind: "new", id: spec.slug },
        store,
        sweep: spec.sweep,
        now: options.now,
        env: options.env,
        onWarning,
        shard: options.shard,
        answering: options.answering,
      });
      runs.push(run);
      if (resumed) options.onResumed?.(spec, run);
    }
  } catch (error) {
    void Promise.allSettled(runs.map((run) => run.close()));
    throw error;
  }
  return runs;
}

/**
 * The trials of runs opened side by side, in one loop (`listJobs`: theirs, in the order to ask
 * them; their resumed trials counted in the progress), every run closed after, whatever happened.
 */
export async function runSideBySide(
  runs: readonly StartedRun[],
  listJobs: () => readonly TrialJob[],
  concurrency: number,
  options: Pick<SideBySideOptions, "onProgress" | "signal">,
): Promise<LoopStop> {
  try {
    const jobs = listJobs();
    const resumed = runs.reduce((sum, run) => sum + run.resumed, 0);
    return await runTrialJobs(jobs, {
      concurrency,
      resumed,
      total: resumed + jobs.length,
      onProgress: options.onProgress,
      signal: options.signal,
    });
  } finally {
    await Promise.all(runs.map((run) => run.close()));
  }
}
