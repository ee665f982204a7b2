/**
 * The trial loop of a run: jobs `concurrency` at a time, each record appended as it finishes,
 * progress reported as trials finish. The first run-stopping (fatal) outcome stops the loop:
 * nothing new starts, trials in flight finish and are kept, the fatal trial is not recorded (so
 * `--resume` redoes it), and its message is returned.
 */
import pLimit from "p-limit";
import type { EndpointOutcome, RunProgress, TrialRecord } from "../types.js";

export interface TrialResult {
  outcome: EndpointOutcome;
  record: TrialRecord;
}

export interface LoopOptions {
  concurrency: number;
  /** Trials already recorded (resume) and the run's total. */
  resumed: number;
  total: number;
  /** Called with each record as its trial finishes. */
  keep: (record: TrialRecord) => void;
  onProgress?: (progress: RunProgress) => void;
}

export async function runTrialJobs(jobs: (() => Promise<TrialResult>)[], options: LoopOptions): Promise<string | null> {
  const started = performance.now();
  const progress: RunProgress = {
    total: options.total, done: options.resumed, resumed: options.resumed,
    errored: 0, retries: 0, from_store: 0, elapsed_ms: 0, finished: false,
  };
  const report = (finished: boolean) => options.onProgress?.({ ...progress, elapsed_ms: performance.now() - started, finished });
  const limit = pLimit(options.concurrency);
  let stopped: string | null = null;
  report(false);
  const finishOne = ({ outcome, record }: TrialResult) => {
    progress.retries += outcome.retries ?? 0;
    if (!outcome.ok && outcome.kind === "fatal") {
      stopped ??= outcome.error;
      return;
    }
    options.keep(record);
    progress.done += 1;
    if (!outcome.ok) progress.errored += 1;
    if (outcome.from_store === true) progress.from_store += 1;
    report(false);
  };
  await Promise.all(jobs.map((job) => limit(async () => (stopped === null ? finishOne(await job()) : undefined))));
  report(true);
  return stopped;
}
