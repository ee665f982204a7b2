/**
 * The `http` endpoint: a team's agent service. Each trial's request (protocol
 * route-eval-endpoint/1, as the `command` endpoint's) is POSTed as JSON to one URL; the response
 * body is the reply. Headers come from environment variables only. Retries, the pace and the
 * breaker are the provider endpoints': 429 (Retry-After honoured), 408/409/5xx, resets, timeouts
 * and cut-off bodies are retried; 401/403/404 stop the run; another 4xx errors the trial.
 */
import { maskSecrets, redactUrl, urlSecrets } from "../text/redact-url.js";
import { describeError, isUnreadableBody } from "./http-failure.js";
import { CrossOriginRedirect, ResponseTooLarge, type FetchLike } from "./http-transport.js";
import { MAX_REPLY_BYTES } from "./command.js";
import {
  AgentError,
  checkNeutralReply,
  normaliseNeutralReply,
  ProtocolError,
  renderNeutralRequest,
  type NeutralControls,
  type NeutralRequest,
} from "./neutral-wire.js";
import { parseRetryAfter, type AttemptVerdict } from "./retry.js";
import type { WireEndpoint } from "./wire-endpoint.js";

export interface HttpSettings {
  url: string;
  version: string | null;
  model: string;
  headers: Record<string, string>;
  timeoutMs: number;
  controls: NeutralControls;
  /** The run's transport (http-transport.ts). */
  fetch: FetchLike;
}

class HttpStatus extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    detail: string,
  ) {
    super(`HTTP ${status}: ${detail}`);
  }
}

class HttpTimeout extends Error {}

export function createHttpWire(settings: HttpSettings): WireEndpoint<NeutralRequest> {
  const shown = redactUrl(settings.url);
  const secrets = [...Object.values(settings.headers), ...urlSecrets(settings.url)].filter(
    (s) => s.length >= 4,
  );
  const label = `endpoint http at ${shown}`;
  return {
    id: "http",
    model: settings.model,
    baseUrl: shown,
    unavailable: null,
    render: (request) => renderNeutralRequest(request, settings.controls, settings.version),
    send: async (body) => {
      const started = performance.now();
      const signal = AbortSignal.timeout(settings.timeoutMs);
      let response: Response;
      try {
        response = await settings.fetch(settings.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json",
            ...settings.headers,
          },
          // Not the sorted text the store key was written from: the protocol's key order (renderings
          // in their documented order) is what a user's agent sees.
          body: JSON.stringify(body),
          signal,
          // Its headers_env values are its own credentials: they never follow a redirect to another origin.
          sensitiveHeaders: Object.keys(settings.headers),
          maxBytes: MAX_REPLY_BYTES,
          // A service that sends the trial to another origin is not the endpoint under test:
          // nothing is sent there, and the trial errors.
          sameOrigin: true,
        });
      } catch (error) {
        if (signal.aborted) throw new HttpTimeout(`timed out after ${settings.timeoutMs} ms`);
        throw error;
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        if (signal.aborted)
          throw new HttpTimeout(`timed out after ${settings.timeoutMs} ms reading the body`);
        throw error;
      }
      if (!response.ok)
        throw new HttpStatus(
          response.status,
          response.headers,
          maskSecrets(text.slice(0, 200).replace(/\s+/g, " "), secrets),
        );
      const reply: unknown = JSON.parse(text); // a cut-off or non-JSON body: SyntaxError, retried
      checkNeutralReply(reply, "the response body");
      return {
        body: reply,
        request_id: response.headers.get("x-request-id"),
        latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
        headers: response.headers,
      };
    },
    normalise: normaliseNeutralReply,
    classify: (error, where) => classifyHttpFailure(error, where, label, secrets),
  };
}

function classifyHttpFailure(
  error: unknown,
  where: string,
  label: string,
  secrets: string[],
): AttemptVerdict {
  if (error instanceof HttpStatus) {
    if (error.status === 429)
      return {
        kind: "retryable",
        cause: "rate_limit",
        message: error.message,
        retryAfterMs: parseRetryAfter(error.headers),
      };
    if (error.status === 408 || error.status === 409 || error.status >= 500)
      return {
        kind: "retryable",
        cause: "transport",
        message: error.message,
        retryAfterMs: parseRetryAfter(error.headers),
      };
    if (error.status === 401 || error.status === 403)
      return {
        kind: "fatal",
        message: `${label} answered ${error.message}: check the headers it needs (headers_env) and their variables`,
      };
    if (error.status === 404)
      return {
        kind: "fatal",
        message: `${label} answered ${error.message}: check base_url, the URL each trial is POSTed to`,
      };
    return { kind: "errored", message: `${label} answered ${error.message} (${where})` };
  }
  if (error instanceof HttpTimeout)
    return { kind: "retryable", cause: "transport", message: error.message, retryAfterMs: null };
  if (error instanceof CrossOriginRedirect)
    return {
      kind: "errored",
      message: `${label}: ${maskSecrets(error.message, secrets)} — POST to the service's own URL (base_url) (${where})`,
    };
  if (error instanceof ResponseTooLarge)
    return {
      kind: "errored",
      message: `${label}: ${error.message}; a reply is one small JSON object (${where})`,
    };
  if (error instanceof ProtocolError || error instanceof AgentError)
    return { kind: "errored", message: `${label}: ${error.message} (${where})` };
  const detail = maskSecrets(describeError(error), secrets);
  if (isUnreadableBody(error))
    return {
      kind: "retryable",
      cause: "transport",
      message: `unreadable reply: ${detail}`,
      retryAfterMs: null,
    };
  return {
    kind: "retryable",
    cause: "transport",
    message: `connection failed: ${detail}`,
    retryAfterMs: null,
  };
}
