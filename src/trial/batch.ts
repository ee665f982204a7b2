/**
 * `run --batch`: the run's requests through the providers' batch APIs (OpenAI Batch, Anthropic
 * Message Batches), at about half the price. The requests are built exactly as a live run builds
 * them (same body, same content address); those the store answers are recorded at once, the rest
 * are submitted. batches.json in the run directory holds every batch id and state as soon as it
 * exists, so `--resume` (on any machine) collects them and never submits a request twice. Results
 * go into the response store, and the run is then finished from the store like any cached run — so
 * its records equal a live run's apart from latency and request ids. Items that failed or expired
 * are resubmitted once, then recorded as errored trials with the provider's reason. A config with
 * `variants:` is batched the same way, all variants in one collection pass.
 */
import { maxOf } from "../text/extremes.js";
import { batchProvider, createApis, isDone, type BatchApi } from "../endpoint/batch-api.js";
import type { BatchApiName } from "../types/providers.js";
import { sealEntry, type StoreMiss } from "./stored-endpoint.js";
import { EndpointFailure, Interrupted } from "../errors.js";
import type { ExperimentPlan } from "../ablate/plan.js";
import { groupBy } from "../metrics/scored-trials.js";
import {
  loadBatchFile,
  openBatchFile,
  type BatchItem,
  type BatchRecord,
  type BatchState,
} from "../run-files/batch-file.js";
import { openResponseStore } from "../store/response-store.js";
import type { Config, EndpointOutcome } from "../types.js";
import {
  openExperiment,
  runExperiment,
  startVariants,
  type ExperimentOptions,
  type ExperimentResult,
} from "./experiment.js";
import { startRun, type RunOptions, type RunResult, type StartedRun } from "./evaluate.js";
import { runTrialJobs } from "./run-loop.js";

/** Per batch, under both providers' documented limits (OpenAI 50,000 requests and 200 MB; Anthropic 100,000 and 256 MB). */
const MAX_REQUESTS = 50_000;
const MAX_BYTES = 180 * 1024 * 1024;
/** Submissions of one request at most: the first, and one more when it failed or expired. */
const MAX_ROUNDS = 2;

type OnMiss = (miss: StoreMiss) => EndpointOutcome | null;

/** How a batch is driven: submit and exit, how often to poll, where the poll lines go. */
export interface BatchKnobs {
  /** Submit and exit: `--resume` collects. */
  detach: boolean;
  /** Milliseconds between polls (grows to 60 s); tests make it short. */
  pollMs?: number;
  onBatchProgress?: (line: string) => void;
}

/** A batch run: a run's options (not how it is answered: through the batch API), and how the batch is driven. */
export type BatchOptions = Omit<RunOptions, "answering"> & BatchKnobs;

type Detached = { detached: true; dir: string; submitted: number };
export type BatchResult = Detached | ({ detached: false } & RunResult);
export type ExperimentBatchResult = Detached | ({ detached: false } & ExperimentResult);

export async function runBatch(config: Config, options: BatchOptions): Promise<BatchResult> {
  const cached: Config = { ...config, mode: "cached" };
  // Adaptive trials go round by round: each round's requests are one batch, collected before the
  // next round is decided (a detached run submits one round; --resume carries on from there).
  let place = options.place;
  for (;;) {
    let round: ReadonlyMap<string, number> | undefined;
    const answered = await answerByBatch(cached.store_dir, [cached], options, (onMiss) => {
      const run = startRun(cached, { ...options, place, answering: { kind: "batch", onMiss } });
      round = run.round;
      return { dir: run.dir, runs: [run] };
    });
    if (answered.detached) return answered;
    // Finish from the store, as a cached run: what no batch answered is an errored trial, with why.
    const last = startRun(cached, {
      ...options,
      place: { kind: "resume", dir: answered.dir },
      answering: { kind: "batch", onMiss: answered.unanswered, round },
    });
    const stopped = await runTrialJobs(last.jobs, {
      concurrency: config.concurrency,
      resumed: last.resumed,
      total: last.resumed + last.jobs.length,
      onProgress: options.onProgress,
      signal: options.signal,
    }).finally(last.close);
    if (stopped !== null || last.nextRound === undefined || last.nextRound().length === 0)
      return { detached: false, ...last.finish(stopped) };
    place = { kind: "resume", dir: answered.dir };
  }
}

/**
 * A config with `variants:` through the batch APIs: every variant's requests collected in one pass
 * (a request shared by variants is submitted once), batched per provider and model; a variant
 * whose endpoint has no batch API is asked live in that pass. batches.json sits in the experiment
 * directory.
 */
