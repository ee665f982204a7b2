import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { captureIo } from "./support/io.js";
import {
  offeredTools,
  openaiError,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const BIN = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const ENV = { OPENAI_API_KEY: "sk-test-resume-0123456789" };
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function runArgs(url: string, ...extra: string[]): string[] {
  return [
    "node",
    "route-eval",
    "run",
    "-e",
    "openai:test-model",
    "--base-url",
    `${url}/v1`,
    "--mode",
    "live",
    "--no-progress",
    "--retry-base-ms",
    "1",
    ...extra,
  ];
}

/** (case, trial) pairs of records.jsonl, in file order. */
function pairsOf(runDir: string): string[] {
  return readFileSync(join(runDir, "records.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const record = JSON.parse(line);
      return `${record.case_id}#${record.trial}`;
    });
}

function expectEachTrialOnce(runDir: string, cases: number, trials: number): void {
  const pairs = pairsOf(runDir);
  expect(pairs).toHaveLength(cases * trials);
  expect(new Set(pairs).size).toBe(cases * trials);
}

describe("a run stopped early", () => {
  it("stops on 401 with exit 3 naming the key variable, keeps what it recorded, and --resume finishes it", async () => {
    const dir = writeProject();
    let rejecting = true;
    server = await startFakeServer((request, i) =>
      rejecting && i >= 3
        ? openaiError(401, "Incorrect API key provided")
        : openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const first = captureIo(dir, ENV);
    expect(
      await main(runArgs(server.url, "--concurrency", "1", "--run-id", "stopped"), first.io),
    ).toBe(3);
    expect(first.stderr()).toContain(
      "the API key in OPENAI_API_KEY was rejected; set OPENAI_API_KEY to a valid key",
    );
    expect(first.stderr()).toContain("run stopped early; 3 trial records kept");
    expect(server.requests).toHaveLength(4);
    const runDir = join(dir, "reports", "stopped");
    expect(pairsOf(runDir)).toHaveLength(3);
    expect(existsSync(join(runDir, "report.json"))).toBe(false);

    rejecting = false;
    const second = captureIo(dir, ENV);
    expect(await main(runArgs(server.url, "--resume", runDir, "--format", "json"), second.io)).toBe(
      0,
    );
    expect(server.requests).toHaveLength(4 + 3);
    expectEachTrialOnce(runDir, 3, 2);
    expect(JSON.parse(second.stdout()).metrics.trials).toBe(6);
    expect(JSON.parse(readFileSync(join(runDir, "run.json"), "utf8")).finished_at).not.toBeNull();
  });

  it("drops a torn last line on --resume and redoes that trial", async () => {
    const dir = writeProject();
    server = await startFakeServer((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    await main(runArgs(server.url, "--run-id", "torn"), captureIo(dir, ENV).io);
    const runDir = join(dir, "reports", "torn");
    const lines = readFileSync(join(runDir, "records.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l !== "");
    // Keep 4 records, then half of the fifth: what a crash mid-write leaves.
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      join(runDir, "records.jsonl"),
      lines.slice(0, 4).join("\n") + "\n" + lines[4].slice(0, 40),
    );
    const before = server.requests.length;
    expect(await main(runArgs(server.url, "--resume", runDir), captureIo(dir, ENV).io)).toBe(0);
    expect(server.requests.length - before).toBe(2);
    expectEachTrialOnce(runDir, 3, 2);
  });

  it("refuses to resume a run against another model", async () => {
    const dir = writeProject();
    server = await startFakeServer((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    await main(runArgs(server.url, "--run-id", "other"), captureIo(dir, ENV).io);
    const captured = captureIo(dir, ENV);
    const { io } = captured;
    const code = await main(
      [...runArgs(server.url, "--resume", join(dir, "reports", "other")), "-m", "another-model"],
      io,
    );
    expect(code).toBe(2);
    expect(captured.stderr()).toContain(
      "this would not continue the same experiment: model test-model → another-model",
    );
  });

  it("survives SIGKILL mid-run: --resume leaves every (case, trial) exactly once", async () => {
    const dir = writeProject();
    let kill: (() => void) | null = null;
    server = await startFakeServer((request, i) => {
      if (i === 24) kill?.();
      return {
        ...openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
        delayMs: 15,
      };
    });
    const args = runArgs(
      server.url,
      "--trials",
      "20",
      "--concurrency",
      "4",
      "--run-id",
      "killed",
    ).slice(2);
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { ...process.env, ...ENV },
      stdio: ["ignore", "ignore", "inherit"],
    });
    kill = () => child.kill("SIGKILL");
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, sig) => resolve(sig)),
    );
    expect(signal).toBe("SIGKILL");
    const runDir = join(dir, "reports", "killed");
    const partial = pairsOf(runDir).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(60);

    const { io } = captureIo(dir, ENV);
    expect(await main(runArgs(server.url, "--trials", "20", "--resume", runDir), io)).toBe(0);
    expectEachTrialOnce(runDir, 3, 20);
  }, 20_000);
});

describe("SIGINT and SIGTERM", () => {
  it("SIGINT stops a run whose trials answer at once (baseline: no I/O to wait on) while it runs, not after its last trial", async () => {
    const dir = writeProject();
    const runId = "stopped-baseline";
    const cases = 3;
    const trials = 10_000; // the most a case may have: 30,000 in all, far more than a run gets through before the signal
    const child = spawn(
      process.execPath,
      [
        BIN,
        "run",
        "-e",
        "baseline",
        "--no-progress",
        "--no-gates",
        "--trials",
        String(trials),
        "--run-id",
        runId,
      ],
      {
        cwd: dir,
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const exited = new Promise<number | null>((resolve) =>
      child.on("exit", (status) => resolve(status)),
    );
    const records = join(dir, "reports", runId, "records.jsonl");
    // Until the first record is on disk (or the run ended without one: the exit code below says so).
    while (
      child.exitCode === null &&
      !(existsSync(records) && readFileSync(records, "utf8").includes("\n"))
    )
      await new Promise((resolve) => setTimeout(resolve, 10));
    child.kill("SIGINT");
    expect(await exited, stderr).toBe(130);
    expect(stderr).toMatch(/route-eval: interrupted by SIGINT: \d+ trial records? kept in /);
    const kept = pairsOf(join(dir, "reports", runId));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(cases * trials);
    expect(new Set(kept).size).toBe(kept.length);
  }, 60_000);

  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    it(`${signal}: stops scheduling, keeps every finished trial, prints the resume command, exits ${code}; resume completes the run`, async () => {
      const dir = writeProject();
      let stop: (() => void) | null = null;
      server = await startFakeServer((request, i) => {
        if (i === 12) stop?.();
        return {
          ...openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
          delayMs: 20,
        };
      });
      const runId = `stopped-${signal}`;
      const args = runArgs(
        server.url,
        "--trials",
        "20",
        "--concurrency",
        "4",
        "--run-id",
        runId,
      ).slice(2);
      const child = spawn(process.execPath, [BIN, ...args], {
        cwd: dir,
        env: { ...process.env, ...ENV },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      stop = () => child.kill(signal);
      const exit = await new Promise<number | null>((resolve) =>
        child.on("exit", (status) => resolve(status)),
      );
      const runDir = join(dir, "reports", runId);
      expect(exit).toBe(code);
      expect(stderr).toMatch(
        new RegExp(
          `route-eval: interrupted by ${signal}: \\d+ trial records? kept in \\S+records.jsonl; continue with --resume ${runDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n$`,
        ),
      );
      const kept = pairsOf(runDir);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(60);
      expect(new Set(kept).size).toBe(kept.length);
      const { io } = captureIo(dir, ENV);
      expect(await main(runArgs(server.url, "--trials", "20", "--resume", runDir), io)).toBe(0);
      expectEachTrialOnce(runDir, 3, 20);
    }, 20_000);
  }
});
