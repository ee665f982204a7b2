/**
 * A lean `fetch` for the provider SDKs and the http endpoint, over undici's `request` (not its
 * `fetch`, which costs about a millisecond of main-thread CPU per request — at 32 requests in
 * flight most of route-eval's own time). It does what the SDKs use: a request with headers and a
 * text or byte body, redirects as fetch follows them (credentials never follow to another origin),
 * the status, headers and the whole body back, and an AbortSignal (the SDKs' timeouts) that cancels
 * the request. Requests go through the proxy that HTTP_PROXY / HTTPS_PROXY name, except to the hosts
 * NO_PROXY lists (undici's EnvHttpProxyAgent), read from the run's environment. Any other body
 * (FormData, Blob, a stream) is encoded by the platform's Request first, then sent the same way.
 * A reply carries no status text (undici's request API, like HTTP/2, has none; neither SDK reads it).
 */
import { createRequire } from "node:module";
import type { Dispatcher } from "undici";
import { InputError } from "../errors.js";
import { lazy } from "../text/lazy.js";
import { BufferedResponse } from "./buffered-response.js";

const require = createRequire(import.meta.url);

/** What the transport uses of undici: its connection pools and its request API. */
interface Undici {
  Agent: typeof import("undici").Agent;
  EnvHttpProxyAgent: () => typeof import("undici").EnvHttpProxyAgent;
  request(
    dispatcher: Dispatcher,
    options: Dispatcher.RequestOptions,
  ): Promise<Dispatcher.ResponseData>;
}

/**
 * undici, loaded by the first request sent (a run of the baseline, or a replay, never loads it):
 * the pool and the request API alone, a third of what its index loads (fetch, WebSocket, caches,
 * mocks — 45 against 130 ms of start-up here); the index for a proxy, or when its files have moved.
 * The CLI keeps its WebAssembly HTTP parser at V8's baseline compiler (cli.ts keepWasmAtBaseline).
 */
const undici = lazy((): Undici => {
  try {
    const request = require("undici/lib/api/api-request.js") as (
      this: Dispatcher,
      options: Dispatcher.RequestOptions,
    ) => Promise<Dispatcher.ResponseData>;
    return {
      Agent: require("undici/lib/dispatcher/agent.js") as Undici["Agent"],
      // A proxy's tunnel is opened by the request API its index adds to every dispatcher.
      EnvHttpProxyAgent: () => (require("undici") as typeof import("undici")).EnvHttpProxyAgent,
      request: (dispatcher, options) => request.call(dispatcher, options),
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
    const whole = require("undici") as typeof import("undici");
    return {
      Agent: whole.Agent,
      EnvHttpProxyAgent: () => whole.EnvHttpProxyAgent,
      request: (dispatcher, options) => dispatcher.request(options),
    };
  }
});

/** What route-eval's callers may add to a fetch's init. */
export interface TransportInit extends RequestInit {
  /** Headers that carry a credential of the caller's own (the http endpoint's headers_env): never sent to another origin. */
  sensitiveHeaders?: string[];
  /** The largest body read, in bytes; a longer one is a ResponseTooLarge (never held whole in memory). */
  maxBytes?: number;
  /** Follow redirects within the first URL's origin only; one to another origin is a CrossOriginRedirect (nothing is sent there). */
  sameOrigin?: boolean;
}

export type FetchLike = (input: string | URL | Request, init?: TransportInit) => Promise<Response>;

/** A reply longer than the caller's maxBytes: it was not read past that. */
export class ResponseTooLarge extends Error {}

/** A redirect to another origin, refused for a caller that follows its own origin only. */
export class CrossOriginRedirect extends Error {}

/** Header names that hold credentials whatever the caller: dropped on a redirect to another origin. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie)$|key|token|secret|auth|session|signature|password/i;

/** The connection pool of a run: straight to each host, or through the environment's proxy. */
export function createDispatcher(env: NodeJS.ProcessEnv): Dispatcher {
  const { httpProxy, httpsProxy, noProxy } = proxiesOf(env);
  if (httpProxy === "" && httpsProxy === "") return new (undici().Agent)();
  // Every value is given, "" for none, so undici never reads the process environment itself.
  return new (undici().EnvHttpProxyAgent())({ httpProxy, httpsProxy, noProxy });
}

/**
 * An endpoint's transport: createFetch over createDispatcher(env), both made at its first
 * request. The proxy variables are checked now: one that is not a URL stops the run before it
 * asks anything.
 */
export function createTransport(env: NodeJS.ProcessEnv): FetchLike {
  proxiesOf(env);
  let fetch: FetchLike | null = null;
  return (input, init) => (fetch ??= createFetch(createDispatcher(env)))(input, init);
}

/** An http: or https: URL, as a proxy must be. */
function isProxyUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === "http:" || protocol === "https:";
}

