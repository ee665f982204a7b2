/**
 * A provider endpoint behind the response store. The key is the content address of everything
 * that determines the answer — the rendered request body (canonical JSON), endpoint, model, base
 * URL and trial index — and never the API key. Modes: `live` calls always (and records),
 * `cached` answers from the store and calls on a miss, `replay` never calls: a miss stops the run.
 */
import type { ResponseStore } from "../types/endpoint.js";
import { InputError } from "../errors.js";
import {
  createCanonicalWriter,
  joinPieces,
  sortKeys,
  type CanonicalWriter,
} from "../text/canonical-json.js";
import { contentHash, envelopeHash, sha256Hex } from "../text/content-hash.js";
import type { Endpoint, EndpointOutcome, StoreMode, TrialRequest } from "../types.js";
import { field, isObject, numberField, stringField } from "../endpoint/json-guards.js";
import { callWithRetries, type CallGuards, type RetryPolicy } from "../endpoint/retry.js";
import type { WireEndpoint, WireReply } from "../endpoint/wire-endpoint.js";

export interface StoredEndpointOptions {
  store: ResponseStore;
  /** Whether closing the endpoint closes the store (false when other runs share it). */
  ownsStore: boolean;
  mode: StoreMode;
  retry: RetryPolicy;
  /** Shared by every trial of the run: the pace (429s) and the breaker (outages). */
  guards: CallGuards;
  /** Told about a store entry that was unreadable or did not match its key (it is asked again). */
  warn: (message: string) => void;
  /** A batch run: called on a store miss instead of calling; its outcome (deferred, or errored) stands. */
  onMiss?: (miss: StoreMiss) => EndpointOutcome | null;
  /** A miss answered by this reply instead of a call, and stored like one (route-eval freeze: the traced reply); null: ask as usual. */
  replyOnMiss?: (miss: StoreMiss) => WireReply | null;
}

/** A request the store has no answer for: its key, the rendered body, who would answer it (as its store entry names them), and which trial asked. */
export interface StoreMiss {
  key: string;
  body: unknown;
  endpoint: string;
  model: string;
  base_url: string;
  case_id: string;
  trial: number;
}

/**
 * What one store entry holds: the reply, and who asked (for a human browsing the store). The
 * request body itself is left out — it is rebuilt from the cases on every run, and keeping it would
 * multiply the size of a store that CI may commit.
 */
export interface StoreEntry {
  /** The entry's own key: an entry copied over another one's file is caught by it. */
  key: string;
  endpoint: string;
  model: string;
  base_url: string;
  case_id: string;
  trial: number;
  reply: WireReply;
  /** contentHash of `reply` when it was written: an entry edited afterwards is caught by it (absent in stores written before it). */
  reply_hash: string;
}

/**
 * A store entry of this reply, sealed with the hash of its reply. The reply's keys are sorted, so
 * the entry's JSON holds the reply as its canonical text: a replay checks the seal on that text
 * as stored (sealHolds), without writing the reply out again.
 */
export function sealEntry(entry: Omit<StoreEntry, "reply_hash">): StoreEntry {
  const reply = sortKeys(entry.reply) as WireReply;
  return { ...entry, reply, reply_hash: contentHash(entry.reply) };
}

/**
 * Whether the entry's reply still matches the hash it was sealed with. An entry sealEntry wrote
 * holds the reply's canonical text between its `"reply":` key (the keys before it hold strings
 * and numbers, whose text cannot contain it) and its `reply_hash`: that text is hashed as it
 * is. Any other entry (written before replies were sorted, or edited) has its reply written out
 * canonically again, the one way that decides.
 */
function sealHolds(text: string, reply: unknown, sealed: unknown): boolean {
  const start = text.indexOf(REPLY_KEY);
  const end = text.lastIndexOf(SEAL_KEY);
  if (
    start !== -1 &&
    end > start &&
    sha256Hex(text.slice(start + REPLY_KEY.length, end)) === sealed
  )
    return true;
  return sealed === contentHash(reply);
}

const REPLY_KEY = '"reply":';
const SEAL_KEY = ',"reply_hash":';

