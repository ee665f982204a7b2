import type { ResponseStore } from "../types/endpoint.js";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadCases } from "../cases/load-cases.js";
import type { CaseList } from "../cases/case-list.js";
import { createEndpoint, type EndpointEnvironment } from "./create-endpoint.js";
import { withTokenEstimate } from "../endpoint/estimate-tokens.js";
import { EndpointFailure, InputError, Interrupted } from "../errors.js";
import { reportOfTally } from "../report/build-report.js";
import { openRecordWriter, readRecords } from "../run-files/records-io.js";
import { tallyRecords } from "../metrics/record-tally.js";
import { lazy } from "../text/lazy.js";
import { stampFinished, writeJsonFile, writeReportFile } from "../run-files/write-files.js";
import {
  createRunDirectory,
  reopenRunDirectory,
  type RunDirectory,
} from "../run-files/run-directory.js";
import { findResumeDifferences } from "../run-files/resume-check.js";
import { fixedTrials, nextTrials, planAdaptive, type AdaptivePlan } from "../metrics/adaptive.js";
import { trialsToCertifyPass } from "../metrics/e-process.js";
import { runTrialJobs, type JobList, type LoopStop } from "./run-loop.js";
import { listPending, type SweepHook } from "./run-trial.js";
import { inShard, type Shard } from "../run-files/shard.js";
import {
  checkPhaseFamilies,
  checkTodoGoals,
  checkSteps,
  checkToolSearchNames,
  findDialectWarnings,
  findNameWarnings,
} from "./run-checks.js";
import { buildRunMeta, caseHashes, newRunId } from "./run-meta.js";
import type {
  Case,
  Config,
  RunProgress,
  Endpoint,
  EndpointPace,
  Report,
  RunMeta,
  TrialRecord,
} from "../types.js";

/** Where a run's records go: a new run directory (named, or named by the clock), or an interrupted run to continue. */
export type RunPlace =
  | {
      kind: "new";
      /** Its name under out_dir (default: the UTC time and the endpoint). */
      id?: string;
      /** With id: replace a run directory of that name instead of refusing (--force). */
      replace?: boolean;
    }
  | {
      kind: "resume";
      /** The run directory: recorded trials are kept, the rest are run. */
      dir: string;
      /** The directory `--resume` takes to continue it, when not its own (an experiment's). */
      as?: string;
    };

/** How a run's requests are answered: by the endpoint (through the store, in config mode), or otherwise. */
export type Answering =
  | { kind: "endpoint" }
  | {
      /** Through the provider's batch API (run.json says so; the cost estimate applies the batch discount). */
      kind: "batch";
      /** On a store miss: collect the request (deferred), or record why it has no answer. */
      onMiss: NonNullable<EndpointEnvironment["onMiss"]>;
      /** Adaptive trials: the round (case → trial) this pass collected, finished instead of the next. */
      round?: ReadonlyMap<string, number>;
    }
  | {
      /** Answered by given replies, which the store keeps (route-eval freeze); cases with a todo: run too. */
      kind: "replies";
      replyOnMiss: NonNullable<EndpointEnvironment["replyOnMiss"]>;
    };

/** A run: where it goes, how it is answered, what part of the cases it asks, and who is told as it goes. */
export interface RunOptions {
  /** The clock (run metadata and the run id): tests and golden files fix it. */
  now: () => Date;
  /** Where API keys are read from (the endpoint's and the embeddings retriever's). */
  env: NodeJS.ProcessEnv;
  /** Default: a new run directory named by the clock. */
  place?: RunPlace;
  /** Default: the endpoint. */
  answering?: Answering;
  /** Run only this shard's (case, trial) units (`--shard I/N`); `route-eval merge` combines the shards. */
  shard?: Shard;
  /** A sweep point (src/sweep): supplies the (padded) cases and fixes each case's visible set. Absent = the configured pipeline. */
  sweep?: SweepHook;
  /** One response store shared by several runs (an experiment's variants): each request is asked once. */
  store?: ResponseStore;
  /** Whether report.json carries the run's gates evaluated (default true; false with --no-gates). */
  gates?: boolean;
  /**
   * Hold every record in memory as well, for `records()` (freeze reads each one right after, and
   * its todo cases would not read back). Otherwise a run holds per-case tallies only.
   */
  keepRecords?: boolean;
  /** Told each record as the run keeps it (a resumed run's first): what a caller counts for itself (shadow's moves) without holding records. */
  onRecord?: (record: TrialRecord) => void;
  /** Called as trials finish, once at the start and once at the end (progress lines). */
  onProgress?: (progress: RunProgress) => void;
  /** Told each warning about the inputs (a likely typo of a tool name), before the first call. */
  onWarning?: (message: string) => void;
  /** Told where the run directory is (before the first call) and, on resume, what is kept and redone. */
  onNotice?: (message: string) => void;
  /** Aborted on SIGINT/SIGTERM (reason: the signal's name): the run stops, keeps its records, says how to resume. */
  signal?: AbortSignal;
}

