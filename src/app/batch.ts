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
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readApiKey } from "../endpoint/api-key.js";
import { ANTHROPIC_BASE_URL, ANTHROPIC_KEY_VARIABLE } from "../endpoint/anthropic.js";
import { OPENAI_BASE_URL, OPENAI_KEY_VARIABLE } from "../endpoint/openai.js";
import type { StoreEntry, StoreMiss } from "../endpoint/stored-endpoint.js";
import { sdkClientOptions } from "../endpoint/wire-endpoint.js";
import { EndpointFailure, InputError, Interrupted } from "../errors.js";
import type { ExperimentPlan } from "../experiment/plan.js";
import { groupBy } from "../metrics/scored-trials.js";
import { writeJsonFile } from "../run-files/write-files.js";
import { openResponseStore } from "../store/response-store.js";
import { redactUrl } from "../text/redact-url.js";
import type { Config, EndpointOutcome } from "../types.js";
import { openExperiment, runExperiment, startVariants, type ExperimentOptions, type ExperimentResult } from "./experiment.js";
import { startRun, type RunOptions, type RunResult, type StartedRun } from "./run.js";
import { runTrialJobs } from "./run-loop.js";

export const BATCH_FILE = "batches.json";
/** Per batch, under both providers' documented limits (OpenAI 50,000 requests and 200 MB; Anthropic 100,000 and 256 MB). */
const MAX_REQUESTS = 50_000;
const MAX_BYTES = 180 * 1024 * 1024;
/** Submissions of one request at most: the first, and one more when it failed or expired. */
const MAX_ROUNDS = 2;

const PROVIDERS = ["openai", "anthropic"] as const;
type Provider = (typeof PROVIDERS)[number];

interface BatchItem {
  key: string;
  case_id: string;
  trial: number;
}

/** One provider batch: who answers it (OpenAI takes one model per batch), its items and its state. */
interface BatchRecord {
  id: string;
  provider: Provider;
  model: string;
  /** Without credentials, as the store entries name it. */
  base_url: string;
  round: number;
  /** The provider's state as last seen (validating, in_progress, completed, ended, failed, expired, cancelled…). */
  state: string;
  items: BatchItem[];
  collected: boolean;
}

interface BatchState {
  batches: BatchRecord[];
  /** Keys whose batch item failed or expired, with the provider's reason. */
  failed: Record<string, string>;
}

type OnMiss = (miss: StoreMiss) => EndpointOutcome | null;

/** How a batch is driven: submit and exit, how often to poll, where the poll lines go. */
export interface BatchKnobs {
  /** Submit and exit: `--resume` collects. */
  detach: boolean;
  /** Milliseconds between polls (grows to 60 s); tests make it short. */
  pollMs?: number;
  onBatchProgress?: (line: string) => void;
}

export type BatchOptions = RunOptions & BatchKnobs;

type Detached = { detached: true; dir: string; submitted: number };
export type BatchResult = Detached | ({ detached: false } & RunResult);
export type ExperimentBatchResult = Detached | ({ detached: false } & ExperimentResult);

export async function runBatch(config: Config, options: BatchOptions): Promise<BatchResult> {
  if (batchProvider(config.endpoint) === null) {
    throw new InputError(`--batch: the endpoint ${config.endpoint} has no batch API; batch runs take openai:MODEL (OpenAI Batch) or anthropic:MODEL (Message Batches)${config.batch ? " (route-eval.yaml says batch: true; --no-batch asks live)" : ""}`);
  }
  const cached: Config = { ...config, mode: "cached" };
  const answered = await answerByBatch(cached.store_dir, [cached], options, (onMiss) => {
    const run = startRun(cached, { ...options, batch: true, onMiss });
    return { dir: run.dir, runs: [run] };
  });
  if (answered.detached) return answered;
  // Finish from the store, as a cached run: what no batch answered is an errored trial, with why.
  const last = startRun(cached, { ...options, batch: true, resume: answered.dir, onMiss: answered.unanswered });
  const stopped = await runTrialJobs(last.jobs, { concurrency: config.concurrency, resumed: last.resumed, total: last.resumed + last.jobs.length, onProgress: options.onProgress, signal: options.signal }).finally(last.close);
  return { detached: false, ...last.finish(stopped) };
}

