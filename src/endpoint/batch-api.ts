/**
 * The providers' batch APIs through their official SDKs — OpenAI Batch (a JSONL file uploaded,
 * one batch on /v1/chat/completions) and Anthropic Message Batches — at any base URL a run uses.
 */
import { contentHash } from "../text/content-hash.js";
import { readApiKey } from "./api-key.js";
import { isProviderName, PROVIDERS, type BatchApiName } from "../types/providers.js";
import { sdkClientOptions } from "./wire-endpoint.js";
import { describeError } from "./http-failure.js";
import { createTransport, type FetchLike } from "./http-transport.js";
import { EndpointFailure, InputError } from "../errors.js";
import { redactUrl } from "../text/redact-url.js";
import type { Config } from "../types.js";

/** One provider's batches: submit requests keyed by their content address, poll, read the results, cancel. */
/** Runs one API call of a submit (the upload, the create), retried on its own when it fails in passing. */
export type SubmitStep = <T>(what: string, run: () => Promise<T>) => Promise<T>;

export interface BatchApi {
  /** Submits a batch; each of its API calls goes through `step` (default: once). */
  submit(items: { key: string; body: unknown }[], step?: SubmitStep): Promise<string>;
  status(id: string): Promise<string>;
  results(
    id: string,
  ): Promise<{ key: string; body: unknown; requestId: string | null; error: string | null }[]>;
  cancel(id: string): Promise<void>;
}

/** The provider of an endpoint ("openai:MODEL", or a store entry's "openai") when it has a batch API. */
export function batchProvider(endpoint: string): BatchApiName | null {
  const name = endpoint.split(":")[0];
  return isProviderName(name) ? PROVIDERS[name].batch : null;
}

/** Whether a batch in this provider state will change no more. */
export function isDone(state: string): boolean {
  return ["completed", "ended", "failed", "expired", "cancelled", "canceled"].includes(state);
}

/** One batch client per provider and URL, built from the config that asks through it. */
export function createApis(
  configs: Config[],
  env: NodeJS.ProcessEnv,
): (provider: BatchApiName, baseUrl: string) => BatchApi {
  const apis = new Map<string, BatchApi>();
  const fetch = createTransport(env);
  return (provider, baseUrl) => {
    const id = `${provider} ${baseUrl}`;
    let api = apis.get(id);
    if (api === undefined) {
      const asking = configs.find(
        (c) =>
          batchProvider(c.endpoint) === provider &&
          redactUrl(c.base_url ?? defaultUrl(provider)) === baseUrl,
      );
      const config = asking ?? {
        ...configs[0],
        base_url: baseUrl === redactUrl(defaultUrl(provider)) ? null : baseUrl,
      };
      apis.set(
        id,
        (api = withRetries(createBatchApi(provider, config, env, fetch), provider, baseUrl)),
      );
    }
    return api;
  };
}

/** The provider's batch endpoints through its official SDK (any base URL the run uses). */
function createBatchApi(
  provider: BatchApiName,
  config: Config,
  env: NodeJS.ProcessEnv,
  fetch: FetchLike,
): BatchApi {
  const key = readApiKey(env, config.api_key_env, PROVIDERS[provider].key);
  if (key.key === null && config.base_url === null)
    throw new InputError(
      `${key.variable} is not set: a batch run needs the API key; export ${key.variable}`,
    );
  const baseUrl = config.base_url ?? defaultUrl(provider);
  const settings = {
    provider,
    model: "",
    baseUrl,
    key,
    keyRequired: config.base_url === null,
    maxTokens: config.max_tokens,
    timeoutMs: config.timeout_ms,
    controls: {
      tool_choice: null,
      parallel_tool_calls: null,
      strict: false,
      disable_parallel_tool_use: null,
    },
    fetch,
  };
  const options = sdkClientOptions(settings, baseUrl);
  return provider === "openai" ? openAiBatches(options) : anthropicBatches(options);
}

/** Attempts of one batch API call before the run stops (a 5xx, 429 or dropped connection is retried). */
export const BATCH_ATTEMPTS = 5;
const BATCH_RETRY_MS = 250;

/**
 * The provider's batch API with its passing failures retried: a poll that meets one HTTP 500 in a
 * day-long wait must not end the run. A submit's calls (upload, create) are retried one by one. A batch the provider does not know (404) is bad input, with
 * what to do; a failure that persists is the endpoint's (exit 3), and the batches keep running.
 */