/** What the run wrote: its directory and the report; `records()` gives every record (resumed ones included), read back from records.jsonl unless the run kept them (keepRecords). */
export interface RunResult {
  runDir: string;
  report: Report;
  records: () => TrialRecord[];
}

/**
 * The composition root: load → expose → discover → call → classify → record → metrics → report.
 * A run-stopping endpoint failure (bad key, bad request, replay miss) throws EndpointFailure after
 * every finished trial has been written, so `--resume` can continue.
 */
export async function runEvaluation(config: Config, options: RunOptions): Promise<RunResult> {
  const run = startRun(config, options);
  const loop = (jobs: JobList) =>
    runTrialJobs(jobs, {
      concurrency: config.concurrency,
      resumed: run.resumed,
      total: run.recorded() + jobs.length,
      onProgress: options.onProgress,
      signal: options.signal,
      pace: run.pace,
    });
  let stopped: LoopStop;
  try {
    stopped = await (
      run.nextRound === undefined ? loop(run.jobs) : runRounds(run.jobs, run.nextRound, loop)
    ).finally(run.close);
  } catch (error) {
    // A failure that stopped the run before it recorded anything: a run it replaces comes back.
    if (run.recorded() === 0) run.giveBack();
    throw error;
  }
  return run.finish(stopped);
}

/**
 * Said before the first call: a θ no case can be certified to pass within the cap (every clean
 * case would end "undecided" after max_trials correct trials), with the trials it needs.
 */
function certifyWarning(plan: AdaptivePlan): string | null {
  const needed = trialsToCertifyPass(plan.target, plan.case_alpha, 100_000);
  if (needed !== null && needed <= plan.max_trials) return null;
  return `adaptive trials: no case can be certified to pass θ ${plan.target} within --max-trials ${plan.max_trials} (α ${plan.alpha} split across the cases: ${plan.case_alpha.toPrecision(3)} each) — a case needs ${needed ?? "more than 100,000"} correct trials in a row; every passing case will end undecided. Raise --max-trials to ${needed ?? "far more"}, lower θ, or gate on fewer cases`;
}

/** Adaptive trials: round after round (each undecided case's next trial), until no case has one to ask. */
async function runRounds(
  first: JobList,
  next: () => JobList,
  loop: (jobs: JobList) => Promise<LoopStop>,
): Promise<LoopStop> {
  for (let jobs = first; jobs.length > 0; jobs = next()) {
    const stopped = await loop(jobs);
    if (stopped !== null) return stopped;
  }
  return null;
}

/** A run opened and its pending trials listed, for a loop to run (one run's own, or an experiment's shared one). */
export interface StartedRun {
  dir: string;
  /** Trials recorded before this session (resume). */
  resumed: number;
  /** Its endpoint's pace (the loop follows it under rate limits). */
  pace?: EndpointPace;
  /** Trials recorded so far (resumed ones included). */
  recorded(): number;
  /** The trials not yet recorded (adaptive trials: the first round); each keeps its record in the run as it finishes. */
  jobs: JobList;
  /** Adaptive trials: the next round's trials, from the records so far (none: every case is decided or capped). */
  nextRound?: () => JobList;
  /** Adaptive trials: the round `jobs` asks (case → trial). */
  round?: ReadonlyMap<string, number>;
  /** Closes the endpoint and the records file; call it once the loop is over, whatever happened. */
  close(): Promise<void>;
  /** Nothing was recorded and the run ends by an error: the run a --force replaced is put back. */
  giveBack(): void;
  /** After close: the report of a complete run, or the error that says what stopped it and how to resume. */
  finish(stopped: LoopStop): RunResult;
}