/** HTTP_PROXY, HTTPS_PROXY (each a URL, or "") and NO_PROXY as the environment gives them, lower case first. */
function proxiesOf(env: NodeJS.ProcessEnv): {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
} {
  const pick = (name: string): string => {
    const lower = name.toLowerCase();
    const value = env[lower] ?? env[name] ?? "";
    if (value !== "" && name !== "NO_PROXY" && !isProxyUrl(value))
      throw new InputError(
        `${env[lower] === undefined ? name : lower} is not an http or https URL (expected e.g. http://proxy.example:3128; its value is not shown, it may hold a password); fix it or unset it`,
      );
    return value;
  };
  return {
    httpProxy: pick("HTTP_PROXY"),
    httpsProxy: pick("HTTPS_PROXY"),
    noProxy: pick("NO_PROXY"),
  };
}

/** A fetch whose requests go through `dispatcher`. */
export function createFetch(dispatcher: Dispatcher): FetchLike {
  return async (input, init = {}) => {
    // A Request object, or a body other than text or bytes (FormData, Blob, a stream, URLSearchParams
    // — a batch file upload), is encoded by the platform's own Request first: nothing is dropped.
    if (input instanceof Request || !isPlainBody(init.body))
      return send(...(await encode(input, init, dispatcher)), 0);
    const url = new URL(String(input));
    return send(
      url,
      {
        method: init.method ?? "GET",
        headers: toHeaderObject(init.headers),
        body: toPlainBody(init.body),
        redirect: init.redirect ?? "follow",
        signal: init.signal ?? undefined,
        dispatcher,
        ...limitsOf(init),
      },
      0,
    );
  };
}

/** The caller's limits of one request: its own credential headers (lower-case) and the longest body it reads. */
function limitsOf(init: TransportInit): Pick<Sending, "sensitive" | "maxBytes" | "sameOrigin"> {
  return {
    sensitive: new Set((init.sensitiveHeaders ?? []).map((h) => h.toLowerCase())),
    maxBytes: init.maxBytes ?? Number.POSITIVE_INFINITY,
    sameOrigin: init.sameOrigin === true,
  };
}

/** Any request fetch takes, as bytes with the content type its encoding chose (a multipart boundary, say). */
async function encode(
  input: string | URL | Request,
  init: TransportInit,
  dispatcher: Dispatcher,
): Promise<[URL, Sending]> {
  const request = new Request(input, init);
  const bytes = Buffer.from(await request.arrayBuffer());
  const sending = {
    method: request.method,
    headers: toHeaderObject(request.headers),
    body: bytes.length === 0 ? undefined : bytes,
    redirect: request.redirect,
    signal: init.signal ?? undefined,
    dispatcher,
    ...limitsOf(init),
  };
  return [new URL(request.url), sending];
}

interface Sending {
  method: string;
  headers: Record<string, string>;
  /** Text is written as it is (no copy into a Buffer first); bytes as a Buffer view. */
  body: string | Buffer | undefined;
  redirect: RequestRedirect;
  signal: AbortSignal | undefined;
  dispatcher: Dispatcher;
  /** Lower-case names of the caller's own credential headers. */
  sensitive: ReadonlySet<string>;
  maxBytes: number;
  sameOrigin: boolean;
}

