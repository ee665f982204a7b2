/**
 * Batch runs against local servers that speak the OpenAI files + batches and the Anthropic
 * message-batches wire protocols, through the real SDKs: submit, poll, partial failure and
 * resubmission, detach and resume (no request submitted twice), store hits that skip submission,
 * and a batch run's records equal to a live run's on the same requests.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import { captureIo } from "./support/io.js";
import { main } from "../src/cli.js";
import { startBatchServer, type BatchServer } from "./fixtures/batch-server.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const ENV = {
  OPENAI_API_KEY: "sk-test-batch-0123456789",
  ANTHROPIC_API_KEY: "sk-ant-test-batch-0123456789",
};

let server: BatchServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function records(dir: string, runId: string): Record<string, unknown>[] {
  return readFileSync(join(dir, "reports", runId, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** A record without what differs between a live and a batch answer: timings and request ids. */
function comparable(r: Record<string, unknown>): Record<string, unknown> {
  const {
    latency_ms: _l,
    recorded_latency_ms: _rl,
    provider_request_id: _p,
    retries: _r,
    ...rest
  } = r;
  return rest;
}

const byTrial = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  String(a.case_id).localeCompare(String(b.case_id)) || Number(a.trial) - Number(b.trial);

describe("batch runs", () => {
  const args = (url: string, ...extra: string[]) => [
    "run",
    "-e",
    "openai:test-model",
    "--base-url",
    `${url}/v1`,
    "--no-progress",
    "--no-gates",
    "--retry-base-ms",
    "1",
    "--batch-poll-ms",
    "20",
    ...extra,
  ];

  it("OpenAI: submits once, polls, collects; the records equal a live run's on the same requests; a rerun submits nothing", async () => {
    const dir = writeProject();
    server = await startBatchServer();
    const live = await runCli(args(server.url, "--run-id", "live", "--store", "store-live"), {
      cwd: dir,
      env: ENV,
    });
    expect(live.code, live.stderr).toBe(0);
    const batched = await runCli(
      args(server.url, "--run-id", "batch", "--store", "store-batch", "--batch"),
      { cwd: dir, env: ENV },
    );
    expect(batched.code, batched.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(batched.stderr).toMatch(/batch: 6 completed/);
    expect(records(dir, "batch").map(comparable).sort(byTrial)).toEqual(
      records(dir, "live").map(comparable).sort(byTrial),
    );
    const state = JSON.parse(readFileSync(join(dir, "reports", "batch", "batches.json"), "utf8"));
    expect(state.batches).toHaveLength(1);
    expect(state.batches[0]).toMatchObject({ round: 1, state: "completed", collected: true });
    // The store answers everything now: a second batch run submits nothing.
    const again = await runCli(
      args(server.url, "--run-id", "batch2", "--store", "store-batch", "--batch"),
      { cwd: dir, env: ENV },
    );
    expect(again.code, again.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
  }, 30_000);

  it("adaptive trials through the batch API: one batch per round, the same records and decisions as a live adaptive run", async () => {
    const dir = writeProject();
    server = await startBatchServer();
    // The first offered tool, every time: order-by-id always right, the other two always wrong.
    // At θ 0.5 with α 0.05 split across 3 cases, each is decided after 9 trials: 9 rounds.
    const adaptive = ["--adaptive", "0.5", "--max-trials", "20"];
    const live = await runCli(
      args(server.url, ...adaptive, "--run-id", "live", "--store", "store-live"),
      { cwd: dir, env: ENV },
    );
    expect(live.code, live.stderr).toBe(0);
    const batched = await runCli(
      args(server.url, ...adaptive, "--run-id", "batch", "--store", "store-batch", "--batch"),
      { cwd: dir, env: ENV },
    );
    expect(batched.code, batched.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(9);
    expect(records(dir, "batch").map(comparable).sort(byTrial)).toEqual(
      records(dir, "live").map(comparable).sort(byTrial),
    );
    const report = (runId: string) =>
      JSON.parse(readFileSync(join(dir, "reports", runId, "report.json"), "utf8"));
    expect(report("batch").adaptive).toEqual(report("live").adaptive);
    expect(report("batch").adaptive).toMatchObject({ pass: 1, fail: 2, undecided: 0, calls: 27 });
  }, 60_000);

  it("resubmits items that expired once, and records those that fail twice as errored trials with the reason", async () => {
    const dir = writeProject();
    const keys: string[] = [];
    server = await startBatchServer((key, round) => {
      if (!keys.includes(key)) keys.push(key);
      const index = keys.indexOf(key);
      return (index === 0 && round === 1) || index === 1; // the first recovers on resubmission, the second never does
    });
    const result = await runCli(args(server.url, "--run-id", "partial", "--batch", "-f", "json"), {
      cwd: dir,
      env: ENV,
    });
    // An errored trial never ends a run green: exit 3, with the report written and rendered.
    expect(result.code, result.stderr).toBe(3);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(2);
    const report = JSON.parse(result.stdout);
    expect(report.metrics.errored).toBe(1);
    expect(report.errored[0].error).toBe(
      "batch: no answer for this request (the batch expired before this request ran)",
    );
  }, 30_000);

  it("a batch whose every item fails ends the run with exit 3 (errored trials are never a green run)", async () => {
    const dir = writeProject();
    server = await startBatchServer(() => true);
    const result = await runCli(args(server.url, "--run-id", "all-fail", "--batch", "-f", "json"), {
      cwd: dir,
      env: ENV,
    });
    expect(result.code).toBe(3);
    expect(JSON.parse(result.stdout).metrics.errored).toBe(6);
    expect(result.stderr).toMatch(/6 of 6 trials errored/);
  }, 30_000);

  it("one HTTP 500 while polling is retried, not an internal error; a batch the provider does not know (404) is exit 2 with what to do", async () => {
    const dir = writeProject();
    let failed = 0;
    server = await startBatchServer(
      () => false,
      3,
      () => undefined,
      (call) => (call.startsWith("GET /v1/batches/") && failed++ === 0 ? 500 : null),
    );
    const result = await runCli(args(server.url, "--run-id", "blip", "--batch"), {
      cwd: dir,
      env: ENV,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("internal error");
    expect(records(dir, "blip")).toHaveLength(6);

    const detached = await runCli(
      args(server.url, "--run-id", "gone", "--store", "store-gone", "--batch", "--detach"),
      { cwd: dir, env: ENV },
    );
    expect(detached.code, detached.stderr).toBe(0);
    const stateFile = join(dir, "reports", "gone", "batches.json");
    const state = JSON.parse(readFileSync(stateFile, "utf8"));
    state.batches[0].id = "batch_the_provider_forgot";
    writeFileSync(stateFile, JSON.stringify(state));
    const resumed = await runCli(
      [
        "run",
        "--resume",
        join(dir, "reports", "gone"),
        "--store",
        "store-gone",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--batch-poll-ms",
        "20",
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(
      /^route-eval: batch batch_the_provider_forgot: openai at .* does not know it .*remove it from batches\.json/m,
    );
  }, 60_000);

  it("SIGINT while polling stops at once with exit 130 (not after the poll interval, not exit 3)", async () => {
    const dir = writeProject();
    server = await startBatchServer(() => false, 1_000_000);
    const controller = new AbortController();
    const captured = captureIo(dir, ENV);
    const io = { ...captured.io, interrupts: () => controller.signal };
    // The poll interval is ten minutes, the test's own timeout one: only a prompt stop passes.
    const running = main(
      [
        "node",
        "route-eval",
        ...args(server.url, "--run-id", "stop", "--batch", "--batch-poll-ms", "600000"),
      ],
      io,
    );
    while (!server.calls.includes("POST /v1/batches")) await new Promise((r) => setTimeout(r, 20));
    controller.abort("SIGINT");
    expect(await running).toBe(130);
    expect(captured.stderr()).toMatch(
      /interrupted while batches were in progress; they keep running at the provider: collect them with --resume/,
    );
  }, 60_000);

  it("--detach submits and exits; --resume collects on any machine without submitting again", async () => {
    const dir = writeProject();
    server = await startBatchServer(() => false, 3);
    const detached = await runCli(args(server.url, "--run-id", "later", "--batch", "--detach"), {
      cwd: dir,
      env: ENV,
    });
    expect(detached.code, detached.stderr).toBe(0);
    expect(detached.stdout).toContain(
      `submitted 6 requests in batches; run folder: ${join(dir, "reports", "later")}`,
    );
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    const resumed = await runCli(
      [
        "run",
        "--resume",
        join(dir, "reports", "later"),
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--batch-poll-ms",
        "20",
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(records(dir, "later")).toHaveLength(6);
  }, 30_000);

  it("a SIGKILL after submission, then --resume: collects without submitting again (server-side count)", async () => {
    const dir = writeProject();
    let kill: (() => void) | null = null;
    // Done only after 8 polls (about a second of back-off): the kill at 200 ms lands after batches.json is written and before collection.
    server = await startBatchServer(
      () => false,
      8,
      () => setTimeout(() => kill?.(), 200),
    );
    const bin = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
    const child = spawn(
      process.execPath,
      [bin, ...args(server.url, "--run-id", "killed", "--batch")],
      { cwd: dir, env: { ...process.env, ...ENV }, stdio: "ignore" },
    );
    kill = () => child.kill("SIGKILL");
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, sig) => resolve(sig)),
    );
    expect(signal).toBe("SIGKILL");
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(
      JSON.parse(readFileSync(join(dir, "reports", "killed", "batches.json"), "utf8")).batches,
    ).toHaveLength(1);
    const resumed = await runCli(
      [
        "run",
        "--resume",
        join(dir, "reports", "killed"),
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--batch-poll-ms",
        "20",
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(records(dir, "killed")).toHaveLength(6);
    expect(resumed.stderr).toContain("batch: 6 completed");
  }, 30_000);

  it("batch status polls each open batch once and lists them; batch cancel cancels them", async () => {
    const dir = writeProject();
    server = await startBatchServer(() => false, 1000);
    expect(
      (
        await runCli(args(server.url, "--run-id", "stop", "--batch", "--detach"), {
          cwd: dir,
          env: ENV,
        })
      ).code,
    ).toBe(0);
    const polls = () =>
      server?.calls.filter((c) => /^GET \/v1\/batches\/[^/]+$/.test(c)).length ?? 0;
    const before = polls();
    const status = await runCli(
      ["batch", "status", join(dir, "reports", "stop"), "--base-url", `${server.url}/v1`],
      { cwd: dir, env: ENV },
    );
    expect(status.code, status.stderr).toBe(0);
    expect(polls()).toBe(before + 1);
    const id = JSON.parse(readFileSync(join(dir, "reports", "stop", "batches.json"), "utf8"))
      .batches[0].id;
    expect(status.stdout).toBe(
      `${join(dir, "reports", "stop")}: 1 batch, 6 requests — 6 in_progress\n` +
        `  ${id}  openai:test-model  6 requests  in_progress\n` +
        `collect and finish (when they are done, or to wait for them): route-eval run --resume ${join(dir, "reports", "stop")}\n`,
    );
    const notBatch = await runCli(["run", "--run-id", "plain", "--no-progress"], dir);
    expect(notBatch.code).toBeLessThanOrEqual(1);
    const refused = await runCli(["batch", "status", join(dir, "reports", "plain")], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "no batches.json (not a batch run; batch runs are started with run --batch or ablate --batch)",
    );
    const cancelled = await runCli(
      ["batch", "cancel", join(dir, "reports", "stop"), "--base-url", `${server.url}/v1`],
      { cwd: dir, env: ENV },
    );
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain("cancelled 1 open batch of");
    expect(server.calls.filter((c) => /^POST \/v1\/batches\/[^/]+\/cancel$/.test(c))).toHaveLength(
      1,
    );
  }, 30_000);

  it("Anthropic Message Batches: submit, poll, results", async () => {
    const dir = writeProject();
    server = await startBatchServer();
    const result = await runCli(
      [
        "run",
        "-e",
        "anthropic:test-model",
        "--base-url",
        server.url,
        "--no-progress",
        "--no-gates",
        "--batch",
        "--batch-poll-ms",
        "20",
        "--run-id",
        "claude",
        "-f",
        "json",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/messages/batches")).toHaveLength(1);
    expect(server.calls.some((c) => c.endsWith("/results"))).toBe(true);
    expect(JSON.parse(result.stdout).metrics.scored).toBe(6);
  }, 30_000);

  it("estimates the cost from the configured prices, with the batch discount on a batch run only", async () => {
    const dir = writeProject();
    const file = join(dir, "route-eval.yaml");
    const config = JSON.parse(readFileSync(file, "utf8"));
    writeFileSync(
      file,
      JSON.stringify({
        ...config,
        prices: { "test-model": { input_per_mtok: 2, output_per_mtok: 8, batch_discount: 0.5 } },
      }),
    );
    server = await startBatchServer();
    const live = JSON.parse(
      (await runCli(args(server.url, "--run-id", "priced", "-f", "json"), { cwd: dir, env: ENV }))
        .stdout,
    );
    // 6 calls × (120 input, 12 output) tokens, as the fake reports: (720 × 2 + 72 × 8) / 1e6 USD.
    expect(live.cost).toEqual({
      estimate: true,
      model: "test-model",
      usd: (720 * 2 + 72 * 8) / 1e6,
      input_tokens: 720,
      output_tokens: 72,
      input_estimated: 0,
      output_missing: 0,
      batch_discount: 0,
    });
    const batch = JSON.parse(
      (
        await runCli(
          args(
            server.url,
            "--run-id",
            "priced-batch",
            "--store",
            "other-store",
            "--batch",
            "-f",
            "json",
          ),
          { cwd: dir, env: ENV },
        )
      ).stdout,
    );
    expect(batch.cost.usd).toBeCloseTo(((720 * 2 + 72 * 8) / 1e6) * 0.5, 12);
    const terminal = await runCli(["report", join(dir, "reports", "priced-batch")], {
      cwd: dir,
      env: { COLUMNS: "250" },
    });
    expect(terminal.stdout).toContain(
      "estimated cost: $0.0010 for 720 input and 72 output tokens at the configured prices of test-model (batch discount 50% applied) — an estimate, not a bill",
    );
  }, 30_000);

  it("a config with variants: one collection pass, a request shared by variants submitted once, a baseline variant asked live; records equal a live experiment's", async () => {
    const dir = writeProject();
    const file = join(dir, "route-eval.yaml");
    const config = JSON.parse(readFileSync(file, "utf8"));
    // The fixture's tools have no boundaries, so "purpose only" asks exactly the base's requests;
    // "wide payments" shares the two orders cases' requests with the base (4 of its 6).
    const wide = {
      orders: { families: ["orders"] },
      payments: { families: ["payments", "orders", "messaging"] },
    };
    writeFileSync(
      file,
      JSON.stringify({
        ...config,
        variants: [
          { name: "purpose only", descriptions: "purpose" },
          { name: "wide payments", phases: wide },
          { name: "lexical", endpoint: "baseline" },
        ],
      }),
    );
    server = await startBatchServer();
    const live = await runCli(args(server.url, "--run-id", "live", "--store", "store-live"), {
      cwd: dir,
      env: ENV,
    });
    expect(live.code, live.stderr).toBe(0);
    const asked = server.calls.length;
    const batched = await runCli(
      args(server.url, "--run-id", "batch", "--store", "store-batch", "--batch"),
      { cwd: dir, env: ENV },
    );
    expect(batched.code, batched.stderr).toBe(0);
    expect(server.calls.slice(asked).filter((c) => c === "POST /v1/chat/completions")).toHaveLength(
      0,
    );
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    const state = JSON.parse(readFileSync(join(dir, "reports", "batch", "batches.json"), "utf8"));
    // base 6 + wide payments' 2 own requests; the lexical variant never reaches a provider.
    expect(
      state.batches.map((b: { items: unknown[]; model: string; provider: string }) => [
        b.provider,
        b.model,
        b.items.length,
      ]),
    ).toEqual([["openai", "test-model", 8]]);
    for (const slug of ["base", "purpose-only", "wide-payments", "lexical"]) {
      const runRecords = (id: string) =>
        records(dir, join(id, "variants", slug))
          .map(comparable)
          .sort(byTrial);
      expect(runRecords("batch"), slug).toEqual(runRecords("live"));
      expect(
        JSON.parse(
          readFileSync(join(dir, "reports", "batch", "variants", slug, "run.json"), "utf8"),
        ).batch,
        slug,
      ).toBe(true);
    }
    const comparisons = (id: string) =>
      JSON.parse(readFileSync(join(dir, "reports", id, "experiment.json"), "utf8")).comparisons;
    expect(comparisons("batch")).toEqual(comparisons("live"));
  }, 30_000);

  it("a variants experiment detaches and resumes like a run, and batch cancel takes its directory", async () => {
    const dir = writeProject();
    const file = join(dir, "route-eval.yaml");
    writeFileSync(
      file,
      JSON.stringify({
        ...JSON.parse(readFileSync(file, "utf8")),
        variants: [{ name: "terse", system_prompt: "Answer with one tool call." }],
      }),
    );
    server = await startBatchServer(() => false, 3);
    const detached = await runCli(args(server.url, "--run-id", "exp", "--batch", "--detach"), {
      cwd: dir,
      env: ENV,
    });
    expect(detached.code, detached.stderr).toBe(0);
    expect(detached.stdout).toContain(
      `submitted 12 requests in batches; experiment folder: ${join(dir, "reports", "exp")}`,
    );
    const resume = [
      "run",
      "--resume",
      join(dir, "reports", "exp"),
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--no-gates",
      "--batch-poll-ms",
      "20",
      "-f",
      "json",
    ];
    const resumed = await runCli(resume, { cwd: dir, env: ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(JSON.parse(resumed.stdout).variants.map((v: { name: string }) => v.name)).toEqual([
      "base",
      "terse",
    ]);
    for (const slug of ["base", "terse"])
      expect(records(dir, join("exp", "variants", slug))).toHaveLength(6);
    // A second detached experiment, cancelled through its directory.
    server.calls.length = 0;
    expect(
      (
        await runCli(
          args(server.url, "--run-id", "exp2", "--store", "other", "--batch", "--detach"),
          { cwd: dir, env: ENV },
        )
      ).code,
    ).toBe(0);
    const cancelled = await runCli(
      ["batch", "cancel", join(dir, "reports", "exp2"), "--base-url", `${server.url}/v1`],
      { cwd: dir, env: ENV },
    );
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain("cancelled 1 open batch of");
  }, 30_000);

  it("ablate --batch: the ladder's rungs in one collection pass, detached, collected by ablate --resume", async () => {
    const dir = writeProject();
    server = await startBatchServer(() => false, 3);
    const ablate = [
      "ablate",
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--batch-poll-ms",
      "20",
    ];
    const detached = await runCli([...ablate, "--run-id", "ladder", "--batch", "--detach"], {
      cwd: dir,
      env: ENV,
    });
    expect(detached.code, detached.stderr).toBe(0);
    expect(detached.stdout).toContain(
      `experiment folder: ${join(dir, "reports", "ladder")}\ncollect them (on any machine with this store and key): route-eval ablate --resume ${join(dir, "reports", "ladder")}`,
    );
    const resumed = await runCli(
      [
        "ablate",
        "--resume",
        join(dir, "reports", "ladder"),
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--batch-poll-ms",
        "20",
        "-f",
        "json",
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBeLessThanOrEqual(1);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(server.calls.filter((c) => c === "POST /v1/chat/completions")).toHaveLength(0);
    const experiment = JSON.parse(resumed.stdout);
    expect(experiment.kind).toBe("ladder");
    expect(
      experiment.profiles.every(
        (p: { trials: number; errored: number }) => p.trials === 6 && p.errored === 0,
      ),
    ).toBe(true);
  }, 30_000);

  it("shards of a batch run: each shard submits only its own units, and merge gives the live run's records", async () => {
    const dir = writeProject();
    server = await startBatchServer();
    expect(
      (
        await runCli(args(server.url, "--run-id", "live", "--store", "store-live"), {
          cwd: dir,
          env: ENV,
        })
      ).code,
    ).toBe(0);
    for (const i of [1, 2]) {
      const shard = await runCli(
        args(
          server.url,
          "--run-id",
          `b${i}`,
          "--store",
          "store-batch",
          "--batch",
          "--shard",
          `${i}/2`,
        ),
        { cwd: dir, env: ENV },
      );
      expect(shard.code, shard.stderr).toBe(0);
    }
    const submitted = [1, 2].map(
      (i) =>
        JSON.parse(readFileSync(join(dir, "reports", `b${i}`, "batches.json"), "utf8")).batches[0]
          .items.length,
    );
    expect(submitted[0] + submitted[1]).toBe(6);
    const merged = await runCli(
      [
        "merge",
        join(dir, "reports", "merged"),
        join(dir, "reports", "b1"),
        join(dir, "reports", "b2"),
      ],
      { cwd: dir, env: ENV },
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(records(dir, "merged").map(comparable)).toEqual(
      records(dir, "live").map(comparable).sort(byTrial),
    );
    expect(JSON.parse(readFileSync(join(dir, "reports", "merged", "run.json"), "utf8")).batch).toBe(
      true,
    );
  }, 30_000);

  it("refuses an endpoint without a batch API", async () => {
    const dir = writeProject();
    const result = await runCli(["run", "--batch", "--no-progress"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--batch: the endpoint baseline has no batch API");
  });

  it("batch: true in route-eval.yaml batches a run; --no-batch asks live", async () => {
    const dir = writeProject();
    const file = join(dir, "route-eval.yaml");
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), batch: true }));
    server = await startBatchServer();
    const batched = await runCli(args(server.url, "--run-id", "by-config"), { cwd: dir, env: ENV });
    expect(batched.code, batched.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(1);
    expect(
      JSON.parse(readFileSync(join(dir, "reports", "by-config", "run.json"), "utf8")).batch,
    ).toBe(true);
    const live = await runCli(
      args(server.url, "--run-id", "live", "--store", "other", "--no-batch"),
      { cwd: dir, env: ENV },
    );
    expect(live.code, live.stderr).toBe(0);
    expect(server.calls.filter((c) => c === "POST /v1/chat/completions")).toHaveLength(6);
    const baseline = await runCli(["run", "--no-progress", "-e", "baseline"], dir);
    expect(baseline.stderr).toMatch(
      /^route-eval: route-eval\.yaml:1: --batch: the endpoint baseline has no batch API; .*; --no-batch asks live\n$/,
    );
  }, 30_000);
});