export function startRun(config: Config, options: RunOptions): StartedRun {
  const now = options.now;
  // Let go (finish) before the report is built: a run holds its cases no longer than it asks them.
  let cases: CaseList = options.sweep?.cases ?? loadCases(config);
  const answering = options.answering ?? { kind: "endpoint" };
  const place = options.place ?? { kind: "new" };
  const resumeAs = place.kind === "resume" ? place.as : undefined;
  if (answering.kind !== "replies") checkTodoGoals(cases, config.cwd);
  checkToolSearchNames(config, cases);
  checkSteps(config, cases, answering.kind);
  for (const warning of checkPhaseFamilies(config, cases)) options.onWarning?.(warning);
  for (const warning of findNameWarnings(cases, config.cwd)) options.onWarning?.(warning);
  for (const warning of findDialectWarnings(cases, config.cwd)) options.onWarning?.(warning);
  const endpoint = withTokenEstimate(
    createEndpoint(config, {
      env: options.env,
      warn: options.onWarning,
      store: options.store,
      onMiss: answering.kind === "batch" ? answering.onMiss : undefined,
      replyOnMiss: answering.kind === "replies" ? answering.replyOnMiss : undefined,
    }),
  );
  const started = now();
  const run = openRun(config, place, endpoint, started);
  // The case hashes are held only to compare with the run being resumed.
  const meta = buildRunMeta(run.runId, config, cases, endpoint, started, run.previous !== null);
  if (options.shard !== undefined) meta.shard = options.shard;
  if (answering.kind === "batch") meta.batch = true;
  const plan = planAdaptive(config, cases.length);
  if (plan !== null) meta.adaptive = plan;
  const uncertifiable = plan === null || run.previous !== null ? null : certifyWarning(plan);
  if (uncertifiable !== null) options.onWarning?.(uncertifiable);
  if (run.previous !== null) {
    checkSameExperiment(run, meta, resumeAs);
    run.repair();
    meta.started_at = run.previous.started_at;
    const units =
      options.shard === undefined
        ? config.trials * cases.length
        : countShardUnits(options.shard, cases, config.trials);
    options.onNotice?.(describeResume(run, units, plan !== null));
  }
  writeJsonFile(
    join(run.dir, "run.json"),
    meta.inputs === undefined ? { ...meta, inputs: { cases: caseHashes(cases) } } : meta,
  );
  options.onNotice?.(`run directory: ${run.dir}`);
  // The cases' hashes are for --resume, which reads them in run.json: not held (stampFinished).
  delete meta.inputs;

  // Each record is written, then counted: the run keeps per-case tallies, not its records.
  const recordsFile = join(run.dir, "records.jsonl");
  // A case asked a fixed number of times is settled at its last trial (adaptive rounds ask again).
  const tally = tallyRecords(run.records, fixedTrials(config));
  const kept: TrialRecord[] | null = options.keepRecords === true ? [...run.records] : null;
  const writer = openRecordWriter(recordsFile);
  if (options.onRecord !== undefined) for (const record of run.records) options.onRecord(record);
  const keep = (record: TrialRecord) => {
    writer.append(record);
    tally.add(record);
    kept?.push(record);
    options.onRecord?.(record);
  };
  // The case ids an adaptive round is drawn from (a run asked once needs none).
  let ids = plan === null ? [] : Array.from(cases, (c) => c.id);
  // An adaptive round asks trials no record has (nextTrials): the resumed records are all it must skip.
  // A run asked once lets each case go once its trials are made: the list is its own (loaded
  // here), or handed over (SweepHook.release). An adaptive run asks its cases again.
  const release =
    plan === null &&
    (options.sweep?.cases === undefined
      ? answering.kind === "endpoint"
      : options.sweep.release === true);
  const jobsOf = (only: ReadonlyMap<string, number> | undefined) =>
    listPending(config, endpoint, cases, run.records, { ...options, only, keep, release });
  const round = (p: AdaptivePlan) => jobsOf(nextTrials(ids, tally, p, config.success));
  // A batch run finishes the round it collected (answering.round), not the next one.
  const firstRound =
    plan === null
      ? undefined
      : ((answering.kind === "batch" ? answering.round : undefined) ??
        nextTrials(ids, tally, plan, config.success));
  const jobs = jobsOf(firstRound);
  const resumeWith = resumeAs ?? run.dir;
  const records = kept === null ? lazy(() => readRecords(recordsFile)) : () => kept;
  return {
    dir: run.dir,
    resumed: run.records.length,
    pace: endpoint.pace,
    recorded: () => tally.count,
    jobs,
    ...(plan === null ? {} : { nextRound: () => round(plan), round: firstRound }),
    giveBack: () => run.replacing?.restore(),
    close: async () => {
      writer.close();
      await endpoint.close?.();
    },
    finish: (stopped) => {
      cases = [];
      ids = [];
      if (stopped !== null) {
        const kept = `${tally.count} trial record${tally.count === 1 ? "" : "s"} kept in ${recordsFile}`;
        if (stopped.kind === "interrupted") {
          throw new Interrupted(
            stopped.signal,
            `interrupted by ${stopped.signal}: ${kept}; continue with --resume ${resumeWith}`,
          );
        }
        // A set-up failure (a key that is not set, in cached mode with the store short) is bad
        // configuration, exit 2; the endpoint itself was never asked.
        const Failure = stopped.setup ? InputError : EndpointFailure;
        if (stopped.setup && tally.count === 0 && run.previous === null && resumeAs === undefined) {
          // Nothing could be asked: leave no empty run behind (and give back the one it replaced).
          const replaced = run.replacing !== undefined;
          if (replaced) run.replacing?.restore();
          else rmSync(run.dir, { recursive: true, force: true });
          throw new Failure(
            `${stopped.message} (nothing was recorded, so no run directory was kept${replaced ? "; the run --force was to replace is kept" : ""})`,
          );
        }
        run.replacing?.keep();
        throw new Failure(
          `${stopped.message} (run stopped early; ${kept}; fix it, then continue with --resume ${resumeWith})`,
        );
      }
      run.replacing?.keep();
      meta.finished_at = now().toISOString();
      stampFinished(join(run.dir, "run.json"), meta.finished_at);
      const report = reportOfTally(meta, tally, { gates: options.gates !== false, records });
      writeReportFile(join(run.dir, "report.json"), report);
      return { runDir: run.dir, report, records };
    },
  };
}

