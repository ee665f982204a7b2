import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { RunProgress } from "../src/types.js";
import { captureIo } from "./support/io.js";
import {
  offeredTools,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import {
  CASES,
  liveConfig,
  removeTempDirs,
  TOOLS,
  writeProject,
  writeRegistry,
} from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const ENV = { OPENAI_API_KEY: "sk-test-store-0123456789" };
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A model that calls the first tool it is offered. */
async function startFirstToolServer(): Promise<FakeServer> {
  server = await startFakeServer((request) =>
    openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
  );
  return server;
}

async function run(dir: string, url: string, mode: "live" | "cached" | "replay" = "cached") {
  const progress: RunProgress[] = [];
  const config = liveConfig(dir, { endpoint: "openai:test-model", base_url: `${url}/v1`, mode });
  const result = await runEvaluation(config, {
    env: ENV,
    now: () => new Date(),
    onProgress: (p) => progress.push(p),
  });
  return { ...result, last: progress[progress.length - 1] };
}

function goalsOf(requests: FakeServer["requests"]): string[] {
  return requests.map((r) => {
    const messages = r.body.messages as { content: string }[];
    return messages[messages.length - 1].content;
  });
}

describe("response store", () => {
  it("answers a second run of unchanged cases from the store: zero HTTP requests, same records", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    const first = await run(dir, fake.url);
    expect(fake.requests).toHaveLength(6);
    expect(first.last).toMatchObject({ done: 6, total: 6, from_store: 0, finished: true });
    const second = await run(dir, fake.url);
    expect(fake.requests).toHaveLength(6);
    expect(second.last.from_store).toBe(6);
    expect(second.report.metrics).toEqual(first.report.metrics);
    expect(second.runDir).not.toBe(first.runDir);
  });

  it("appends one pack line per answer, and still reads a store written one file per key (before packs)", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    await run(dir, fake.url);
    const store = join(dir, ".route-eval", "store");
    const [pack] = readdirSync(join(store, "packs"));
    const lines = readFileSync(join(store, "packs", pack), "utf8")
      .trimEnd()
      .split("\n");
    expect(lines).toHaveLength(6);
    // The older layout: <first two hex>/<key>.json, pretty-printed; no packs.
    for (const line of lines) {
      const [key, json] = line.split("\t");
      expect(JSON.parse(json).key).toBe(key);
      mkdirSync(join(store, key.slice(0, 2)), { recursive: true });
      writeFileSync(
        join(store, key.slice(0, 2), `${key}.json`),
        JSON.stringify(JSON.parse(json), null, 2) + "\n",
      );
    }
    rmSync(join(store, "packs"), { recursive: true });
    const second = await run(dir, fake.url);
    expect(fake.requests).toHaveLength(6);
    expect(second.last.from_store).toBe(6);
  });

  it("re-queries only the trials whose visible set held the tool whose description changed", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    await run(dir, fake.url);
    expect(fake.requests).toHaveLength(6);
    // send_email is in no phase: nothing changes for the model.
    writeRegistry(
      dir,
      TOOLS.map((t) =>
        t.name === "send_email" ? { ...t, purpose: "Send the customer an email." } : t,
      ),
    );
    await run(dir, fake.url);
    expect(fake.requests).toHaveLength(6);
    // refund_order is visible only in phase payments: its one case, both trials.
    writeRegistry(
      dir,
      TOOLS.map((t) =>
        t.name === "refund_order" ? { ...t, purpose: "Refund a paid order in full." } : t,
      ),
    );
    await run(dir, fake.url);
    expect(goalsOf(fake.requests.slice(6))).toEqual(["Refund it please.", "Refund it please."]);
  });

  it("calls every trial in live mode, store or not", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    await run(dir, fake.url);
    await run(dir, fake.url, "live");
    expect(fake.requests).toHaveLength(12);
  });

  it("replay: a missing entry stops the run with exit 3 naming the case and trial, without any call; finished trials are kept", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    await run(dir, fake.url);
    writeProject(
      TOOLS,
      [
        ...CASES,
        { id: "new-case", goal: "Is ord_9 late?", phase: "orders", acceptable: ["get_order"] },
      ],
      dir,
    );
    const captured = captureIo(dir, ENV);
    const { io } = captured;
    const argv = [
      "node",
      "route-eval",
      "run",
      "-e",
      "openai:test-model",
      "--base-url",
      `${fake.url}/v1`,
      "--mode",
      "replay",
      "--concurrency",
      "1",
      "--run-id",
      "replay",
    ];
    const code = await main(argv, io);
    expect(code).toBe(3);
    expect(captured.stderr()).toMatch(
      /route-eval: replay: the response store \S+ has no answer for case "new-case" trial 0 \(key [0-9a-f]{12}\); run it once with --mode cached/,
    );
    expect(captured.stderr()).toContain(`--resume ${join(dir, "reports", "replay")}`);
    expect(fake.requests).toHaveLength(6);
    const records = readFileSync(join(dir, "reports", "replay", "records.jsonl"), "utf8")
      .trim()
      .split("\n");
    expect(records).toHaveLength(6);
    expect(readdirSync(join(dir, "reports", "replay"))).not.toContain("report.json");
  });

  it("says so when the store cannot be written, and keeps the records", async () => {
    const dir = writeProject();
    const fake = await startFirstToolServer();
    writeFileSync(join(dir, "blocker"), "not a directory");
    const captured = captureIo(dir, ENV);
    const { io } = captured;
    const argv = [
      "node",
      "route-eval",
      "run",
      "-e",
      "openai:test-model",
      "--base-url",
      `${fake.url}/v1`,
      "--store",
      "blocker/store",
      "--run-id",
      "nostore",
      "--no-progress",
    ];
    expect(await main(argv, io)).toBe(2);
    expect(captured.stderr()).toMatch(
      /^run directory: \S+nostore\n(.*\n)*route-eval: cannot write to the response store \S+blocker\/store \(response store: .*\); check store_dir/,
    );
    expect(
      readFileSync(join(dir, "reports", "nostore", "records.jsonl"), "utf8")
        .trim()
        .split("\n"),
    ).toHaveLength(6);
  });

  it("keeps a phantom call under its name and classifies it phantom_tool", async () => {
    const dir = writeProject();
    server = await startFakeServer(() =>
      openaiReply([{ name: "delete_everything", arguments: "{}" }]),
    );
    const { runDir, report } = await run(dir, server.url);
    const first = JSON.parse(readFileSync(join(runDir, "records.jsonl"), "utf8").split("\n")[0]);
    expect(first).toMatchObject({
      selected: "delete_everything",
      failed_stage: "selection",
      selection_error: "phantom_tool",
      provider_request_id: "req_fake_1",
    });
    expect(report.metrics.selection_errors.phantom_tool).toBe(6);
    expect(report.metrics.phantom_rate.value).toBe(1);
  });
});
