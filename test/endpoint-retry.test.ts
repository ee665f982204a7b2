import { describe, expect, it } from "vitest";
import { createBreaker, START_FAILURES } from "../src/endpoint/breaker.js";
import { createPace, QUIET_MS } from "../src/endpoint/pace.js";
import {
  backoffDelay,
  callWithRetries,
  parseRetryAfter,
  type AttemptVerdict,
  type RetryPolicy,
} from "../src/endpoint/retry.js";

const headers = (values: Record<string, string>) => ({
  get: (name: string) => values[name.toLowerCase()] ?? null,
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-30T12:00:00Z");
  it("reads seconds, fractional seconds, an HTTP date and retry-after-ms (which wins)", () => {
    expect(parseRetryAfter(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after": "Mon, 30 Nov 2026 12:00:07 GMT" }), now)).toBe(
      7000,
    );
    expect(parseRetryAfter(headers({ "retry-after": "Mon, 30 Nov 2026 11:59:00 GMT" }), now)).toBe(
      0,
    );
    expect(parseRetryAfter(headers({ "retry-after": "3", "retry-after-ms": "250" }), now)).toBe(
      250,
    );
  });
  it("is null when absent or unreadable", () => {
    expect(parseRetryAfter(headers({}), now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(headers({ "retry-after": "soon" }), now)).toBeNull();
  });
});

describe("backoffDelay", () => {
  const policy = { baseMs: 100, maxDelayMs: 1000 };
  it("grows exponentially with full jitter, capped", () => {
    expect(backoffDelay(0, null, { ...policy, random: () => 0.999 })).toBe(99);
    expect(backoffDelay(3, null, { ...policy, random: () => 0.5 })).toBe(400);
    expect(backoffDelay(10, null, { ...policy, random: () => 0.999 })).toBe(999);
    expect(backoffDelay(2, null, { ...policy, random: () => 0 })).toBe(0);
  });
  it("uses the server's Retry-After instead, up to the cap", () => {
    expect(backoffDelay(0, 700, { ...policy, random: () => 0 })).toBe(700);
    expect(backoffDelay(0, 5000, { ...policy, random: () => 0 })).toBe(1000);
  });
});

describe("callWithRetries", () => {
  /** A fake clock that only sleeping advances. */
  function setup(
    options: { budgetMs?: number; maxRetries?: number | null; windowMs?: number } = {},
  ) {
    const clock = { t: 0 };
    const waits: number[] = [];
    const policy: RetryPolicy = {
      budgetMs: options.budgetMs ?? 10_000,
      maxRetries: options.maxRetries ?? null,
      baseMs: 100,
      maxDelayMs: 10_000,
      random: () => 0.5,
      now: () => clock.t,
      sleep: async (ms) => {
        waits.push(ms);
        clock.t += ms;
      },
    };
    const guards = {
      pace: createPace(8),
      breaker: createBreaker("test", {
        windowMs: options.windowMs ?? 60_000,
        startFailures: START_FAILURES,
        now: () => clock.t,
      }),
    };
    return { policy, guards, waits, clock };
  }
  const classify = (error: unknown): AttemptVerdict =>
    error === "fatal"
      ? { kind: "fatal", message: "stop" }
      : {
          kind: "retryable",
          cause: error === "429" ? "rate_limit" : "transport",
          message: String(error),
          retryAfterMs: error === "429" ? 2000 : null,
        };

  it("retries retryable failures with growing waits, then returns the value and the retry count", async () => {
    const { policy, guards, waits } = setup();
    let n = 0;
    const result = await callWithRetries(
      async () => (n++ < 2 ? Promise.reject("503") : "ok"),
      classify,
      policy,
      guards,
    );
    expect(result).toEqual({ ok: true, value: "ok", retries: 2 });
    expect(waits).toEqual([50, 100]);
  });

  it("retries by time: gives up once the next wait would overrun the budget, saying how many attempts in how long", async () => {
    const { policy, guards, waits } = setup({ budgetMs: 7_000 });
    let attempts = 0;
    const result = await callWithRetries(
      () => (attempts++, Promise.reject("429")),
      classify,
      policy,
      guards,
    );
    expect(result).toEqual({
      ok: false,
      kind: "errored",
      error: "429 (gave up after 4 attempts in 6.0 s)",
      retries: 3,
    });
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it("keeps an explicit max_retries cap as well", async () => {
    const { policy, guards } = setup({ maxRetries: 1 });
    let attempts = 0;
    const result = await callWithRetries(
      () => (attempts++, Promise.reject("503")),
      classify,
      policy,
      guards,
    );
    expect(result.ok).toBe(false);
    expect(attempts).toBe(2);
  });

  it("never retries a fatal failure", async () => {
    const { policy, guards } = setup();
    let attempts = 0;
    const result = await callWithRetries(
      () => (attempts++, Promise.reject("fatal")),
      classify,
      policy,
      guards,
    );
    expect(result).toEqual({ ok: false, kind: "fatal", error: "stop", retries: 0 });
    expect(attempts).toBe(1);
  });

  it("stops the run (fatal) when the first attempts of the run all fail with transport errors", async () => {
    const { policy, guards } = setup({ budgetMs: 10 ** 9, windowMs: 10 ** 9 });
    let attempts = 0;
    const result = await callWithRetries(
      () => (attempts++, Promise.reject("ECONNREFUSED")),
      classify,
      policy,
      guards,
    );
    expect(result.ok === false && result.kind).toBe("fatal");
    // The call's first attempt, then START_FAILURES retries that failed too.
    expect(attempts).toBe(START_FAILURES + 1);
    expect(result.ok === false && result.error).toBe(
      `test looks down: no call of the run has succeeded, and ${START_FAILURES} retries failed (last: ECONNREFUSED)`,
    );
    // every later call stops at once, without an attempt
    const later = await callWithRetries(
      () => (attempts++, Promise.resolve("ok")),
      classify,
      policy,
      guards,
    );
    expect(later.ok === false && later.kind).toBe("fatal");
    expect(attempts).toBe(START_FAILURES + 1);
  });

  it("stops the run when no call has succeeded for the window after the endpoint worked", async () => {
    const { policy, guards } = setup({ budgetMs: 10 ** 9, windowMs: 5_000 });
    expect((await callWithRetries(async () => "ok", classify, policy, guards)).ok).toBe(true);
    const result = await callWithRetries(
      () => Promise.reject("HTTP 503"),
      classify,
      policy,
      guards,
    );
    expect(result.ok === false && result.kind).toBe("fatal");
    expect(result.ok === false && result.error).toMatch(
      /^test looks down: no call has succeeded for [\d.]+ s while \d+ attempts failed \(last: HTTP 503\)$/,
    );
  });

  it("never trips on rate limits: 429s halve the pace instead (down to one), and a success right after does not raise it", async () => {
    const { policy, guards } = setup({ budgetMs: 10 ** 9 });
    let n = 0;
    const result = await callWithRetries(
      async () => (n++ < 40 ? Promise.reject("429") : "ok"),
      classify,
      policy,
      guards,
    );
    expect(result.ok).toBe(true);
    expect(guards.breaker.tripped()).toBeNull();
    expect(guards.pace.capacity()).toBe(1);
  });

  it("the pace: halved by a 429 or a spent quota header, raised one place per quiet window after", () => {
    const clock = { t: 0 };
    const pace = createPace(8, () => clock.t);
    const headers = (values: Record<string, string>) => ({
      get: (name: string) => values[name] ?? null,
    });
    pace.rateLimited();
    pace.rateLimited();
    expect(pace.capacity()).toBe(2);
    pace.succeeded();
    expect(pace.capacity()).toBe(2);
    clock.t = QUIET_MS - 1;
    pace.succeeded(headers({ "x-ratelimit-remaining-requests": "12" }));
    expect(pace.capacity()).toBe(2);
    clock.t = QUIET_MS;
    pace.succeeded();
    pace.succeeded();
    expect(pace.capacity()).toBe(3);
    clock.t = 2 * QUIET_MS;
    pace.succeeded(headers({ "anthropic-ratelimit-requests-remaining": "0" }));
    expect(pace.capacity()).toBe(1);
    pace.succeeded(headers({ "x-ratelimit-remaining-tokens": "0" }));
    expect(pace.capacity()).toBe(1);
    for (let window = 3; window < 20; window++) {
      clock.t = window * QUIET_MS;
      pace.succeeded();
    }
    expect([pace.capacity(), pace.max]).toEqual([8, 8]);
  });
});
