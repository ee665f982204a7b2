/**
 * One failed HTTP attempt → retry, record the trial as errored, or stop the run. The wording of
 * a run-stopping failure says what to fix. Both SDKs' errors are first reduced to ApiFailure.
 */
import { parseRetryAfter, type AttemptVerdict, type HeaderReader } from "./retry.js";

/** What the provider modules read off their SDK's error; `detail` is already redacted. */
export type ApiFailure =
  | { type: "http"; status: number; headers: HeaderReader | undefined; detail: string }
  | { type: "timeout" }
  | { type: "connection"; detail: string }
  /** A reply that arrived but cannot be read: cut off, not JSON, an HTML page, the wrong shape. */
  | { type: "malformed"; detail: string }
  | { type: "other"; detail: string };

/** What a failure message may name. */
export interface FailureContext {
  /** `openai:gpt-4.1-mini` */
  endpoint: string;
  model: string;
  baseUrl: string;
  /** The variable the key came from (null: the provider takes none, a local host), and whether it was set. */
  keyVariable: string | null;
  keySet: boolean;
  /** Whether the variable is the provider's default (else it came from --api-key-env). */
  keyVariableIsDefault: boolean;
  timeoutMs: number;
  /** `case "x" trial 2` */
  where: string;
}

const RETRYABLE_STATUS: ReadonlySet<number> = new Set([408, 409, 429]);

/** Errors a reply that cannot be parsed raises inside an SDK (cut-off or non-JSON body). */
export function isUnreadableBody(error: unknown): boolean {
  return (
    error instanceof SyntaxError ||
    (error instanceof Error && /\bterminated\b|premature close|unexpected end/i.test(error.message))
  );
}

export function classifyApiFailure(failure: ApiFailure, ctx: FailureContext): AttemptVerdict {
  switch (failure.type) {
    case "timeout":
      return {
        kind: "retryable",
        cause: "transport",
        message: `timed out after ${ctx.timeoutMs} ms`,
        retryAfterMs: null,
      };
    case "connection":
      return {
        kind: "retryable",
        cause: "transport",
        message: `connection failed: ${failure.detail}`,
        retryAfterMs: null,
      };
    case "malformed":
      return {
        kind: "retryable",
        cause: "transport",
        message: `unreadable reply: ${failure.detail}`,
        retryAfterMs: null,
      };
    case "other":
      return { kind: "errored", message: failure.detail };
    case "http":
      return classifyStatus(failure.status, failure.detail, failure.headers, ctx);
  }
}

function classifyStatus(
  status: number,
  detail: string,
  headers: HeaderReader | undefined,
  ctx: FailureContext,
): AttemptVerdict {
  const message = `HTTP ${status}: ${detail}`;
  if (status === 429)
    return {
      kind: "retryable",
      cause: "rate_limit",
      message,
      retryAfterMs: parseRetryAfter(headers),
    };
  if (RETRYABLE_STATUS.has(status) || status >= 500)
    return {
      kind: "retryable",
      cause: "transport",
      message,
      retryAfterMs: parseRetryAfter(headers),
    };
  if (status === 400 || status === 422) {
    // A property of this trial's request (local servers answer 400 for one prompt over their
    // context): the trial errors with the reason, and the run goes on. When every request is
    // rejected alike, the trial loop stops the run (trial/run-loop.ts).
    const why = OVER_CONTEXT.test(detail)
      ? "the prompt exceeds the model's context"
      : "the request was rejected";
    return {
      kind: "errored",
      message: `${why} (${message}); check that model "${ctx.model}" supports tool calling and accepts --temperature and --max-tokens as set`,
    };
  }
  const fatal = describeFatal(status, detail, ctx);
  return fatal === null ? { kind: "errored", message } : { kind: "fatal", message: fatal };
}

/** An errored trial whose request the endpoint refused (400/422): what the trial loop watches for a refusal of every request. */
export const REJECTION =
  /^(the prompt exceeds the model's context|the request was rejected) \(HTTP 4\d\d/;

/** How servers word a prompt longer than the model's context (OpenAI, vLLM, llama.cpp, Ollama, Anthropic). */
const OVER_CONTEXT =
  /context[ _-]?(length|window|size)|maximum context|too (long|many tokens)|exceeds? the (available )?context|prompt is too long|n_ctx|input length/i;

/** The message of an error and of its causes: "Connection error. (read ECONNRESET)". */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error; e instanceof Error && parts.length < 3; e = e.cause)
    parts.push(e.message);
  return parts.length === 0 ? String(error) : parts.join(" (") + ")".repeat(parts.length - 1);
}

/** The run-stopping 4xx, each with what to fix; null for a 4xx that only concerns this request. */
function describeFatal(status: number, detail: string, ctx: FailureContext): string | null {
  const head = `${ctx.endpoint} answered HTTP ${status} (${detail})`;
  const other = ctx.keyVariableIsDefault ? `, or name another variable with --api-key-env` : "";
  switch (status) {
    case 401:
      if (ctx.keyVariable === null)
        return `${head}: the server asks for an API key, and this endpoint sends none by default; name the variable that holds it with --api-key-env`;
      return ctx.keySet
        ? `${head}: the API key in ${ctx.keyVariable} was rejected; set ${ctx.keyVariable} to a valid key${other}`
        : `${head}: no API key was sent because ${ctx.keyVariable} is not set; export ${ctx.keyVariable}${other}`;
    case 403:
      return `${head}: the key${ctx.keyVariable === null ? "" : ` in ${ctx.keyVariable}`} may not use model "${ctx.model}"; check the key's project and permissions, or choose another --model`;
    case 404:
      return `${head}: model "${ctx.model}" or the API path was not found at ${ctx.baseUrl}; check --model and --base-url (an OpenAI-compatible server's base URL usually ends in /v1)`;
    default:
      return null;
  }
}
