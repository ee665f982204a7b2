/**
 * `run --batch`: the run's requests through the providers' batch APIs (OpenAI Batch, Anthropic
 * Message Batches), at about half the price. The requests are built exactly as a live run builds
 * them (same body, same content address); those the store answers are recorded at once, the rest
 * are submitted. batches.json in the run directory holds every batch id and state as soon as it
 * exists, so `--resume` (on any machine) collects them and never submits a request twice. Results
 * go into the response store, and the run is then finished from the store like any cached run — so
 * its records equal a live run's apart from latency and request ids. Items that failed or expired
 * are resubmitted once, then recorded as errored trials with the provider's reason.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readApiKey } from "../endpoint/api-key.js";
import { ANTHROPIC_BASE_URL, ANTHROPIC_KEY_VARIABLE } from "../endpoint/anthropic.js";
import { OPENAI_BASE_URL, OPENAI_KEY_VARIABLE } from "../endpoint/openai.js";
import type { StoreEntry, StoreMiss } from "../endpoint/stored-endpoint.js";
import { sdkClientOptions } from "../endpoint/wire-endpoint.js";
import { EndpointFailure, InputError } from "../errors.js";
import { writeJsonFile } from "../run-files/write-files.js";
import { openResponseStore } from "../store/response-store.js";
import { redactUrl } from "../text/redact-url.js";
import type { Config } from "../types.js";
import { startRun, type RunOptions, type RunResult } from "./run.js";
import { runTrialJobs } from "./run-loop.js";

export const BATCH_FILE = "batches.json";
/** Per batch, under both providers' documented limits (OpenAI 50,000 requests and 200 MB; Anthropic 100,000 and 256 MB). */
const MAX_REQUESTS = 50_000;
const MAX_BYTES = 180 * 1024 * 1024;
/** Submissions of one request at most: the first, and one more when it failed or expired. */
const MAX_ROUNDS = 2;

type Provider = "openai" | "anthropic";

interface BatchItem {
  key: string;
  case_id: string;
  trial: number;
}

interface BatchRecord {
  id: string;
  round: number;
  /** The provider's state as last seen (validating, in_progress, completed, ended, failed, expired, cancelled…). */
  state: string;
  items: BatchItem[];
  collected: boolean;
}

interface BatchState {
  provider: Provider;
  model: string;
  base_url: string;
  batches: BatchRecord[];
  /** Keys whose batch item failed or expired, with the provider's reason. */
  failed: Record<string, string>;
}

export interface BatchOptions extends RunOptions {
  /** Submit and exit: `--resume` collects. */
  detach: boolean;
  /** Milliseconds between polls (grows to 60 s); tests make it short. */
  pollMs?: number;
  onBatchProgress?: (line: string) => void;
}

export type BatchResult = { detached: true; runDir: string; submitted: number } | ({ detached: false } & RunResult);

