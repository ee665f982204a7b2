/**
 * A lean `fetch` for the provider SDKs, over node:http(s) with a keep-alive agent. The SDKs accept
 * a custom fetch; Node's built-in one (undici) costs about a millisecond of main-thread CPU per
 * request, which at 32 requests in flight is most of route-eval's own time. This one does what
 * the SDKs use: a request with headers and a string body, the status, headers and the whole body
 * back, and an AbortSignal (the SDKs' timeouts) that cancels the request.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

const httpAgent = new HttpAgent({ keepAlive: true });
const httpsAgent = new HttpsAgent({ keepAlive: true });

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const leanFetch: FetchLike = (input, init = {}) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.protocol !== "http:" && url.protocol !== "https:") return Promise.reject(new TypeError(`unsupported protocol ${url.protocol}`));
  const signal = init.signal ?? undefined;
  if (signal?.aborted === true) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const secure = url.protocol === "https:";
    const send = secure ? httpsRequest : httpRequest;
    const options = { method: init.method ?? "GET", headers: toHeaderObject(init.headers), agent: secure ? httpsAgent : httpAgent };
    const request = send(url, options, (response) => {
      readBody(response).then((body) => resolve(toResponse(response, body)), reject);
    });
    const onAbort = () => {
      request.destroy();
      reject(abortError(signal));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => reject(error));
    request.on("close", () => signal?.removeEventListener("abort", onAbort));
    request.end(typeof init.body === "string" ? init.body : undefined);
  });
};

function toHeaderObject(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, key) => (out[key] = value));
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

function toResponse(response: IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(", ") : value);
  }
  const status = response.statusCode ?? 502;
  const empty = status === 204 || status === 304 || body.length === 0;
  return new Response(empty ? null : new Uint8Array(body), { status, statusText: response.statusMessage ?? "", headers });
}

function abortError(signal: AbortSignal | undefined): unknown {
  return signal?.reason instanceof Error ? signal.reason : new DOMException("The operation was aborted.", "AbortError");
}