/**
 * A config with `variants:` through the batch APIs: every variant's requests collected in one pass
 * (a request shared by variants is submitted once), batched per provider and model; a variant
 * whose endpoint has no batch API is asked live in that pass. batches.json sits in the experiment
 * directory.
 */
export async function runExperimentBatch(plan: ExperimentPlan, options: ExperimentOptions & BatchKnobs): Promise<ExperimentBatchResult> {
  const cachedPlan: ExperimentPlan = { ...plan, base: { ...plan.base, mode: "cached" }, variants: plan.variants.map((v) => ({ ...v, config: { ...v.config, mode: "cached" } })) };
  if (!plan.variants.some((v) => batchProvider(v.config.endpoint) !== null)) {
    throw new InputError(`--batch: no variant's endpoint has a batch API (${[...new Set(plan.variants.map((v) => v.config.endpoint))].join(", ")}); batch runs take openai:MODEL or anthropic:MODEL`);
  }
  const answered = await answerByBatch(plan.base.store_dir, cachedPlan.variants.map((v) => v.config), options, (onMiss) => {
    const { dir } = openExperiment(cachedPlan, options);
    const store = openResponseStore(plan.base.store_dir);
    try {
      return { dir, runs: startVariants(cachedPlan, dir, store, { ...options, batch: true, onMiss, quiet: true }), close: () => store.close() };
    } catch (error) {
      store.close();
      throw error;
    }
  });
  if (answered.detached) return answered;
  return { detached: false, ...(await runExperiment(cachedPlan, { ...options, resume: answered.dir, batch: true, onMiss: answered.unanswered })) };
}

type Opened = { dir: string; runs: StartedRun[]; close?: () => void };
type Answered = Detached | { detached: false; dir: string; unanswered: OnMiss };

/**
 * The batch itself: 1. the runs' requests, built as a live run builds them (the store answers what
 * it can now; a request for an endpoint without a batch API is asked live); 2. each pending
 * request submitted once (once more after a failure); 3. polled, and each answer put into the
 * store. Returns the hook that finishes the runs from the store.
 */