/** Redirects followed at most, as fetch does. */
const MAX_REDIRECTS = 20;

async function send(url: URL, sending: Sending, hops: number): Promise<Response> {
  const { signal } = sending;
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`unsupported protocol ${url.protocol}`);
  if (signal?.aborted === true) throw abortError(signal);
  let response: Dispatcher.ResponseData;
  try {
    const method = sending.method as Dispatcher.HttpMethod;
    response = await undici().request(sending.dispatcher, {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method,
      headers: sending.headers,
      body: sending.body,
      signal,
    });
  } catch (error) {
    throw aborted(signal) ? abortError(signal) : error;
  }
  const status = response.statusCode;
  const location = headerValue(response.headers.location);
  if (REDIRECTS.has(status) && location !== undefined && sending.redirect !== "manual") {
    await response.body.dump();
    if (sending.redirect === "error")
      throw new TypeError(`redirect to ${location} refused (redirect: "error")`);
    if (hops >= MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
    const next = new URL(location, url);
    if (sending.sameOrigin && next.origin !== url.origin)
      throw new CrossOriginRedirect(`redirected to another origin (${next.origin}); not followed`);
    return send(next, redirected(sending, status, url, next), hops + 1);
  }
  let body: Buffer;
  try {
    body = await readBody(response.body, sending.maxBytes);
  } catch (error) {
    throw aborted(signal) ? abortError(signal) : error;
  }
  return toResponse(status, response.headers, body, url, hops);
}

/** Whether the request was cancelled (a function: the flag changes while the request is under way). */
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/** The whole body, or a ResponseTooLarge as soon as it passes `maxBytes` (the rest is not read). */
async function readBody(
  stream: Dispatcher.ResponseData["body"],
  maxBytes: number,
): Promise<Buffer> {
  if (maxBytes === Number.POSITIVE_INFINITY) return Buffer.from(await stream.arrayBuffer());
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw new ResponseTooLarge(`the reply is longer than ${maxBytes} bytes (not read further)`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The next request of a redirect, by the fetch standard: 303 (and 301/302 after a POST) becomes a
 * GET without a body; 307/308 repeat the method and body. Credentials do not follow to another origin.
 */
function redirected(sending: Sending, status: number, from: URL, to: URL): Sending {
  const toGet =
    status === 303
      ? sending.method !== "HEAD"
      : (status === 301 || status === 302) && sending.method === "POST";
  const headers = { ...sending.headers };
  if (toGet)
    for (const key of [
      "content-type",
      "content-length",
      "content-encoding",
      "content-language",
      "content-location",
    ])
      delete headers[key];
  // Credentials stay on their origin: the standard's Authorization, and any header that looks like
  // one or that the caller named as its own (the http endpoint's headers_env).
  if (to.origin !== from.origin)
    for (const name of Object.keys(headers))
      if (CREDENTIAL_HEADER.test(name) || sending.sensitive.has(name)) delete headers[name];
  return {
    ...sending,
    method: toGet ? "GET" : sending.method,
    body: toGet ? undefined : sending.body,
    headers,
  };
}

function isPlainBody(body: RequestInit["body"]): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === "string" ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

function toPlainBody(body: RequestInit["body"]): string | Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

function toHeaderObject(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  // A Headers object (what the SDKs pass) is read as it is; anything else goes through Headers' own rules.
  (headers instanceof Headers ? headers : new Headers(headers)).forEach(
    (value, key) => (out[key] = value),
  );
  return out;
}

function toResponse(
  status: number,
  raw: Record<string, string | string[] | undefined>,
  body: Buffer,
  url: URL,
  hops: number,
): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const empty = status === 204 || status === 304 || body.length === 0;
  const init = { status, statusText: "", headers, url: url.href, redirected: hops > 0 };
  // Read as a Response is (the SDKs type it so); see buffered-response.ts.
  return new BufferedResponse(empty ? null : body, init) as unknown as Response;
}

function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason instanceof Error
    ? signal.reason
    : new DOMException("The operation was aborted.", "AbortError");
}
