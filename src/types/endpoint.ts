/** Endpoints: part of the records of route-eval (see ../types.ts). */
import type { JsonObject, JsonValue } from "./json.js";
import type { ToolDefinition } from "./tools.js";
import type { Message } from "./cases.js";

export interface TrialRequest {
  case_id: string;
  trial: number;
  system: string;
  context: JsonObject;
  messages: Message[];
  goal: string;
  tools: ToolDefinition[];
  temperature: number;
  /** Sampling seed, for APIs that take one; derived from (run seed, case, trial). */
  seed?: number;
  /** Tool search is on: the tools behind it (`tools` holds the loaded ones). */
  search?: SearchOffer;
  /** The case's own parallel_tool_calls (absent: the run's tool controls decide). */
  parallel_tool_calls?: boolean;
  /** The case's own tool_choice — auto, required, none or a tool's name (a shadowed turn's, as traced). */
  tool_choice?: string;
  /** This decision's own search exchange so far, after the goal: the model's search calls and their results. */
  after_goal?: Message[];
}

/** The name of route-eval's client-side search function (offered as an ordinary tool; a registry may not use it). */
export const SEARCH_TOOL = "search_tools";

/** What a request with tool search on carries beside its loaded tools. */
export interface SearchOffer {
  mode: "provider" | "client";
  kind: "bm25" | "regex" | "embeddings";
  /** The deferred tools, in registry order (a provider's own search sends them marked defer_loading). */
  deferred: ToolDefinition[];
  /** What each search result loaded, in the order of the `tool` messages of after_goal (client mode). */
  loaded: string[][];
  /** tool_search.namespaces: the deferred tools grouped by family (openai-responses' own search). */
  namespaces?: { name: string; description: string; tools: ToolDefinition[] }[];
}

/** Provider tool controls, as config sets them (null: the provider's default). */
export interface ToolControls {
  tool_choice: string | null;
  parallel_tool_calls: boolean | null;
  strict: boolean;
  disable_parallel_tool_use: boolean | null;
}

export interface Usage {
  /** As reported by the endpoint; null when it reports none. */
  input_tokens: number | null;
  output_tokens: number | null;
  /**
   * route-eval's own estimate of the request's input tokens: ceil(characters / 4) of the JSON of
   * system + context + messages + goal + tool definitions. Never mixed into input_tokens.
   */
  input_tokens_estimated?: number | null;
}

/** One tool call of a reply. */
export interface EndpointCall {
  tool: string;
  arguments: JsonValue;
}

export interface EndpointResponse {
  /** The first tool called, or null when the endpoint answered in text. */
  selected: string | null;
  /** Parsed arguments of the first call; null when no call or unparseable. */
  arguments: JsonValue;
  /** Set when the call's arguments could not be parsed as a JSON object. */
  arguments_error: string | null;
  tool_calls: number;
  /** Every call, when the reply made more than one (`selected` is the first: docs/endpoints.md "Several calls in one reply"). */
  calls?: EndpointCall[];
  text: string | null;
  usage: Usage;
  /** This run's time for the answer: the call's, or the store read's when the store answered. */
  latency_ms: number;
  /** When the store answered: the original call's latency, as recorded then. */
  recorded_latency_ms?: number;
  /** The provider's id of the request (x-request-id / request-id header, else the response id). */
  provider_request_id?: string | null;
  /** Searches the provider ran inside this call (its hosted tool search), in order. */
  searches?: { query: string | null; returned: string[] }[];
  /** The provider's id of each call, in order, when every call has one: echoed when the calls are answered (OpenAI's and Anthropic's guides). */
  call_ids?: string[];
}

/**
 * How a failed call ends: `errored` — the trial is recorded as errored (counted, excluded from
 * rates); `fatal` — the run stops early with exit 3 (400/401/403/404, a replay miss, a missing key).
 */
export const FAILURE_KINDS = ["errored", "fatal"] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** How a call went, beside its answer. */
export interface CallInfo {
  /** Content address of the rendered request (the response-store key), when the endpoint renders one. */
  request_hash?: string;
  /** Attempts after the first. */
  retries?: number;
  /** True when the answer came from the response store. */
  from_store?: boolean;
}

/** Endpoint failures are data: an errored trial is counted, listed and excluded from rates. */
export type EndpointOutcome = (
  | { ok: true; response: EndpointResponse }
  | {
      ok: false;
      error: string;
      /** absent = "errored"; "deferred": not asked now (a batch run collects it), and not recorded. */
      kind?: FailureKind | "deferred";
      /** A fatal failure of the set-up (a key that is not set), not of a call: nothing was asked. */
      setup?: boolean;
    }
) &
  CallInfo;

/** How many calls an endpoint lets run at once now, and the run's concurrency it climbs back to (endpoint/pace.ts). */
export interface EndpointPace {
  capacity(): number;
  readonly max: number;
}

export interface Endpoint {
  /** e.g. "baseline", "openai". */
  id: string;
  model: string;
  call(request: TrialRequest): Promise<EndpointOutcome>;
  /** Its pace, when its calls go over a network (rate limits lower it): the run's limiter follows it. */
  pace?: EndpointPace;
  /** Finish background work (pending response-store writes); call once after the last call. */
  close?(): Promise<void>;
}

/**
 * A content-addressed store of endpoint answers (and retriever vectors). Keys are content hashes
 * (text/content-hash.ts) of what produced the answer.
 *
 * Each process appends its entries to a pack of its own, `<dir>/packs/<time>-<pid>-<tag>.jsonl`,
 * one line per entry: `<key>\t<entry as JSON>`. One append per answer costs a small
 * fraction of creating a file per answer (what the store did before, and what its writer thread
 * spent most of a live run's CPU on); a crash can only cut the last line of the pack it was
 * writing, which readers skip. Packs are read in name order, so a later answer for a key (a
 * `--mode live` run) wins. Stores written before packs — one file per key at
 * `<first two hex>/<key>.json` — are read as ever.
 */
export interface ResponseStore {
  readonly dir: string;
  get(key: string): unknown;
  /** The entry's JSON as it is stored (get parses it), or undefined. */
  getText(key: string): string | undefined;
  /** Appends the entry (synchronously: one small write to this process's pack, kept open). */
  put(key: string, value: unknown): void;
  /** Closes the pack (a later put opens it again). */
  close(): void;
  /** Where the entry of `key` lives, for messages: `packs/…jsonl:LINE`, or the file of an older store. */
  fileOf(key: string): string;
}