async function answerByBatch(storeDir: string, configs: Config[], options: BatchKnobs & Pick<RunOptions, "env" | "signal">, open: (onMiss: OnMiss) => Opened): Promise<Answered> {
  const pending = new Map<string, BatchItem & { provider: Provider; model: string; base_url: string; body: unknown }>();
  const collect: OnMiss = (miss) => {
    const provider = batchProvider(miss.endpoint);
    if (provider === null) return null;
    pending.set(miss.key, { key: miss.key, case_id: miss.case_id, trial: miss.trial, provider, model: miss.model, base_url: miss.base_url, body: miss.body });
    return { ok: false, kind: "deferred", error: "collected for a batch" };
  };
  const opened = open(collect);
  const { dir, runs } = opened;
  const jobs = runs.flatMap((run) => run.jobs);
  const resumed = runs.reduce((sum, run) => sum + run.resumed, 0);
  const stopped = await runTrialJobs(jobs, { concurrency: configs[0].concurrency, resumed, total: resumed + jobs.length, signal: options.signal }).finally(async () => {
    await Promise.all(runs.map((run) => run.close()));
    opened.close?.();
  });
  if (stopped?.kind === "interrupted") throw new Interrupted(stopped.signal, `interrupted by ${stopped.signal} before submitting; continue with --resume ${dir}`);
  if (stopped !== null) throw new EndpointFailure(`${stopped.message} (while collecting the batch; fix it, then continue with --resume ${dir})`);

  const stateFile = join(dir, BATCH_FILE);
  const state = readBatchState(stateFile);
  const save = () => writeJsonFile(stateFile, state);
  const apiFor = createApis(configs, options.env);
  const store = openResponseStore(storeDir);
  try {
    for (;;) {
      // Each pending request no open batch holds: once, and once more if it failed or expired
      // (the content address decides, so a resumed run never submits a request twice).
      const tries = new Map<string, number>();
      for (const b of state.batches) for (const i of b.items) tries.set(i.key, (tries.get(i.key) ?? 0) + 1);
      const open = new Set(state.batches.filter((b) => !b.collected).flatMap((b) => b.items.map((i) => i.key)));
      const due = [...pending.values()].filter((p) => !open.has(p.key) && (!tries.has(p.key) || (p.key in state.failed && (tries.get(p.key) ?? 0) < MAX_ROUNDS)));
      for (const item of due) delete state.failed[item.key];
      for (const group of groupBy(due, (p) => `${p.provider} ${p.base_url} ${p.model}`).values()) {
        for (const chunk of chunks(group)) {
          const { provider, model, base_url } = chunk[0];
          const id = await apiFor(provider, base_url).submit(chunk.map((p) => ({ key: p.key, body: p.body })));
          const round = Math.max(...chunk.map((p) => (tries.get(p.key) ?? 0) + 1));
          state.batches.push({ id, provider, model, base_url, round, state: "submitted", items: chunk.map(({ key, case_id, trial }) => ({ key, case_id, trial })), collected: false });
          save();
        }
      }
      if (options.detach) return { detached: true, dir, submitted: state.batches.reduce((n, b) => n + b.items.length, 0) };
      if (state.batches.every((b) => b.collected)) break;
      await pollAll(state, apiFor, save, options);
      for (const batch of state.batches.filter((b) => !b.collected && isDone(b.state))) {
        const results = await apiFor(batch.provider, batch.base_url).results(batch.id);
        const items = new Map(batch.items.map((i) => [i.key, i]));
        for (const result of results) {
          const item = items.get(result.key);
          if (item === undefined) continue;
          if (result.body !== null) {
            const entry: StoreEntry = { key: item.key, endpoint: batch.provider, model: batch.model, base_url: batch.base_url, case_id: item.case_id, trial: item.trial, reply: { body: result.body, request_id: result.requestId, latency_ms: 0 } };
            store.put(item.key, entry);
          } else {
            state.failed[item.key] = result.error ?? "no result";
          }
          items.delete(result.key);
        }
        for (const key of items.keys()) state.failed[key] = `the batch ended (${batch.state}) without a result for it`;
        batch.collected = true;
        save();
      }
    }
  } finally {
    store.close();
  }
  const unanswered: OnMiss = (miss) =>
    batchProvider(miss.endpoint) === null ? null : { ok: false, kind: "errored", error: `batch: no answer for this request (${state.failed[miss.key] ?? "it was in no batch"})`, request_hash: miss.key };
  return { detached: false, dir, unanswered };
}

/** The provider of an endpoint ("openai:MODEL", or a store entry's "openai") when it has a batch API. */
function batchProvider(endpoint: string): Provider | null {
  const name = endpoint.split(":")[0];
  return PROVIDERS.find((p) => p === name) ?? null;
}

function defaultUrl(provider: Provider): string {
  return provider === "openai" ? OPENAI_BASE_URL : ANTHROPIC_BASE_URL;
}

