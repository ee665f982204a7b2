/**
 * Bounded retries with exponential backoff and full jitter, honouring the server's Retry-After.
 * The SDKs' own retries are switched off (maxRetries: 0), so these are the only ones: each wait
 * and each give-up is ours to count and report.
 */
import type { FailureKind } from "../types.js";

export interface RetryPolicy {
  /** Attempts after the first. */
  maxRetries: number;
  /** Backoff before retry r (0-based) is uniform in [0, min(maxDelayMs, baseMs · 2^r)]. */
  baseMs: number;
  /** Ceiling of one wait, a server's Retry-After included. */
  maxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
}

/** What one failed attempt means. */
export type AttemptVerdict =
  | { kind: "retryable"; message: string; retryAfterMs: number | null }
  | { kind: FailureKind; message: string };

export type RetryResult<T> =
  | { ok: true; value: T; retries: number }
  | { ok: false; kind: FailureKind; error: string; retries: number };

export const DEFAULT_MAX_DELAY_MS = 60_000;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The wait before retry `retry` (0-based): the server's Retry-After when given, else jittered backoff. */
export function backoffDelay(retry: number, retryAfterMs: number | null, policy: Pick<RetryPolicy, "baseMs" | "maxDelayMs" | "random">): number {
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
export function parseRetryAfter(headers: HeaderReader | undefined, now: number = Date.now()): number | null {
  const millis = headers?.get("retry-after-ms");
  if (millis != null && millis.trim() !== "" && Number.isFinite(Number(millis))) return Math.max(0, Number(millis));
  const value = headers?.get("retry-after");
  if (value == null || value.trim() === "") return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Run `attempt` until it succeeds, fails for good, or the retries run out. */
export async function callWithRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => AttemptVerdict,
  policy: RetryPolicy,
): Promise<RetryResult<T>> {
  for (let retry = 0; ; retry++) {
    try {
      return { ok: true, value: await attempt(), retries: retry };
    } catch (error) {
      const verdict = classify(error);
      if (verdict.kind !== "retryable") return { ok: false, kind: verdict.kind, error: verdict.message, retries: retry };
      if (retry >= policy.maxRetries) {
        const attempts = retry + 1;
        return { ok: false, kind: "errored", error: `${verdict.message} (gave up after ${attempts} attempt${attempts === 1 ? "" : "s"})`, retries: retry };
      }
      await policy.sleep(backoffDelay(retry, verdict.retryAfterMs, policy));
    }
  }
}
