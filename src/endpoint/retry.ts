/**
 * Retries by time, not by count: exponential backoff with full jitter, honouring the server's
 * Retry-After, until the trial's retry budget is spent. The SDKs' own retries are switched off
 * (maxRetries: 0), so these are the only ones: each wait and each give-up is ours to count and
 * report. Every attempt holds a place of the endpoint's pace (429s slow the run down) and tells
 * its breaker how it went (an endpoint that is down stops the run).
 */
import type { FailureKind } from "../types.js";
import type { Breaker } from "./breaker.js";
import type { Pace } from "./pace.js";

export interface RetryPolicy {
  /** Time one trial may spend on retries, counted from its first attempt. */
  budgetMs: number;
  /** An extra cap on attempts after the first; null = the budget alone decides. */
  maxRetries: number | null;
  /** Backoff before retry r (0-based) is uniform in [0, min(maxDelayMs, baseMs · 2^r)]. */
  baseMs: number;
  /** Ceiling of one wait, a server's Retry-After included. */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  /** Milliseconds clock. */
  now: () => number;
}

/** The endpoint's shared state: its pace (rate limits) and its breaker (outages). */
export interface CallGuards {
  pace: Pace;
  breaker: Breaker;
}

/** Why an attempt may be retried: a rate limit slows the run; anything else counts towards the breaker. */
export type RetryCause = "rate_limit" | "transport";

/** What one failed attempt means. */
export type AttemptVerdict =
  | { kind: "retryable"; cause: RetryCause; message: string; retryAfterMs: number | null }
  | { kind: FailureKind; message: string };

export type RetryResult<T> =
  | { ok: true; value: T; retries: number }
  | { ok: false; kind: FailureKind; error: string; retries: number };

export const DEFAULT_MAX_DELAY_MS = 60_000;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The wait before retry `retry` (0-based): the server's Retry-After when given, else jittered backoff. */
export function backoffDelay(
  retry: number,
  retryAfterMs: number | null,
  policy: Pick<RetryPolicy, "baseMs" | "maxDelayMs" | "random">,
): number {
  if (retryAfterMs !== null) return Math.min(Math.max(0, retryAfterMs), policy.maxDelayMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** retry);
  return Math.floor(policy.random() * ceiling);
}

/** Response headers as both SDKs expose them. */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Milliseconds the server asked us to wait: `retry-after-ms`, else `Retry-After` as seconds or
 * as an HTTP date (relative to `now`); null when absent or unreadable.
 */
export function parseRetryAfter(
  headers: HeaderReader | undefined,
  now: number = Date.now(),
): number | null {
  const millis = headers?.get("retry-after-ms");
  if (millis != null && millis.trim() !== "" && Number.isFinite(Number(millis)))
    return Math.max(0, Number(millis));
  const value = headers?.get("retry-after");
  if (value == null || value.trim() === "") return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Run `attempt` until it succeeds, fails for good, the budget is spent, or the breaker trips. */
export async function callWithRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => AttemptVerdict,
  policy: RetryPolicy,
  guards: CallGuards,
  /** The headers of a successful attempt's reply (its rate-limit headers pace the endpoint). */
  headersOf?: (value: T) => HeaderReader | undefined,
): Promise<RetryResult<T>> {
  const started = policy.now();
  for (let retry = 0; ; retry++) {
    const down = guards.breaker.tripped();
    if (down !== null) return { ok: false, kind: "fatal", error: down, retries: retry };
    const release = await guards.pace.acquire();
    let verdict: AttemptVerdict;
    try {
      const value = await attempt();
      guards.pace.succeeded(headersOf?.(value));
      guards.breaker.success();
      return { ok: true, value, retries: retry };
    } catch (error) {
      verdict = classify(error);
    } finally {
      release();
    }
    if (verdict.kind !== "retryable")
      return { ok: false, kind: verdict.kind, error: verdict.message, retries: retry };
    if (verdict.cause === "rate_limit") guards.pace.rateLimited();
    // A call whose first attempt failed (a hang, a reset) but whose retry succeeds says the
    // endpoint is up: the breaker counts a call's failures from its second failed attempt on.
    else if (retry > 0) guards.breaker.failure(verdict.message);
    else guards.breaker.suspect();
    const tripped = guards.breaker.tripped();
    if (tripped !== null) return { ok: false, kind: "fatal", error: tripped, retries: retry };
    // A retry wakes when the breaker's window closes at the latest, so a dead endpoint is
    // stopped within the window (a long backoff would otherwise push it past).
    const closes = verdict.cause === "rate_limit" ? null : guards.breaker.closesAt();
    const backoff = backoffDelay(retry, verdict.retryAfterMs, policy);
    const delay =
      closes === null ? backoff : Math.min(backoff, Math.max(0, closes - policy.now()) + 1);
    const spent = policy.now() - started;
    if (
      (policy.maxRetries !== null && retry >= policy.maxRetries) ||
      spent + delay > policy.budgetMs
    ) {
      const attempts = retry + 1;
      const over = `gave up after ${attempts} attempt${attempts === 1 ? "" : "s"} in ${(spent / 1000).toFixed(1)} s`;
      return { ok: false, kind: "errored", error: `${verdict.message} (${over})`, retries: retry };
    }
    await policy.sleep(delay);
  }
}