/** batches.json; one written before each batch named its provider holds them once, at the top. */
function readBatchState(file: string): BatchState {
  if (!existsSync(file)) return { batches: [], failed: {} };
  let raw: Partial<BatchState> & Partial<Pick<BatchRecord, "provider" | "model" | "base_url">>;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new InputError(`${file}: not readable JSON (${error instanceof Error ? error.message : String(error)}); it lists the run's provider batches — restore it, or cancel them at the provider and start a new run`);
  }
  const batches = (raw.batches ?? []).map((b): BatchRecord => ({ ...b, provider: b.provider ?? raw.provider, model: b.model ?? raw.model, base_url: b.base_url ?? raw.base_url }) as BatchRecord);
  return { batches, failed: raw.failed ?? {} };
}

/** One batch client per provider and URL, built from the config that asks through it. */
function createApis(configs: Config[], env: NodeJS.ProcessEnv): (provider: Provider, baseUrl: string) => BatchApi {
  const apis = new Map<string, BatchApi>();
  return (provider, baseUrl) => {
    const id = `${provider} ${baseUrl}`;
    let api = apis.get(id);
    if (api === undefined) {
      const asking = configs.find((c) => batchProvider(c.endpoint) === provider && redactUrl(c.base_url ?? defaultUrl(provider)) === baseUrl);
      const config = asking ?? { ...configs[0], base_url: baseUrl === redactUrl(defaultUrl(provider)) ? null : baseUrl };
      apis.set(id, (api = createBatchApi(provider, config, env)));
    }
    return api;
  };
}

function isDone(state: string): boolean {
  return ["completed", "ended", "failed", "expired", "cancelled", "canceled"].includes(state);
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

async function pollAll(state: BatchState, apiFor: (provider: Provider, baseUrl: string) => BatchApi, save: () => void, options: BatchKnobs & Pick<RunOptions, "signal">): Promise<void> {
  let wait = options.pollMs ?? 5_000;
  for (;;) {
    const open = state.batches.filter((b) => !isDone(b.state));
    for (const batch of open) batch.state = await apiFor(batch.provider, batch.base_url).status(batch.id);
    save();
    const counts = new Map<string, number>();
    for (const b of state.batches) counts.set(b.state, (counts.get(b.state) ?? 0) + b.items.length);
    options.onBatchProgress?.(`batch: ${[...counts].map(([s, n]) => `${n} ${s}`).join(" · ")}`);
    if (state.batches.every((b) => isDone(b.state))) return;
    if (options.signal?.aborted === true) throw new EndpointFailure(`interrupted while batches were in progress; they keep running at the provider: collect them with --resume`);
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(60_000, Math.round(wait * 1.5));
  }
}

interface BatchApi {
  submit(items: { key: string; body: unknown }[]): Promise<string>;
  status(id: string): Promise<string>;
  results(id: string): Promise<{ key: string; body: unknown; requestId: string | null; error: string | null }[]>;
  cancel(id: string): Promise<void>;
}

/** The provider's batch endpoints through its official SDK (any base URL the run uses). */
export function createBatchApi(provider: Provider, config: Config, env: NodeJS.ProcessEnv): BatchApi {
  const key = readApiKey(env, config.api_key_env, provider === "openai" ? OPENAI_KEY_VARIABLE : ANTHROPIC_KEY_VARIABLE);
  if (key.key === null && config.base_url === null) throw new InputError(`${key.variable} is not set: a batch run needs the API key; export ${key.variable}`);
  const settings = { model: "", baseUrl: config.base_url, key, maxTokens: config.max_tokens, timeoutMs: config.timeout_ms, controls: { tool_choice: null, parallel_tool_calls: null, strict: false, disable_parallel_tool_use: null } };
  const options = sdkClientOptions(settings, config.base_url ?? defaultUrl(provider));
  return provider === "openai" ? openAiBatches(options) : anthropicBatches(options);
}

function openAiBatches(options: ReturnType<typeof sdkClientOptions>): BatchApi {
  const client = import("openai").then(({ default: OpenAI }) => new OpenAI(options));
  return {
    submit: async (items) => {
      const openai = await client;
      const { toFile } = await import("openai");
      const lines = items.map((i) => JSON.stringify({ custom_id: i.key, method: "POST", url: "/v1/chat/completions", body: i.body })).join("\n");
      const file = await openai.files.create({ file: await toFile(Buffer.from(`${lines}\n`), "route-eval-batch.jsonl"), purpose: "batch" });
      const batch = await openai.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
      return batch.id;
    },
    status: async (id) => (await (await client).batches.retrieve(id)).status,
    results: async (id) => {
      const openai = await client;
      const batch = await openai.batches.retrieve(id);
      const out: Awaited<ReturnType<BatchApi["results"]>> = [];
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (fileId === null || fileId === undefined) continue;
        const text = await (await openai.files.content(fileId)).text();
        for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
          const item = JSON.parse(line) as { custom_id: string; response?: { status_code: number; request_id?: string; body: unknown } | null; error?: { message?: string } | null };
          const ok = item.response !== null && item.response !== undefined && item.response.status_code === 200;
          out.push({ key: item.custom_id, body: ok ? item.response?.body : null, requestId: item.response?.request_id ?? null, error: ok ? null : (item.error?.message ?? `HTTP ${item.response?.status_code ?? "?"}`) });
        }
      }
      return out;
    },
    cancel: async (id) => void (await (await client).batches.cancel(id)),
  };
}

