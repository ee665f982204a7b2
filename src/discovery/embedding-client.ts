import type { ResponseStore } from "../types/endpoint.js";
import type OpenAI from "openai";
import { EndpointFailure, InputError } from "../errors.js";
import { contentHash } from "../text/content-hash.js";
import { redactUrl } from "../text/redact-url.js";
import { EMBEDDINGS_DEFAULTS, type EmbeddingsConfig, type StoreMode } from "../types.js";

/** Texts → vectors, in input order. */
export type EmbedTexts = (texts: string[]) => Promise<number[][]>;

export interface EmbedderContext {
  store: ResponseStore;
  /** live: always call; cached: store first, call on a miss; replay: store only. */
  mode: StoreMode;
  env: NodeJS.ProcessEnv;
}

/** Inputs per /embeddings request. */
const BATCH = 128;

/**
 * Vectors kept after they were asked for, the most recently asked last: a run of many cases holds
 * this many goals' vectors (a vector is about 12 KB at 1,536 dimensions), not every goal's.
 */
const KEPT = 1_024;

/**
 * Vectors from any OpenAI-compatible `/embeddings` endpoint through the official SDK, kept in the
 * response store under contentHash({model, base_url, text}) so that reruns and replays cost nothing.
 * Equal texts in flight, or asked among the last KEPT texts, share one request.
 */
export function createEmbedder(settings: EmbeddingsConfig, context: EmbedderContext): EmbedTexts {
  const kept = new Map<string, Promise<number[]>>();
  let client: Promise<OpenAI> | null = null;
  const fetchBatch = async (texts: string[]): Promise<number[][]> => {
    client ??= createClient(settings, context.env);
    const vectors = await requestVectors(await client, settings, texts);
    texts.forEach((text, i) =>
      context.store.put(keyOf(settings, text), { ...identify(settings), text, vector: vectors[i] }),
    );
    // Batches are few and far between: the pack is not held open between them.
    context.store.close();
    return vectors;
  };
  return async (texts) => {
    const asked = new Map<string, Promise<number[]>>();
    const toFetch: string[] = [];
    for (const text of new Set(texts)) {
      const known = kept.get(text);
      if (known !== undefined) {
        asked.set(text, known);
        continue;
      }
      const stored =
        context.mode === "live" ? null : readVector(context.store, keyOf(settings, text));
      if (stored !== null) asked.set(text, Promise.resolve(stored));
      else if (context.mode === "replay") throw replayMiss(settings, text);
      else toFetch.push(text);
    }
    for (let start = 0; start < toFetch.length; start += BATCH) {
      const batch = toFetch.slice(start, start + BATCH);
      const request = fetchBatch(batch);
      batch.forEach((text, i) =>
        asked.set(
          text,
          request.then((vectors) => vectors[i]),
        ),
      );
    }
    for (const [text, vector] of asked) {
      kept.delete(text);
      kept.set(text, vector);
      if (kept.size > KEPT) kept.delete(kept.keys().next().value as string);
    }
    return Promise.all(texts.map((text) => asked.get(text) as Promise<number[]>));
  };
}

function identify(settings: EmbeddingsConfig): { model: string; base_url: string } {
  return { model: settings.model, base_url: redactUrl(settings.base_url) };
}

function keyOf(settings: EmbeddingsConfig, text: string): string {
  return contentHash({ ...identify(settings), text });
}

/** A stored vector, or null when absent or not a vector (a damaged entry is fetched again). */
function readVector(store: ResponseStore, key: string): number[] | null {
  const entry = store.get(key);
  if (entry === null || typeof entry !== "object" || !("vector" in entry)) return null;
  return isVector(entry.vector) ? entry.vector : null;
}

function isVector(value: unknown): value is number[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every((x) => typeof x === "number" && Number.isFinite(x))
  );
}

function replayMiss(settings: EmbeddingsConfig, text: string): EndpointFailure {
  const shown = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return new EndpointFailure(
    `embeddings (replay mode): no stored vector for model "${settings.model}" at ${redactUrl(settings.base_url)} and text "${shown}"; run once in cached mode to record it`,
  );
}

/** The key comes from the environment only. A server other than the default may need none. */
async function createClient(settings: EmbeddingsConfig, env: NodeJS.ProcessEnv): Promise<OpenAI> {
  const key = env[settings.api_key_env];
  if ((key === undefined || key === "") && settings.base_url === EMBEDDINGS_DEFAULTS.base_url) {
    throw new InputError(
      `discovery.embeddings: environment variable ${settings.api_key_env} is not set; the embeddings retriever needs an API key for ${redactUrl(settings.base_url)} (or set discovery.embeddings.base_url to a local server)`,
    );
  }
  // The SDK loads on first use, so commands without an embeddings retriever do not pay for it.
  const { default: OpenAIClient } = await import("openai");
  return new OpenAIClient({
    apiKey: key || "unused",
    baseURL: settings.base_url,
    timeout: 60_000,
    maxRetries: 3,
  });
}

async function requestVectors(
  client: OpenAI,
  settings: EmbeddingsConfig,
  texts: string[],
): Promise<number[][]> {
  const where = `embeddings endpoint ${redactUrl(settings.base_url)} (model "${settings.model}")`;
  let response: OpenAI.CreateEmbeddingResponse;
  try {
    response = await client.embeddings.create({
      model: settings.model,
      input: texts,
      encoding_format: "float",
    });
  } catch (error) {
    throw new EndpointFailure(`${where}: ${describeFailure(error, settings)}`);
  }
  const vectors: (number[] | undefined)[] = new Array(texts.length);
  for (const item of response.data ?? []) {
    if (
      Number.isInteger(item.index) &&
      item.index >= 0 &&
      item.index < texts.length &&
      isVector(item.embedding)
    )
      vectors[item.index] = item.embedding;
  }
  const found = vectors.filter((v): v is number[] => v !== undefined);
  if (found.length !== texts.length) {
    throw new EndpointFailure(
      `${where}: expected ${texts.length} embeddings (data[].embedding with index), got ${found.length} usable`,
    );
  }
  if (new Set(found.map((v) => v.length)).size > 1)
    throw new EndpointFailure(`${where}: returned vectors of different lengths`);
  return found;
}

function describeFailure(error: unknown, settings: EmbeddingsConfig): string {
  const status = statusOf(error);
  if (status === 401 || status === 403)
    return `authentication failed (${status}); check the key in ${settings.api_key_env}`;
  if (status !== null && error instanceof Error) return `HTTP ${status}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** The HTTP status of an SDK APIError (read structurally: the SDK module is loaded lazily). */
function statusOf(error: unknown): number | null {
  return error instanceof Error && "status" in error && typeof error.status === "number"
    ? error.status
    : null;
}
