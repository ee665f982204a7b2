/**
 * Adaptive concurrency: a local OpenAI-compatible server that lets N requests run at once and
 * answers 429 above that. A run at concurrency 16 follows the endpoint's pace down (the limiter
 * lowers `concurrency` on each 429, and on a reply whose rate-limit headers say the window is
 * spent): far fewer 429s than the same requests at a fixed concurrency of 16 through the official
 * SDK, and no trial errored. Counts only: nothing here is timed.
 */
import OpenAI from "openai";
import pLimit from "p-limit";
import { afterAll, describe, expect, it } from "vitest";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { RunProgress } from "../src/types.js";
import {
  openaiReply,
  useFakeServers,
  type FakeReply,
  type ReceivedRequest,
} from "./fixtures/fake-provider.js";
import { liveConfig, removeTempDirs, TOOLS, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const servers = useFakeServers();

const ROOM = 4;
const ANSWER_MS = 40;
const CASES = Array.from({ length: 16 }, (_, i) => ({
  id: `case-${i}`,
  goal: `Where is order ord_${i}?`,
  acceptable: ["get_order"],
}));

/**
 * A server with ROOM places: a request beyond them is refused with a 429 (retry after 20 ms) — or,
 * `warnOnly`, answered with rate-limit headers that say the window is spent, and no 429 at all.
 */
function roomServer(warnOnly = false) {
  let inFlight = 0;
  let refused = 0;
  const handler = (_request: ReceivedRequest): FakeReply => {
    const spent = inFlight >= ROOM;
    if (spent && !warnOnly) {
      refused += 1;
      return {
        status: 429,
        headers: { "retry-after-ms": "20" },
        body: {
          error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
        },
      };
    }
    inFlight += 1;
    setTimeout(() => (inFlight -= 1), ANSWER_MS);
    const reply = openaiReply([{ name: "get_order", arguments: '{"order_id":"ord_1"}' }]);
    const remaining = { "x-ratelimit-remaining-requests": String(spent ? 0 : ROOM - inFlight) };
    return {
      ...reply,
      delayMs: ANSWER_MS,
      headers: { ...("headers" in reply ? reply.headers : {}), ...remaining },
    };
  };
  return { handler, refused: () => refused };
}

async function runAt16(url: string) {
  const dir = writeProject(TOOLS, CASES);
  const config = liveConfig(dir, {
    endpoint: "openai:m",
    base_url: `${url}/v1`,
    mode: "live",
    concurrency: 16,
    trials: 3,
    retry_budget_ms: 120_000,
    max_retries: 200,
  });
  const progress: RunProgress[] = [];
  const { report } = await runEvaluation(config, {
    env: {},
    now: () => new Date(0),
    onProgress: (p) => progress.push(p),
  });
  return { report, progress };
}

describe("adaptive concurrency under rate limits", () => {
  it("lowers the run's concurrency on 429s: far fewer of them than at a fixed concurrency, and no trial errored", async () => {
    const fixedRoom = roomServer();
    const fixed = await servers.start(fixedRoom.handler);
    const client = new OpenAI({ apiKey: "x", baseURL: `${fixed.url}/v1`, maxRetries: 200 });
    const limit = pLimit(16);
    await Promise.all(
      CASES.flatMap((c) =>
        [0, 1, 2].map(() =>
          limit(() =>
            client.chat.completions.create({
              model: "m",
              messages: [{ role: "user", content: c.goal }],
            }),
          ),
        ),
      ),
    );
    const atFixed = fixedRoom.refused();

    const room = roomServer();
    const server = await servers.start(room.handler);
    const { report, progress } = await runAt16(server.url);
    expect(report.metrics.errored).toBe(0);
    expect(report.metrics.trials).toBe(48);
    expect(atFixed).toBeGreaterThan(48);
    expect(room.refused()).toBeLessThan(atFixed / 3);
    // The progress said so while it was lowered.
    expect(
      progress.some((p) => p.paced !== undefined && p.paced.now < 16 && p.paced.max === 16),
    ).toBe(true);
  }, 120_000);

  it("slows down on rate-limit headers alone, with no 429 at all", async () => {
    const room = roomServer(true);
    const server = await servers.start(room.handler);
    const { report, progress } = await runAt16(server.url);
    expect([report.metrics.errored, room.refused()]).toEqual([0, 0]);
    expect(progress.some((p) => p.paced !== undefined && p.paced.now < 16)).toBe(true);
  }, 120_000);
});
