/**
 * A lean `fetch` for the provider SDKs, over node:http(s) with a keep-alive agent. The SDKs accept
 * a custom fetch; Node's built-in one (undici) costs about a millisecond of main-thread CPU per
 * request, which at 32 requests in flight is most of route-eval's own time. This one does what
 * the SDKs use: a request with headers and a text or byte body, redirects as fetch follows them,
 * the status, headers and the whole body back, and an AbortSignal (the SDKs' timeouts) that
 * cancels the request. Any other body (FormData, Blob, a stream) is handed to Node's own fetch.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { BufferedResponse } from "./buffered-response.js";

const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const leanFetch: FetchLike = (input, init = {}) => {
  // A Request object, or a body other than text or bytes (FormData, Blob, a stream, URLSearchParams
  // — a batch file upload), goes to Node's own fetch, which encodes every kind: nothing is dropped.
  if (input instanceof Request || !isPlainBody(init.body)) return fetch(input, init);
  const url = new URL(String(input));
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const signal = init.signal ?? undefined;
  if (signal?.aborted === true) return Promise.reject(abortError(signal));
  return send(url, { method: init.method ?? "GET", headers: toHeaderObject(init.headers), body: toPlainBody(init.body), redirect: init.redirect ?? "follow", signal }, 0);
};

interface Sending {
  method: string;
  headers: Record<string, string>;
  /** Text is written as it is (no copy into a Buffer first); bytes as a Buffer view. */
  body: string | Buffer | undefined;
  redirect: RequestRedirect;
  signal: AbortSignal | undefined;
}

/** Redirects followed at most, as fetch does. */
const MAX_REDIRECTS = 20;

function send(url: URL, sending: Sending, hops: number): Promise<Response> {
  const { signal } = sending;
  return new Promise((resolve, reject) => {
    const secure = url.protocol === "https:";
    const request = (secure ? httpsRequest : httpRequest)(url, { method: sending.method, headers: sending.headers, agent: secure ? httpsAgent : httpAgent }, (response) => {
      const location = response.headers.location;
      if (REDIRECTS.has(response.statusCode ?? 0) && location !== undefined && sending.redirect !== "manual") {
        response.resume();
        if (sending.redirect === "error") return reject(new TypeError(`redirect to ${location} refused (redirect: "error")`));
        if (hops >= MAX_REDIRECTS) return reject(new TypeError(`more than ${MAX_REDIRECTS} redirects`));
        return resolve(send(new URL(location, url), redirected(sending, response.statusCode ?? 0, url, new URL(location, url)), hops + 1));
      }
      readBody(response).then((body) => resolve(toResponse(response, body, url, hops)), reject);
    });
    const onAbort = () => {
      request.destroy();
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => reject(error));
    request.on("close", () => signal?.removeEventListener("abort", onAbort));
    request.end(sending.body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The next request of a redirect, by the fetch standard: 303 (and 301/302 after a POST) becomes a
 * GET without a body; 307/308 repeat the method and body. Credentials do not follow to another origin.
 */
function redirected(sending: Sending, status: number, from: URL, to: URL): Sending {
  const toGet = status === 303 ? sending.method !== "HEAD" : (status === 301 || status === 302) && sending.method === "POST";
  const headers = { ...sending.headers };
  if (toGet) for (const key of ["content-type", "content-length", "content-encoding", "content-language", "content-location"]) delete headers[key];
  if (to.origin !== from.origin) delete headers.authorization;
  return { ...sending, method: toGet ? "GET" : sending.method, body: toGet ? undefined : sending.body, headers };
}

function isPlainBody(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body);
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
  (headers instanceof Headers ? headers : new Headers(headers)).forEach((value, key) => (out[key] = value));
  return out;
}

function readBody(response: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on("data", (chunk: Buffer) => chunks.push(chunk));
    response.on("end", () => resolve(Buffer.concat(chunks)));
    response.on("error", reject);
  });
}

function toResponse(response: IncomingMessage, body: Buffer, url: URL, hops: number): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const status = response.statusCode ?? 502;
  const empty = status === 204 || status === 304 || body.length === 0;
  const init = { status, statusText: response.statusMessage ?? "", headers, url: url.href, redirected: hops > 0 };
  // Read as a Response is (the SDKs type it so); see buffered-response.ts.
  return new BufferedResponse(empty ? null : body, init) as unknown as Response;
}

function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}