export function createStoredEndpoint<Body>(
  wire: WireEndpoint<Body>,
  options: StoredEndpointOptions,
): Endpoint {
  // Requests share their tool schemas by reference; remembering their text makes writing each request cheap.
  const canonical = createCanonicalWriter();
  // A store write is one small append; one that fails does not stop the run (its records are
  // complete) — close() reports the first failure.
  let failure: unknown = null;
  const save = (key: string, entry: StoreEntry) => {
    try {
      options.store.put(key, entry);
    } catch (error) {
      failure ??= error;
    }
  };
  return {
    id: wire.id,
    model: wire.model,
    pace: options.guards.pace,
    call: (request) => callStored(wire, options, canonical, save, request),
    close: async () => {
      await wire.close?.();
      // The store's last writes are made as it closes: one that fails is reported as any other.
      if (options.ownsStore)
        try {
          options.store.close();
        } catch (error) {
          failure ??= error;
        }
      if (failure === null) return;
      const reason = failure instanceof Error ? failure.message : String(failure);
      throw new InputError(
        `cannot write to the response store ${options.store.dir} (${reason}); check store_dir / --store — the trial records are complete, and \`route-eval report\` rebuilds the report from them`,
      );
    },
  };
}

async function callStored<Body>(
  wire: WireEndpoint<Body>,
  options: StoredEndpointOptions,
  canonical: CanonicalWriter,
  save: (key: string, entry: StoreEntry) => void,
  request: TrialRequest,
): Promise<EndpointOutcome> {
  const body = wire.render(request);
  // The content address of everything that determines the answer (requestAddress for the baseline).
  // The body's canonical text, written once (in pieces: its tool list shared with other
  // requests): hashed into the key, and sent as it is.
  const pieces = canonical.pieces(body);
  const key = envelopeHash(
    { endpoint: wire.id, model: wire.model, base_url: wire.baseUrl, trial: request.trial },
    pieces,
  );
  const where = `case "${request.case_id}" trial ${request.trial}`;
  if (options.mode !== "live") {
    const reading = performance.now();
    const stored = readReply(options.store, key);
    if ("reply" in stored)
      return fromStore(
        answer(wire, stored.reply, { request_hash: key, retries: 0, from_store: true }),
        stored.reply.latency_ms,
        reading,
      );
    if (stored.problem !== null && options.mode === "replay") {
      return fatal(
        `replay: the response store entry ${stored.file} for ${where} ${stored.problem}; delete it and record it again with --mode cached`,
        key,
      );
    }
    if (stored.problem !== null)
      options.warn(`response store: ${stored.file} ${stored.problem}; asking ${where} again`);
    if (options.mode === "replay") {
      const fix = "run it once with --mode cached (or live) to record the answer";
      return fatal(
        `replay: the response store ${options.store.dir} has no answer for ${where} (key ${key.slice(0, 12)}); ${fix}`,
        key,
      );
    }
  }
  const miss: StoreMiss = {
    key,
    body,
    endpoint: wire.id,
    model: wire.model,
    base_url: wire.baseUrl,
    case_id: request.case_id,
    trial: request.trial,
  };
  const instead = options.onMiss?.(miss);
  if (instead !== null && instead !== undefined) return { ...instead, request_hash: key };
  const given = options.replyOnMiss?.(miss) ?? null;
  if (given !== null) {
    const outcome = answer(wire, given, { request_hash: key, retries: 0, from_store: false });
    if (outcome.ok)
      save(
        key,
        sealEntry({
          key,
          endpoint: wire.id,
          model: wire.model,
          base_url: wire.baseUrl,
          case_id: request.case_id,
          trial: request.trial,
          reply: given,
        }),
      );
    return outcome;
  }
  if (wire.unavailable !== null) {
    const error = `${wire.unavailable}: ${where} needs a live call (the store has no answer for it); export the key, or run with --mode replay`;
    return { ok: false, kind: "fatal", setup: true, error, request_hash: key, retries: 0 };
  }
  // The reply as stored (its headers only pace the endpoint: they are not part of the answer).
  const readable = async () => {
    const { headers, ...reply } = await wire.send(body, joinPieces(pieces));
    const response = wire.normalise(reply);
    if ("error" in response) throw new UnreadableReply(response.error, response.final === true);
    return { reply, headers };
  };
  const classify = (error: unknown) =>
    error instanceof UnreadableReply
      ? error.final
        ? { kind: "errored" as const, message: error.message }
        : {
            kind: "retryable" as const,
            cause: "transport" as const,
            message: `unreadable reply: ${error.message}`,
            retryAfterMs: null,
          }
      : wire.classify(error, where);
  // Runs sharing the store (an experiment's variants) ask an identical request once: a second asker waits for the first.
  const asking = inFlight(options.store);
  const pending = asking.get(key);
  if (pending !== undefined) {
    const shared = await pending;
    return shared.ok ? { ...shared, retries: 0, from_store: true } : shared;
  }
  const call = (async (): Promise<EndpointOutcome> => {
    const result = await callWithRetries(
      readable,
      classify,
      options.retry,
      options.guards,
      (value) => value.headers,
    );
    if (!result.ok)
      return {
        ok: false,
        kind: result.kind,
        error: result.error,
        request_hash: key,
        retries: result.retries,
      };
    const outcome = answer(wire, result.value.reply, {
      request_hash: key,
      retries: result.retries,
      from_store: false,
    });
    if (outcome.ok) {
      const entry = sealEntry({
        key,
        endpoint: wire.id,
        model: wire.model,
        base_url: wire.baseUrl,
        case_id: request.case_id,
        trial: request.trial,
        reply: result.value.reply,
      });
      save(key, entry);
    }
    return outcome;
  })();
  asking.set(key, call);
  try {
    return await call;
  } finally {
    asking.delete(key);
  }
}

