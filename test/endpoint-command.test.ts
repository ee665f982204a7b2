/**
 * The `command` endpoint through the whole pipeline: the bundled keyword router, the OpenAI-SDK
 * agent example against a local OpenAI-compatible server, processes reused across trials, and a
 * protocol fuzz (garbage, partial JSON, huge lines, exits, hangs, stdout noise) that must end in
 * errored trials or exit 3 with a clear message — never a crash or a hang.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import {
  offeredTools,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { afterAll } from "vitest";

afterAll(removeTempDirs);
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const MISBEHAVE = fileURLToPath(new URL("./fixtures/endpoints/misbehave.js", import.meta.url));

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function records(runDir: string): Record<string, unknown>[] {
  return readFileSync(join(runDir, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function runDirOf(stderr: string): string {
  const match = /run directory: (.+)/.exec(stderr);
  if (match === null) throw new Error(`no run directory in: ${stderr}`);
  return match[1];
}

describe("command endpoint", () => {
  it("runs the bundled keyword router on the bundled example, and a second run asks the same content addresses", async () => {
    const out = tempDir();
    const log = join(out, "spawns.log");
    const result = await runCli(
      [
        "run",
        "-e",
        "command:keyword-router",
        "--command",
        "node examples/endpoints/keyword-router.js",
        "--concurrency",
        "2",
        "--out-dir",
        out,
        "--run-id",
        "kw",
        "--no-progress",
        "--no-gates",
        "-f",
        "json",
      ],
      { cwd: ROOT, env: { ...process.env, SPAWN_LOG: log } },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.run.endpoint).toBe("command");
    expect(report.run.model).toBe("keyword-router");
    expect(report.metrics.scored).toBe(318);
    expect(report.metrics.selection_accuracy.numerator).toBeGreaterThan(0);
    // A second run of the same command and version answers from the store.
    const again = await runCli(
      [
        "run",
        "-e",
        "command:keyword-router",
        "--command",
        "node examples/endpoints/keyword-router.js",
        "--out-dir",
        out,
        "--run-id",
        "kw2",
        "--no-progress",
        "--no-gates",
      ],
      { cwd: ROOT },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(
      records(join(out, "kw2")).every(
        (r) =>
          r.request_hash ===
          records(join(out, "kw")).find((o) => o.case_id === r.case_id && o.trial === r.trial)
            ?.request_hash,
      ),
    ).toBe(true);
  }, 60_000);

  it("reuses one process per worker (spawns counted) and records every call of a reply with several", async () => {
    const dir = writeProject();
    const log = join(dir, "spawns.log");
    const result = await runCli(
      [
        "run",
        "-e",
        "command",
        "--command",
        `node ${MISBEHAVE} two-calls`,
        "--concurrency",
        "2",
        "--trials",
        "5",
        "--mode",
        "live",
        "--no-progress",
        "--run-id",
        "two",
      ],
      {
        cwd: dir,
        env: { ...process.env, SPAWN_LOG: log },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(log, "utf8").trim().split("\n")).toHaveLength(2);
    const all = records(join(dir, "reports", "two"));
    expect(all).toHaveLength(15);
    expect(all[0].tool_calls).toBe(2);
    expect(all[0].calls).toEqual([
      { tool: all[0].selected, arguments: {} },
      { tool: "no_applicable_tool", arguments: { reason: "also" } },
    ]);
    const report = JSON.parse(readFileSync(join(dir, "reports", "two", "report.json"), "utf8"));
    expect(report.metrics.extra_call_rate).toMatchObject({ numerator: 15, denominator: 15 });
    expect((await runCli(["report", join(dir, "reports", "two"), "-f", "html"], dir)).code).toBe(0);
    expect(readFileSync(join(dir, "reports", "two", "report.html"), "utf8")).toContain(
      '"extra_calls":[{"tool":"no_applicable_tool","arguments":{"reason":"also"}}]',
    );
    const show = await runCli(["show", join(dir, "reports", "two"), "--case", "order-by-id"], dir);
    expect(show.stdout).toMatch(/\n {6}also {7}no_applicable_tool \{"reason":"also"\}\n/);
  }, 30_000);

  it("wraps the OpenAI SDK with a custom prompt (the example agent) against a local OpenAI-compatible server", async () => {
    const dir = writeProject();
    server = await startFakeServer((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const agent = join(ROOT, "examples", "endpoints", "openai-agent.js");
    const env = {
      ...process.env,
      OPENAI_BASE_URL: `${server.url}/v1`,
      OPENAI_API_KEY: "sk-test-agent-0123456789",
      AGENT_MODEL: "test-model",
    };
    const result = await runCli(
      [
        "run",
        "-e",
        "command:my-agent",
        "--command",
        `node ${agent}`,
        "--endpoint-version",
        "prompt-v2",
        "--no-progress",
        "--run-id",
        "agent",
      ],
      { cwd: dir, env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(6);
    expect((server.requests[0].body.messages as { content: string }[])[0].content).toContain(
      "You are the support desk's router.",
    );
    expect(records(join(dir, "reports", "agent")).map((r) => r.selected)).not.toContain(null);
    // A new endpoint_version is a new content address: every trial is asked again.
    const next = await runCli(
      [
        "run",
        "-e",
        "command:my-agent",
        "--command",
        `node ${agent}`,
        "--endpoint-version",
        "prompt-v3",
        "--no-progress",
        "--run-id",
        "agent3",
      ],
      { cwd: dir, env },
    );
    expect(next.code, next.stderr).toBe(0);
    expect(server.requests).toHaveLength(12);
  }, 30_000);

  it("is the ablation ladder's + router rung", async () => {
    const out = tempDir();
    const result = await runCli(
      [
        "ablate",
        "--router",
        "command:keyword-router",
        "--command",
        "node examples/endpoints/keyword-router.js",
        "-n",
        "1",
        "--out-dir",
        out,
        "--run-id",
        "ladder",
        "--no-progress",
        "-f",
        "json",
      ],
      ROOT,
    );
    expect(result.code, result.stderr).toBe(0);
    const experiment = JSON.parse(result.stdout);
    expect(experiment.variants.at(-1)).toMatchObject({
      name: "+ router",
      reference: "+ controls",
      endpoint: "command:keyword-router",
      changes: { endpoint: "command:keyword-router" },
    });
    expect(experiment.comparisons.at(-1).variant).toBe("+ router");
  }, 60_000);

  // "errored": every trial errored (the run finishes, its report lists them, exit 3 — never green);
  // "broken": the command fails again and again, and the run stops early (exit 3).
  const fuzz: [mode: string, outcome: "errored" | "broken", message: RegExp][] = [
    // A reply that is JSON but not the protocol's errors that trial; the process is sound and kept.
    ["badshape", "errored", /the reply does not fit route-eval-endpoint\/1 .*unknown key "tol"/],
    ["agent-error", "errored", /reported an error: upstream model refused/],
    // A process whose stdout is out of step is killed (the next request would read its leftovers):
    // one that does it every time is a broken command, and the run stops, saying why.
    [
      "garbage",
      "broken",
      /failed more than 6 times in a row \(last: wrote a line that is not JSON \(write logs to stderr, one JSON reply per line to stdout\): this is not json\)/,
    ],
    [
      "prelog",
      "broken",
      /failed more than 6 times in a row \(last: wrote a line that is not JSON .*: loading model\.\.\.\)/,
    ],
    [
      "wrongid",
      "broken",
      /failed more than 6 times in a row \(last: answered with id "nope" where request \d+ was waiting/,
    ],
    [
      "huge",
      "broken",
      /failed more than 6 times in a row \(last: wrote more than 8388608 bytes without ending the reply line\)/,
    ],
    [
      "partial",
      "broken",
      /failed more than 6 times in a row \(last: exited \(code 0\) before answering\)/,
    ],
    [
      "exit",
      "broken",
      /failed more than 6 times in a row \(last: exited \(code 1\) before answering; its stderr ends: Error: Cannot find module '\/nowhere\/agent\.js'\)/,
    ],
    ["hang", "broken", /failed more than 6 times in a row \(last: timed out after 300 ms/],
  ];
  for (const [mode, outcome, message] of fuzz) {
    it(`${mode}: ${outcome === "errored" ? "errored trials, exit 3" : "the run stops, exit 3"} with a clear message, no crash, no hang`, async () => {
      const dir = writeProject();
      const result = await runCli(
        [
          "run",
          "-e",
          "command",
          "--command",
          `node ${MISBEHAVE} ${mode}`,
          "--mode",
          "live",
          "--no-progress",
          "--no-gates",
          "--timeout-ms",
          mode === "hang" ? "300" : "10000",
          "--retry-base-ms",
          "1",
          "--retry-budget-ms",
          "2000",
          "--run-id",
          mode,
          "-f",
          "json",
        ],
        dir,
      );
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
      if (outcome === "errored") {
        const report = JSON.parse(result.stdout);
        expect(report.metrics.errored).toBe(6);
        expect(report.errored[0].error).toMatch(message);
      } else {
        expect(result.stderr).toMatch(message);
        expect(result.stderr).toContain(`--resume ${runDirOf(result.stderr)}`);
      }
    }, 20_000);
  }
});