function anthropicBatches(options: ReturnType<typeof sdkClientOptions>): BatchApi {
  const client = import("@anthropic-ai/sdk").then(({ default: Anthropic }) => new Anthropic(options));
  return {
    submit: async (items) => {
      const anthropic = await client;
      const requests = items.map((i) => ({ custom_id: i.key, params: i.body })) as Parameters<typeof anthropic.messages.batches.create>[0]["requests"];
      return (await anthropic.messages.batches.create({ requests })).id;
    },
    status: async (id) => (await (await client).messages.batches.retrieve(id)).processing_status,
    results: async (id) => {
      const out: Awaited<ReturnType<BatchApi["results"]>> = [];
      for await (const item of await (await client).messages.batches.results(id)) {
        const result = item.result;
        out.push(result.type === "succeeded" ? { key: item.custom_id, body: result.message, requestId: null, error: null } : { key: item.custom_id, body: null, requestId: null, error: result.type === "errored" ? `errored: ${JSON.stringify(result.error).slice(0, 200)}` : result.type });
      }
      return out;
    },
    cancel: async (id) => void (await (await client).messages.batches.cancel(id)),
  };
}

/** batches.json of a batch run or experiment, and how to write it back; a directory without one is refused. */
function openBatchFile(dir: string): { state: BatchState; save: () => void } {
  const file = join(dir, BATCH_FILE);
  if (!existsSync(file)) throw new InputError(`${dir}: no ${BATCH_FILE} (not a batch run; batch runs are started with run --batch or ablate --batch)`);
  const state = readBatchState(file);
  return { state, save: () => writeJsonFile(file, state) };
}

/** One batch as `batch status` shows it. */
export type BatchSummary = Pick<BatchRecord, "id" | "provider" | "model" | "state" | "collected"> & { requests: number };

/** `route-eval batch status DIR`: each open batch's state asked once (batches.json updated), then every batch. */
export async function batchStatus(dir: string, configs: Config[], env: NodeJS.ProcessEnv): Promise<BatchSummary[]> {
  const { state, save } = openBatchFile(dir);
  const apiFor = createApis(configs, env);
  for (const batch of state.batches.filter((b) => !isDone(b.state))) batch.state = await apiFor(batch.provider, batch.base_url).status(batch.id);
  save();
  return state.batches.map(({ id, provider, model, state: now, collected, items }) => ({ id, provider, model, state: now, collected, requests: items.length }));
}

/** `route-eval batch cancel DIR` (a batch run, or a batch experiment): cancels its open batches; returns how many. */
export async function cancelBatches(dir: string, configs: Config[], env: NodeJS.ProcessEnv): Promise<number> {
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