export async function runExperimentBatch(
  plan: ExperimentPlan,
  options: ExperimentOptions & BatchKnobs,
): Promise<ExperimentBatchResult> {
  const cachedPlan: ExperimentPlan = {
    ...plan,
    base: { ...plan.base, mode: "cached" },
    variants: plan.variants.map((v) => ({ ...v, config: { ...v.config, mode: "cached" } })),
  };
  const answered = await answerByBatch(
    plan.base.store_dir,
    cachedPlan.variants.map((v) => v.config),
    options,
    (onMiss) => {
      const { dir } = openExperiment(cachedPlan, options);
      const store = openResponseStore(plan.base.store_dir);
      try {
        return {
          dir,
          runs: startVariants(cachedPlan, dir, store, {
            ...options,
            answering: { kind: "batch", onMiss },
            quiet: true,
          }),
          close: () => store.close(),
        };
      } catch (error) {
        store.close();
        throw error;
      }
    },
  );
  if (answered.detached) return answered;
  return {
    detached: false,
    ...(await runExperiment(cachedPlan, {
      ...options,
      resume: answered.dir,
      answering: { kind: "batch", onMiss: answered.unanswered },
    })),
  };
}

type Opened = { dir: string; runs: StartedRun[]; close?: () => void };
type Answered = Detached | { detached: false; dir: string; unanswered: OnMiss };

/**
 * The batch itself: 1. the runs' requests, built as a live run builds them (the store answers what
 * it can now; a request for an endpoint without a batch API is asked live); 2. each pending
 * request submitted once (once more after a failure); 3. polled, and each answer put into the
 * store. Returns the hook that finishes the runs from the store.
 */
async function answerByBatch(
  storeDir: string,
  configs: Config[],
  options: BatchKnobs & Pick<RunOptions, "env" | "signal">,
  open: (onMiss: OnMiss) => Opened,
): Promise<Answered> {
  const pending = new Map<
    string,
    BatchItem & { provider: BatchApiName; model: string; base_url: string; body: unknown }
  >();
  const collect: OnMiss = (miss) => {
    const provider = batchProvider(miss.endpoint);
    if (provider === null) return null;
    pending.set(miss.key, {
      key: miss.key,
      case_id: miss.case_id,
      trial: miss.trial,
      provider,
      model: miss.model,
      base_url: miss.base_url,
      body: miss.body,
    });
    return { ok: false, kind: "deferred", error: "collected for a batch" };
  };
  const opened = open(collect);
  const { dir, runs } = opened;
  const jobs = runs.flatMap((run) => [...run.jobs]);
  const resumed = runs.reduce((sum, run) => sum + run.resumed, 0);
  const stopped = await runTrialJobs(jobs, {
    concurrency: configs[0].concurrency,
    resumed,
    total: resumed + jobs.length,
    signal: options.signal,
  }).finally(async () => {
    await Promise.all(runs.map((run) => run.close()));
    opened.close?.();
  });
  if (stopped?.kind === "interrupted")
    throw new Interrupted(
      stopped.signal,
      `interrupted by ${stopped.signal} before submitting; continue with --resume ${dir}`,
    );
  if (stopped !== null)
    throw new EndpointFailure(
      `${stopped.message} (while collecting the batch; fix it, then continue with --resume ${dir})`,
    );

  const { state, save } = loadBatchFile(dir);
  const apiFor = createApis(configs, options.env);
  const store = openResponseStore(storeDir);
  try {
    for (;;) {
      // Each pending request no open batch holds: once, and once more if it failed or expired
      // (the content address decides, so a resumed run never submits a request twice).
      const tries = new Map<string, number>();
      for (const b of state.batches)
        for (const i of b.items) tries.set(i.key, (tries.get(i.key) ?? 0) + 1);
      const open = new Set(
        state.batches.filter((b) => !b.collected).flatMap((b) => b.items.map((i) => i.key)),
      );
      const due = [...pending.values()].filter(
        (p) =>
          !open.has(p.key) &&
          (!tries.has(p.key) || (p.key in state.failed && (tries.get(p.key) ?? 0) < MAX_ROUNDS)),
      );
      for (const item of due) delete state.failed[item.key];
      for (const group of groupBy(due, (p) => `${p.provider} ${p.base_url} ${p.model}`).values()) {
        for (const chunk of chunks(group)) {
          const { provider, model, base_url } = chunk[0];
          const id = await apiFor(provider, base_url).submit(
            chunk.map((p) => ({ key: p.key, body: p.body })),
          );
          const round = maxOf(
            chunk.map((p) => (tries.get(p.key) ?? 0) + 1),
            1,
          );
          state.batches.push({
            id,
            provider,
            model,
            base_url,
            round,
            state: "submitted",
            items: chunk.map(({ key, case_id, trial }) => ({ key, case_id, trial })),
            collected: false,
          });
          save();
        }
      }
      if (options.detach)
        return {
          detached: true,
          dir,
          submitted: state.batches.reduce((n, b) => n + b.items.length, 0),
        };
      if (state.batches.every((b) => b.collected)) break;
      await pollAll(state, apiFor, save, options);
      for (const batch of state.batches.filter((b) => !b.collected && isDone(b.state))) {
        const results = await apiFor(batch.provider, batch.base_url).results(batch.id);
        const items = new Map(batch.items.map((i) => [i.key, i]));
        for (const result of results) {
          const item = items.get(result.key);
          if (item === undefined) continue;
          if (result.body !== null) {
            const entry = sealEntry({
              key: item.key,
              endpoint: batch.provider,
              model: batch.model,
              base_url: batch.base_url,
              case_id: item.case_id,
              trial: item.trial,
              reply: { body: result.body, request_id: result.requestId, latency_ms: 0 },
            });
            store.put(item.key, entry);
          } else {
            state.failed[item.key] = result.error ?? "no result";
          }
          items.delete(result.key);
        }
        for (const key of items.keys())
          state.failed[key] = `the batch ended (${batch.state}) without a result for it`;
        batch.collected = true;
        save();
      }
    }
  } finally {
    store.close();
  }
  const unanswered: OnMiss = (miss) =>
    batchProvider(miss.endpoint) === null
      ? null
      : {
          ok: false,
          kind: "errored",
          error: `batch: no answer for this request (${state.failed[miss.key] ?? "it was in no batch"})`,
          request_hash: miss.key,
        };
  return { detached: false, dir, unanswered };
}