/** The requests being asked through each store right now, by key. */
const IN_FLIGHT = new WeakMap<ResponseStore, Map<string, Promise<EndpointOutcome>>>();

function inFlight(store: ResponseStore): Map<string, Promise<EndpointOutcome>> {
  let asking = IN_FLIGHT.get(store);
  if (asking === undefined) IN_FLIGHT.set(store, (asking = new Map()));
  return asking;
}

/** A 200 whose body is not the provider's reply shape (no choices, no content…): retried like a cut-off body. */
class UnreadableReply extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
  }
}

function answer<Body>(
  wire: WireEndpoint<Body>,
  reply: WireReply,
  info: { request_hash: string; retries: number; from_store: boolean },
): EndpointOutcome {
  const response = wire.normalise(reply);
  if ("error" in response)
    return {
      ok: false,
      kind: "errored",
      error: response.final === true ? response.error : `unreadable reply: ${response.error}`,
      ...info,
    };
  return { ok: true, response, ...info };
}

/** A store hit reports this run's own time (the read's), and keeps the original call's as recorded_latency_ms. */
function fromStore(outcome: EndpointOutcome, recorded: number, reading: number): EndpointOutcome {
  if (!outcome.ok) return outcome;
  const latency_ms = Math.round((performance.now() - reading) * 1000) / 1000;
  return {
    ...outcome,
    response: { ...outcome.response, latency_ms, recorded_latency_ms: recorded },
  };
}

function fatal(error: string, key: string): EndpointOutcome {
  return { ok: false, kind: "fatal", error, request_hash: key, retries: 0 };
}

type StoredReply = { reply: WireReply } | { file: string; problem: string | null };

/**
 * The stored reply; or, for a miss, what was wrong with the entry when there was one (it cannot
 * be read, or it is not this request's: its own key differs, as when a file was copied over).
 */
function readReply(store: ResponseStore, key: string): StoredReply {
  // Where the entry lies is named only when something is wrong with it.
  const missed = (problem: string | null): StoredReply => ({ file: store.fileOf(key), problem });
  let text: string | undefined;
  let entry: unknown;
  try {
    text = store.getText(key);
    if (text === undefined) return missed(null);
    entry = JSON.parse(text);
  } catch (error) {
    return missed(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const own = field(entry, "key");
  if (own !== key)
    return missed(
      own === undefined
        ? "carries no key (written by another tool or version)"
        : "holds another request's answer (its key does not match)",
    );
  const reply = field(entry, "reply");
  if (!isObject(reply) || !("body" in reply)) return missed("has no reply in it");
  const sealed = field(entry, "reply_hash");
  if (sealed !== undefined && !sealHolds(text, reply, sealed))
    return missed("was changed after it was written (its reply no longer matches its reply_hash)");
  return {
    reply: {
      body: reply.body,
      request_id: stringField(reply, "request_id"),
      latency_ms: numberField(reply, "latency_ms") ?? 0,
    },
  };
}
