/**
 * The trial loop of a run: jobs through a p-limit limiter, `concurrency` at a time — or fewer
 * while the endpoint's pace is lowered by rate limits (the limiter follows it) — fed lazily, so no
 * more than FEED × concurrency jobs wait for a place (a run of a million trials holds no queue of
 * them); each record made and appended as its trial finishes (when calls leave the process, just
 * after: its place given to the next trial first), progress reported as they are. The first
 * run-stopping (fatal) outcome stops the loop: nothing new starts, trials in flight finish and are
 * kept, the fatal trial is not recorded (so `--resume` redoes it), and its message is returned. An
 * interrupt (SIGINT/SIGTERM) stops it the same way, except that trials still in flight after
 * GRACE_MS are abandoned (not recorded).
 */
import pLimit from "p-limit";
import type { EndpointOutcome, EndpointPace, RunProgress, TrialRecord } from "../types.js";
import { REJECTION } from "../endpoint/http-failure.js";
import { createTurns, delay, GRACE_MS, interrupted } from "./loop-turns.js";

export interface TrialResult {
  outcome: EndpointOutcome;
  /**
   * The trial's record, made on first use (and the same object after). Classifying an answer is
   * a trial's costliest step after its call: the loop makes the record once the trial's place has
   * gone to the next trial.
   */
  record: () => TrialRecord;
}

/** One trial to ask, and where its record goes once it is finished (its run's records file). */
export interface TrialJob {
  run: () => Promise<TrialResult>;
  keep: (record: TrialRecord) => void;
}

/** Jobs in the order they start, and how many (an array, or jobs made one at a time as the loop takes them). */
export interface JobList {
  readonly length: number;
  [Symbol.iterator](): Iterator<TrialJob>;
}

export interface LoopOptions {
  concurrency: number;
  /** Trials already recorded (resume) and the run's total. */
  resumed: number;
  total: number;
  onProgress?: (progress: RunProgress) => void;
  /** Aborted on SIGINT/SIGTERM; its reason is the signal's name. */
  signal?: AbortSignal;
  /** The endpoint's pace: while rate limits keep it below `concurrency`, so many trials run at once. */
  pace?: EndpointPace;
}

/** Jobs given to the limiter ahead of a free place, per place: enough to keep every place busy, never the whole list. */
const FEED = 2;

/** Why the loop stopped early: a run-stopping endpoint failure, or an interrupt. */
export type LoopStop =
  | { kind: "fatal"; message: string; setup: boolean }
  | { kind: "interrupted"; signal: string }
  | null;