function* chunks<T extends { body: unknown }>(items: T[]): Generator<T[]> {
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item.body).length + 200;
    if (chunk.length > 0 && (chunk.length >= MAX_REQUESTS || bytes + size > MAX_BYTES)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

/** Waits `ms`, or less when the signal fires (an interrupt must not wait out a minute's poll interval). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

async function pollAll(
  state: BatchState,
  apiFor: (provider: BatchApiName, baseUrl: string) => BatchApi,
  save: () => void,
  options: BatchKnobs & Pick<RunOptions, "signal">,
): Promise<void> {
  let wait = options.pollMs ?? 5_000;
  for (;;) {
    const open = state.batches.filter((b) => !isDone(b.state));
    for (const batch of open)
      batch.state = await apiFor(batch.provider, batch.base_url).status(batch.id);
    save();
    const counts = new Map<string, number>();
    for (const b of state.batches) counts.set(b.state, (counts.get(b.state) ?? 0) + b.items.length);
    options.onBatchProgress?.(`batch: ${[...counts].map(([s, n]) => `${n} ${s}`).join(" · ")}`);
    if (state.batches.every((b) => isDone(b.state))) return;
    await pause(wait, options.signal);
    if (options.signal?.aborted === true)
      throw new Interrupted(
        String(options.signal.reason),
        `interrupted while batches were in progress; they keep running at the provider: collect them with --resume`,
      );
    wait = Math.min(60_000, Math.round(wait * 1.5));
  }
}

/** One batch as `batch status` shows it. */
export type BatchSummary = Pick<
  BatchRecord,
  "id" | "provider" | "model" | "state" | "collected"
> & { requests: number };

/** `route-eval batch status DIR`: each open batch's state asked once (batches.json updated), then every batch. */
export async function batchStatus(
  dir: string,
  configs: Config[],
  env: NodeJS.ProcessEnv,
): Promise<BatchSummary[]> {
  const { state, save } = openBatchFile(dir);
  const apiFor = createApis(configs, env);
  for (const batch of state.batches.filter((b) => !isDone(b.state)))
    batch.state = await apiFor(batch.provider, batch.base_url).status(batch.id);
  save();
  return state.batches.map(({ id, provider, model, state: now, collected, items }) => ({
    id,
    provider,
    model,
    state: now,
    collected,
    requests: items.length,
  }));
}

/** `route-eval batch cancel DIR` (a batch run, or a batch experiment): cancels its open batches; returns how many. */
export async function cancelBatches(
  dir: string,
  configs: Config[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { state, save } = openBatchFile(dir);
  const apiFor = createApis(configs, env);
  const open = state.batches.filter((b) => !isDone(b.state));
  for (const batch of open) {
    await apiFor(batch.provider, batch.base_url).cancel(batch.id);
    batch.state = "cancelling";
  }
  save();
  return open.length;
}