function withRetries(api: BatchApi, provider: BatchApiName, baseUrl: string): BatchApi {
  const call = async <T>(what: string, id: string | null, run: () => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const status =
          typeof (error as { status?: unknown })?.status === "number"
            ? (error as { status: number }).status
            : null;
        if (status === 404 && id !== null) {
          throw new InputError(
            `batch ${id}: ${provider} at ${baseUrl} does not know it (it expired and was deleted, or belongs to another key or project); check the key, or remove it from batches.json to submit its requests again`,
          );
        }
        const passing =
          status === null ? !(error instanceof InputError) : status === 429 || status >= 500;
        const detail = describeError(error);
        if (!passing) throw error;
        if (attempt >= BATCH_ATTEMPTS)
          throw new EndpointFailure(
            `${provider} batch API at ${baseUrl}: ${what} failed ${attempt} times (last: ${detail}); the batches keep running at the provider: collect them with --resume`,
          );
        await new Promise((resolve) => setTimeout(resolve, BATCH_RETRY_MS * 2 ** (attempt - 1)));
      }
    }
  };
  return {
    // Each API call of a submit is retried on its own: a failed create never uploads the file again.
    submit: (items) => api.submit(items, (what, run) => call(`submit (${what})`, null, run)),
    status: (id) => call(`status of ${id}`, id, () => api.status(id)),
    results: (id) => call(`results of ${id}`, id, () => api.results(id)),
    cancel: (id) => call(`cancel of ${id}`, id, () => api.cancel(id)),
  };
}

/** A batch API's own URL: that of the provider row of the same name. */
function defaultUrl(provider: BatchApiName): string {
  return PROVIDERS[provider].base_url;
}

function openAiBatches(options: ReturnType<typeof sdkClientOptions>): BatchApi {
  const client = import("openai").then(({ default: OpenAI }) => new OpenAI(options));
  return {
    submit: async (items, step = (_what, run) => run()) => {
      const openai = await client;
      const { toFile } = await import("openai");
      const lines = items
        .map((i) =>
          JSON.stringify({
            custom_id: i.key,
            method: "POST",
            url: "/v1/chat/completions",
            body: i.body,
          }),
        )
        .join("\n");
      const content = Buffer.from(`${lines}\n`);
      const file = await step("upload", async () =>
        openai.files.create({
          file: await toFile(content, "route-eval-batch.jsonl"),
          purpose: "batch",
        }),
      );
      // The uploaded file is created once; a create retried after a lost reply carries the same
      // idempotency key, so it cannot start a second batch.
      const batch = await step("create", () =>
        openai.batches.create(
          { input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" },
          { idempotencyKey: `route-eval-${file.id}` },
        ),
      );
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
          const item = JSON.parse(line) as {
            custom_id: string;
            response?: { status_code: number; request_id?: string; body: unknown } | null;
            error?: { message?: string } | null;
          };
          const ok =
            item.response !== null &&
            item.response !== undefined &&
            item.response.status_code === 200;
          out.push({
            key: item.custom_id,
            body: ok ? item.response?.body : null,
            requestId: item.response?.request_id ?? null,
            error: ok ? null : (item.error?.message ?? `HTTP ${item.response?.status_code ?? "?"}`),
          });
        }
      }
      return out;
    },
    cancel: async (id) => void (await (await client).batches.cancel(id)),
  };
}

function anthropicBatches(options: ReturnType<typeof sdkClientOptions>): BatchApi {
  const client = import("@anthropic-ai/sdk").then(
    ({ default: Anthropic }) => new Anthropic(options),
  );
  return {
    submit: async (items, step = (_what, run) => run()) => {
      const anthropic = await client;
      const requests = items.map((i) => ({ custom_id: i.key, params: i.body })) as Parameters<
        typeof anthropic.messages.batches.create
      >[0]["requests"];
      const idempotencyKey = `route-eval-${contentHash(items.map((i) => i.key)).slice(0, 32)}`;
      const batch = await step("create", () =>
        anthropic.messages.batches.create({ requests }, { idempotencyKey }),
      );
      return batch.id;
    },
    status: async (id) => (await (await client).messages.batches.retrieve(id)).processing_status,
    results: async (id) => {
      const out: Awaited<ReturnType<BatchApi["results"]>> = [];
      for await (const item of await (await client).messages.batches.results(id)) {
        const result = item.result;
        out.push(
          result.type === "succeeded"
            ? { key: item.custom_id, body: result.message, requestId: null, error: null }
            : {
                key: item.custom_id,
                body: null,
                requestId: null,
                error:
                  result.type === "errored"
                    ? `errored: ${JSON.stringify(result.error).slice(0, 200)}`
                    : result.type,
              },
        );
      }
      return out;
    },
    cancel: async (id) => void (await (await client).messages.batches.cancel(id)),
  };
}