function openRun(config: Config, place: RunPlace, endpoint: Endpoint, started: Date): RunDirectory {
  if (place.kind === "resume") return reopenRunDirectory(place.dir);
  const outDir = resolve(config.root, config.out_dir);
  if (place.id === undefined) return createRunDirectory(outDir, newRunId(started, endpoint.id));
  return createRunDirectory(outDir, place.id, { named: true, replace: place.replace });
}

/** A resumed run must be the same experiment: every difference is named, and none is allowed. */
function checkSameExperiment(run: RunDirectory, meta: RunMeta, resumeAs: string | undefined): void {
  if (run.previous === null) return;
  const differences = findResumeDifferences(run.previous, meta);
  if (differences.length === 0) return;
  const which = resumeAs === undefined ? "" : ` (variant ${run.runId})`;
  throw new InputError(
    `--resume ${resumeAs ?? run.dir}${which}: this would not continue the same experiment: ${differences.join("; ")}; ` +
      "resume with the same settings and inputs, or start a new run",
  );
}

/** The trials of the cases a shard asks. */
function countShardUnits(shard: Shard, cases: Iterable<Case>, trials: number): number {
  let units = 0;
  for (const c of cases)
    for (let t = 0; t < trials; t++)
      if (inShard(shard, c.turn?.conversation ?? c.id, t)) units += 1;
  return units;
}

function describeResume(run: RunDirectory, total: number, adaptive: boolean): string {
  const redo =
    run.redo > 0
      ? `; ${run.redo} errored trial${run.redo === 1 ? "" : "s"} will be asked again`
      : "";
  const of = adaptive
    ? `${run.records.length} trials kept (adaptive trials: at most ${total})`
    : `${run.records.length} of ${total} trials kept`;
  return `resuming ${run.dir}: ${of}${redo}`;
}
