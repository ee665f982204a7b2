/**
 * Runs against a local OpenAI-compatible server that fails the way providers fail, through the
 * real SDK and the real CLI: storms of 429/5xx are ridden out, unreadable replies are retried, an
 * endpoint that is down stops the run (exit 3, the resume command), and a resume after the server
 * returns scores every trial once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  offeredTools,
  openaiError,
  openaiReply,
  type FakeReply,
  type ReceivedRequest,
  useFakeServers,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);

const ENV = { OPENAI_API_KEY: "sk-test-outage-0123456789" };
const servers = useFakeServers();

const good = (request: ReceivedRequest): FakeReply =>
  openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]);

/** A seeded coin, so a storm is the same on every run of the test. */
function coin(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

function args(url: string, ...extra: string[]): string[] {
  return [
    "run",
    "-e",
    "openai:test-model",
    "--base-url",
    `${url}/v1`,
    "--mode",
    "live",
    "--no-progress",
    "--no-gates",
    "--no-step-summary",
    "--retry-base-ms",
    "2",
    "--timeout-ms",
    "1000",
    "-f",
    "json",
    ...extra,
  ];
}

async function run(dir: string, url: string, ...extra: string[]) {
  const result = await runCli(args(url, ...extra), { cwd: dir, env: ENV });
  return {
    ...result,
    report: result.code === 0 || result.code === 1 ? JSON.parse(result.stdout) : null,
  };
}

describe("storms", () => {
  for (const [rate, seed] of [
    [0.3, 7],
    [0.6, 11],
  ] as const) {
    it(`${rate * 100}% 429/5xx (with Retry-After on some 429s): every trial scored, none errored`, async () => {
      const flip = coin(seed);
      const server = await servers.start((request) => {
        const r = flip();
        if (r < rate / 2)
          return openaiError(429, "rate limited", r < rate / 6 ? { "retry-after-ms": "5" } : {});
        if (r < rate) return openaiError(r < rate * 0.75 ? 500 : 503, "overloaded");
        return good(request);
      });
      const dir = writeProject();
      const { code, report, stderr } = await run(
        dir,
        server.url,
        "--trials",
        "8",
        "--concurrency",
        "8",
      );
      expect(code, stderr).toBe(0);
      expect([report.metrics.trials, report.errored.length]).toEqual([24, 0]);
    }, 60_000);
  }

  it("unreadable replies are retried: cut-off bodies, JSON without choices, not JSON, HTML 502 pages, resets", async () => {
    const faults: FakeReply[] = [
      { cut: { id: "x", choices: [{ message: { role: "assistant", content: "partial" } }] } },
      { status: 200, body: { id: "chatcmpl-x", object: "chat.completion" } },
      { raw: '{"id": "chatcmpl-x", "choi' },
      { status: 502, raw: "<html><body>Bad Gateway</body></html>", contentType: "text/html" },
      { status: 200, raw: "<html><body>maintenance</body></html>", contentType: "text/html" },
      { reset: true },
    ];
    const flip = coin(3);
    const server = await servers.start((request) =>
      flip() < 0.4 ? faults[Math.floor(flip() * faults.length)] : good(request),
    );
    const dir = writeProject();
    const { code, report, stderr } = await run(dir, server.url, "--trials", "6");
    expect(code, stderr).toBe(0);
    expect([report.metrics.trials, report.errored.length]).toEqual([18, 0]);
  }, 60_000);
});

describe("an endpoint that is down", () => {
  it("down from the start: exit 3 naming the endpoint and the last failure, with the resume command; nothing scored as wrong", async () => {
    const server = await servers.start(() => openaiError(503, "upstream unavailable"));
    const dir = writeProject();
    const { code, stderr } = await run(dir, server.url, "--run-id", "down");
    expect(code).toBe(3);
    expect(stderr).toContain("openai:test-model at ");
    expect(stderr).toContain(
      "looks down: no call of the run has succeeded, and 20 retries failed (last: HTTP 503: upstream unavailable)",
    );
    expect(stderr).toContain(`--resume ${join(dir, "reports", "down")}`);
    expect(readFileSync(join(dir, "reports", "down", "records.jsonl"), "utf8")).toBe("");
  }, 90_000);

  it("hangs on 1 request in 4: each hung call recovers on its retry, so the run finishes with every trial recorded", async () => {
    let served = 0;
    // Every fourth request hangs past the attempt timeout (longer than the breaker window).
    const server = await servers.start((request) =>
      ++served % 4 === 0 ? { hang: true } : good(request),
    );
    const dir = writeProject();
    const { code, stderr, report } = await run(
      dir,
      server.url,
      "--trials",
      "10",
      "--timeout-ms",
      "300",
      "--breaker-window-ms",
      "200",
      "--concurrency",
      "4",
    );
    expect(code, stderr).toBe(0);
    expect([report.metrics.trials, report.errored.length]).toEqual([30, 0]);
    expect(server.requests.length).toBeGreaterThan(30);
  }, 60_000);

  it("dies mid-run: exit 3 within the breaker window; a resume after it returns scores every trial once", async () => {
    let alive = true;
    let served = 0;
    const server = await servers.start((request) => {
      if (alive && served++ >= 10) alive = false;
      return alive ? good(request) : { reset: true };
    });
    const dir = writeProject();
    const { code, stderr } = await run(
      dir,
      server.url,
      "--run-id",
      "dies",
      "--trials",
      "10",
      "--breaker-window-ms",
      "1500",
    );
    expect(code).toBe(3);
    expect(stderr).toMatch(
      /looks down: no call has succeeded for [\d.]+ s while \d+ attempts failed \(last: connection failed/,
    );
    const runDir = join(dir, "reports", "dies");
    expect(stderr).toContain(`--resume ${runDir}`);
    alive = true;
    served = -10_000;
    const resumed = await runCli(
      [
        "run",
        "--resume",
        runDir,
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "-f",
        "json",
        "--base-url",
        `${server.url}/v1`,
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect([report.metrics.trials, report.errored.length]).toEqual([30, 0]);
    const lines = readFileSync(join(runDir, "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(new Set(lines.map((r) => `${r.case_id}#${r.trial}`)).size).toBe(lines.length);
  }, 60_000);

  it("422 on every request: exit 3 once the first six are refused alike, not a whole run of errored trials", async () => {
    const server = await servers.start(() => openaiError(422, "tools: unsupported schema"));
    const dir = writeProject();
    const { code, stderr } = await run(dir, server.url, "--trials", "5");
    expect(code).toBe(3);
    expect(stderr).toContain(
      "every one of the first 6 trials was rejected alike: the request was rejected (HTTP 422: tools: unsupported schema); check that model",
    );
    expect(server.requests.length).toBeLessThan(15); // 3 cases × 5 trials: stopped before asking them all
  });
});
