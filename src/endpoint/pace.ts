/**
 * Rate limiting is not failure. An endpoint's pace is how many calls it lets run at once: a 429,
 * or a reply whose rate-limit headers say the window is spent, halves it (down to one:
 * multiplicative decrease); after a quiet window — QUIET_MS with no such sign — each success lets
 * one more back in, up to the run's concurrency (additive increase). Every HTTP attempt holds a
 * place while it runs, and the run's limiter (trial/run-loop.ts) follows the pace, so trials wait
 * in the run's queue rather than as attempts in flight.
 */
import type { HeaderReader } from "./retry.js";

export interface Pace {
  /** Waits for a place; call the returned function when the attempt is over. */
  acquire(): Promise<() => void>;
  /** A 429 (or 529): halve the places. */
  rateLimited(): void;
  /** A successful attempt, with its reply's headers when it has them (rate-limit headers are read). */
  succeeded(headers?: HeaderReader): void;
  /** Places now. */
  capacity(): number;
  /** The run's concurrency: what the pace climbs back to. */
  readonly max: number;
}

/** How long the endpoint must go without a rate-limit sign before the pace climbs again, one place per window. */
export const QUIET_MS = 1_000;

/**
 * The providers' remaining-quota headers (OpenAI and compatible hosts: x-ratelimit-remaining-*;
 * Anthropic: anthropic-ratelimit-*-remaining). A value of 0 means the next call would be refused.
 */
const REMAINING_HEADERS = [
  "x-ratelimit-remaining-requests",
  "x-ratelimit-remaining-tokens",
  "anthropic-ratelimit-requests-remaining",
  "anthropic-ratelimit-tokens-remaining",
  "anthropic-ratelimit-input-tokens-remaining",
  "anthropic-ratelimit-output-tokens-remaining",
];

/** Whether a reply's headers say a quota of the window is spent (so a 429 is coming). */
export function quotaSpent(headers: HeaderReader | undefined): boolean {
  if (headers === undefined) return false;
  return REMAINING_HEADERS.some((name) => {
    const value = headers.get(name);
    return value !== null && value.trim() !== "" && Number(value) <= 0;
  });
}

export function createPace(max: number, now: () => number = () => performance.now()): Pace {
  const top = Math.max(1, max);
  let capacity = top;
  let inFlight = 0;
  let lastSign = -Infinity;
  let lastRaise = -Infinity;
  const waiting: (() => void)[] = [];
  const admit = () => {
    while (inFlight < capacity && waiting.length > 0) {
      inFlight += 1;
      waiting.shift()?.();
    }
  };
  const release = () => {
    inFlight -= 1;
    admit();
  };
  const slowDown = () => {
    capacity = Math.max(1, Math.floor(capacity / 2));
    lastSign = now();
  };
  return {
    max: top,
    acquire: () =>
      new Promise((resolve) => {
        waiting.push(() => resolve(release));
        admit();
      }),
    rateLimited: slowDown,
    succeeded: (headers) => {
      if (quotaSpent(headers)) return slowDown();
      const t = now();
      if (capacity < top && t - lastSign >= QUIET_MS && t - lastRaise >= QUIET_MS) {
        capacity += 1;
        lastRaise = t;
        admit();
      }
    },
    capacity: () => capacity,
  };
}