export async function runBatch(config: Config, options: BatchOptions): Promise<BatchResult> {
  const provider = providerOf(config);
  const model = config.model ?? config.endpoint.slice(config.endpoint.indexOf(":") + 1);
  // 1. The run's requests, built as a live run builds them; the store answers what it can now.
  const pending = new Map<string, BatchItem & { body: unknown }>();
  const collect = (miss: StoreMiss) => {
    pending.set(miss.key, { key: miss.key, case_id: miss.case_id, trial: miss.trial, body: miss.body });
    return { ok: false as const, kind: "deferred" as const, error: "collected for a batch" };
  };
  const first = startRun({ ...config, mode: "cached" }, { ...options, batch: true, onMiss: collect });
  await runTrialJobs(first.jobs, { concurrency: config.concurrency, resumed: first.resumed, total: first.resumed + first.jobs.length }).finally(first.close);
  const runDir = first.dir;
  const stateFile = join(runDir, BATCH_FILE);
  const state: BatchState = existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, "utf8")) as BatchState) : { provider, model, base_url: redactUrl(config.base_url ?? defaultUrl(provider)), batches: [], failed: {} };
  const save = () => writeJsonFile(stateFile, state);
  const api = createBatchApi(provider, config, options.env);
  const store = openResponseStore(config.store_dir);
  try {
    for (;;) {
      // 2. Submit each pending request no open batch holds: once, and once more if it failed or
      //    expired (the content address decides, so a resumed run never submits a request twice).
      const tries = new Map<string, number>();
      for (const b of state.batches) for (const i of b.items) tries.set(i.key, (tries.get(i.key) ?? 0) + 1);
      const open = new Set(state.batches.filter((b) => !b.collected).flatMap((b) => b.items.map((i) => i.key)));
      const due = [...pending.values()].filter((p) => !open.has(p.key) && (!tries.has(p.key) || (p.key in state.failed && (tries.get(p.key) ?? 0) < MAX_ROUNDS)));
      for (const item of due) delete state.failed[item.key];
      for (const chunk of chunks(due)) {
        const id = await api.submit(chunk.map((p) => ({ key: p.key, body: p.body })));
        const round = Math.max(...chunk.map((p) => (tries.get(p.key) ?? 0) + 1));
        state.batches.push({ id, round, state: "submitted", items: chunk.map(({ key, case_id, trial }) => ({ key, case_id, trial })), collected: false });
        save();
      }
      if (options.detach) return { detached: true, runDir, submitted: state.batches.reduce((n, b) => n + b.items.length, 0) };
      if (state.batches.every((b) => b.collected)) break;
      // 3. Poll every open batch, then put each answer into the store.
      await pollAll(state, api, save, options);
      for (const batch of state.batches.filter((b) => !b.collected && isDone(b.state))) {
        const results = await api.results(batch.id);
        const items = new Map(batch.items.map((i) => [i.key, i]));
        for (const result of results) {
          const item = items.get(result.key);
          if (item === undefined) continue;
          if (result.body !== null) {
            const entry: StoreEntry = { key: item.key, endpoint: provider, model, base_url: state.base_url, case_id: item.case_id, trial: item.trial, reply: { body: result.body, request_id: result.requestId, latency_ms: 0 } };
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
  // 4. Finish from the store, as a cached run: what no batch answered is an errored trial, with why.
  const unanswered = (miss: StoreMiss) => ({ ok: false as const, kind: "errored" as const, error: `batch: no answer for this request (${state.failed[miss.key] ?? "it was in no batch"})`, request_hash: miss.key });
  const last = startRun({ ...config, mode: "cached" }, { ...options, batch: true, resume: runDir, onMiss: unanswered });
  const stopped = await runTrialJobs(last.jobs, { concurrency: config.concurrency, resumed: last.resumed, total: last.resumed + last.jobs.length, onProgress: options.onProgress, signal: options.signal }).finally(last.close);
  return { detached: false, ...last.finish(stopped) };
}

function providerOf(config: Config): Provider {
  const provider = config.endpoint.split(":")[0];
  if (provider === "openai" || provider === "anthropic") return provider;
  throw new InputError(`--batch: the endpoint ${config.endpoint} has no batch API; batch runs take openai:MODEL (OpenAI Batch) or anthropic:MODEL (Message Batches)`);
}

function defaultUrl(provider: Provider): string {
  return provider === "openai" ? OPENAI_BASE_URL : ANTHROPIC_BASE_URL;
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

async function pollAll(state: BatchState, api: BatchApi, save: () => void, options: BatchOptions): Promise<void> {
  let wait = options.pollMs ?? 5_000;
  for (;;) {
    const open = state.batches.filter((b) => !isDone(b.state));
    for (const batch of open) batch.state = await api.status(batch.id);
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

/** `route-eval batch cancel RUN`: cancels the run's open batches; returns how many. */
export async function cancelBatches(runDir: string, config: Config, env: NodeJS.ProcessEnv): Promise<number> {
  const file = join(runDir, BATCH_FILE);
  if (!existsSync(file)) throw new InputError(`${runDir}: no ${BATCH_FILE} (not a batch run)`);
  const state = JSON.parse(readFileSync(file, "utf8")) as BatchState;
  const api = createBatchApi(state.provider, config, env);
  const open = state.batches.filter((b) => !isDone(b.state));
  for (const batch of open) {
    await api.cancel(batch.id);
    batch.state = "cancelling";
  }
  writeJsonFile(file, state);
  return open.length;
}