export async function runTrialJobs(jobs: JobList, options: LoopOptions): Promise<LoopStop> {
  const started = performance.now();
  const progress: RunProgress = {
    total: options.total,
    done: options.resumed,
    resumed: options.resumed,
    errored: 0,
    retries: 0,
    from_store: 0,
    elapsed_ms: 0,
    finished: false,
  };
  const report = (finished: boolean) =>
    options.onProgress?.({ ...progress, elapsed_ms: performance.now() - started, finished });
  let stopped: string | null = null;
  let setup = false;
  let closed = false;
  report(false);
  const rejected = createRejectionGuard();
  /** Whether a finished trial is recorded (a stopping outcome is seen here, at once). */
  const finishOne = ({ outcome }: TrialResult): boolean => {
    if (closed) return false;
    const alike = rejected.observe(outcome);
    if (alike !== null) {
      stopped ??= alike;
      return false;
    }
    progress.retries += outcome.retries ?? 0;
    // A request a batch run collects instead of asking: nothing to record yet.
    if (!outcome.ok && outcome.kind === "deferred") return false;
    if (!outcome.ok && outcome.kind === "fatal") {
      if (stopped === null) setup = outcome.setup === true;
      stopped ??= outcome.error;
      return false;
    }
    return true;
  };
  // Trials finished and not yet recorded, in the order they finished. When calls leave the
  // process (the endpoint has a pace), each is recorded by an immediate of its own (the event
  // loop's check phase), so the answers that arrive together first send their places' next
  // requests — the HTTP client resumes its queue in immediates too, and one that falls before a
  // trial's is not held behind its record (recording them all in one immediate made a live run
  // slower than one immediate each). Otherwise nothing waits on a place: each is recorded at once.
  // At the end of the loop the rest are recorded at once.
  const leaves = options.pace !== undefined;
  const unkept: { job: TrialJob; result: TrialResult }[] = [];
  let failure: ((error: unknown) => void) | null = null;
  const keepFirst = () => {
    const first = unkept.shift();
    if (first === undefined) return;
    const { job, result } = first;
    job.keep(result.record());
    progress.done += 1;
    if (!result.outcome.ok) progress.errored += 1;
    if (result.outcome.from_store === true) progress.from_store += 1;
    report(false);
  };
  const keepAll = () => {
    while (unkept.length > 0) keepFirst();
  };
  const keepSoon = () =>
    setImmediate(() => {
      try {
        keepFirst();
      } catch (error) {
        failure?.(error);
      }
    });
  const going = () => stopped === null && options.signal?.aborted !== true;
  // The limiter runs jobs in the order they are fed, `limit.concurrency` at a time; the feed keeps
  // FEED jobs per place given to it, and stops giving once the loop is stopping (a job given but
  // not started then starts nothing).
  const top = Math.max(1, options.concurrency);
  const limit = pLimit(top);
  const follow = () => {
    const now = Math.min(top, Math.max(1, options.pace?.capacity() ?? top));
    if (limit.concurrency !== now) limit.concurrency = now;
    progress.paced = now < top ? { now, max: top } : undefined;
  };
  const next = jobs[Symbol.iterator]();
  const turns = createTurns();
  const run = async (job: TrialJob) => {
    if (!going()) return;
    const result = await job.run();
    if (finishOne(result)) {
      unkept.push({ job, result });
      if (leaves) keepSoon();
      else keepFirst();
    }
    follow();
    const turn = turns.due();
    if (turn !== undefined) await turn;
  };
  const all = new Promise<void>((resolve, reject) => {
    let given = 0;
    let failed = false;
    failure = (error) => {
      failed = true;
      reject(error);
    };
    const feed = () => {
      while (!failed && going() && given < FEED * top) {
        const job = next.next();
        if (job.done) break;
        given += 1;
        limit(run, job.value).then(
          () => {
            given -= 1;
            feed();
          },
          (error: unknown) => failure?.(error),
        );
      }
      if (given === 0 && !failed) resolve();
    };
    feed();
  });
  const interrupt = interrupted(options.signal);
  await Promise.race([
    all,
    interrupt.done.then(() => Promise.race([all, delay(GRACE_MS)])),
  ]).finally(interrupt.release);
  keepAll();
  closed = true;
  report(true);
  if (stopped !== null) return { kind: "fatal", message: stopped, setup };
  if (options.signal?.aborted === true)
    return { kind: "interrupted", signal: String(options.signal.reason) };
  return null;
}

/** Trials that must all be rejected the same way, with none answered, before the run stops. */
export const ALIKE_REJECTIONS = 6;

/**
 * Watches the run's first outcomes: when the first ALIKE_REJECTIONS trials were all refused by
 * the endpoint (HTTP 400/422) with the same message (case and trial apart) and none was answered,
 * it refuses every request — a broken setup, not a property of one trial — and the run stops.
 */
function createRejectionGuard(): { observe(outcome: EndpointOutcome): string | null } {
  let answered = false;
  const messages: string[] = [];
  return {
    observe: (outcome) => {
      if (answered || outcome.ok || !REJECTION.test(outcome.error)) {
        answered ||= outcome.ok;
        return null;
      }
      messages.push(outcome.error.replace(/\(?case "[^"]*" trial \d+\)?/g, "").trim());
      if (messages.length < ALIKE_REJECTIONS || new Set(messages).size > 1) return null;
      answered = true; // said once
      return `every one of the first ${ALIKE_REJECTIONS} trials was rejected alike: ${outcome.error}`;
    },
  };
}
