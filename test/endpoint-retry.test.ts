import { describe, expect, it } from "vitest";
import { backoffDelay, callWithRetries, parseRetryAfter, type AttemptVerdict, type RetryPolicy } from "../src/endpoint/retry.js";

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name.toLowerCase()] ?? null });

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-30T12:00:00Z");
  it("reads seconds, fractional seconds, an HTTP date and retry-after-ms (which wins)", () => {
    expect(parseRetryAfter(headers({ "retry-after": "3" }), now)).toBe(3000);
    expect(parseRetryAfter(headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(headers({ "retry-after": "Mon, 30 Nov 2026 12:00:07 GMT" }), now)).toBe(7000);
    expect(parseRetryAfter(headers({ "retry-after": "Mon, 30 Nov 2026 11:59:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(headers({ "retry-after": "3", "retry-after-ms": "250" }), now)).toBe(250);
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
  function policy(waits: number[], maxRetries = 3): RetryPolicy {
    return { maxRetries, baseMs: 100, maxDelayMs: 10_000, random: () => 0.5, sleep: async (ms) => void waits.push(ms) };
  }
  const classify = (error: unknown): AttemptVerdict =>
    error === "fatal" ? { kind: "fatal", message: "stop" } : { kind: "retryable", message: String(error), retryAfterMs: error === "429" ? 2000 : null };

  it("retries retryable failures with growing waits, then returns the value and the retry count", async () => {
    const waits: number[] = [];
    let n = 0;
    const result = await callWithRetries(async () => (n++ < 2 ? Promise.reject("503") : "ok"), classify, policy(waits));
    expect(result).toEqual({ ok: true, value: "ok", retries: 2 });
    expect(waits).toEqual([50, 100]);
  });

  it("bounds the attempts and says how many were made", async () => {
    const waits: number[] = [];
    let attempts = 0;
    const result = await callWithRetries(() => (attempts++, Promise.reject("429")), classify, policy(waits, 2));
    expect(result).toEqual({ ok: false, kind: "errored", error: "429 (gave up after 3 attempts)", retries: 2 });
    expect(attempts).toBe(3);
    expect(waits).toEqual([2000, 2000]);
  });

  it("never retries a fatal failure", async () => {
    let attempts = 0;
    const result = await callWithRetries(() => (attempts++, Promise.reject("fatal")), classify, policy([]));
    expect(result).toEqual({ ok: false, kind: "fatal", error: "stop", retries: 0 });
    expect(attempts).toBe(1);
  });
});
