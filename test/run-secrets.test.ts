import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { captureIo } from "./support/io.js";
import {
  anthropicReply,
  offeredTools,
  openaiError,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe("API keys never reach a file", () => {
  it("openai: records, run.json, report.json, the store and --output hold no trace of the key, even when a server echoes it", async () => {
    const key = "sk-proj-SECRET-7f3a9c1e5b2d4f6a8c0e";
    const dir = writeProject();
    server = await startFakeServer((request, i) =>
      i === 0
        ? openaiError(413, `this key (${key}) may not do that`)
        : openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const captured = captureIo(dir, { OPENAI_API_KEY: key });
    const { io } = captured;
    const argv = [
      "node",
      "route-eval",
      "run",
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--concurrency",
      "1",
      "--output",
      join(dir, "reports", "summary.md"),
      "-f",
      "markdown",
    ];
    expect(await main(argv, io)).toBe(3); // the first trial errored (413): never a green run
    expect(server.requests.every((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true);
    const files = [...filesUnder(join(dir, "reports")), ...filesUnder(join(dir, ".route-eval"))];
    expect(files.some((f) => f.endsWith("records.jsonl"))).toBe(true);
    expect(files.some((f) => f.endsWith("run.json"))).toBe(true);
    expect(files.some((f) => f.endsWith("report.json"))).toBe(true);
    const packs = files.filter((f) => f.includes(".route-eval"));
    expect(packs).toHaveLength(1); // one pack, one line per stored answer
    expect(readFileSync(packs[0], "utf8").trimEnd().split("\n")).toHaveLength(5);
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(key);
    expect(captured.stdout() + captured.stderr()).not.toContain(key);
    expect(readFileSync(join(dir, "reports", "summary.md"), "utf8")).toContain("[redacted]");
    expect(captured.stderr()).toContain(
      "route-eval: 6/6 trials (100%) · 1 errored · 0 retries · took",
    );
  });

  it("anthropic: the same", async () => {
    const key = "sk-ant-SECRET-0d9e8f7a6b5c4d3e2f1a";
    const dir = writeProject();
    server = await startFakeServer((request) =>
      anthropicReply([{ name: offeredTools(request.body)[0], input: {} }]),
    );
    const { io } = captureIo(dir, { MY_ANTHROPIC: key });
    const argv = [
      "node",
      "route-eval",
      "run",
      "-e",
      "anthropic:test-model",
      "--base-url",
      server.url,
      "--api-key-env",
      "MY_ANTHROPIC",
      "--no-progress",
    ];
    expect(await main(argv, io)).toBe(0);
    expect(JSON.stringify(server.requests[0].headers)).toContain(key);
    const files = [...filesUnder(join(dir, "reports")), ...filesUnder(join(dir, ".route-eval"))];
    expect(files.length).toBeGreaterThanOrEqual(4); // records, sets, run.json, report.json, and the store's pack
    expect(files.some((f) => f.includes(join(".route-eval", "store", "packs")))).toBe(true);
    for (const file of files) expect(readFileSync(file, "utf8"), file).not.toContain(key);
    const meta = JSON.parse(readFileSync(files.find((f) => f.endsWith("run.json")) ?? "", "utf8"));
    expect(meta.config.api_key_env).toBe("MY_ANTHROPIC");
  });

  it("a key in the base URL (userinfo or a credential parameter) appears in no file written and no line printed", async () => {
    const user = "keyuser-7Hq2";
    const password = "urlpass-SECRET-5d1c9e";
    server = await startFakeServer((request, i) =>
      i === 0
        ? { reset: true }
        : openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const dir = writeProject();
    const base = server.url.replace("http://", `http://${user}:${password}@`);
    for (const baseUrl of [`${base}/v1`, `${server.url}/v1?api_key=${password}`]) {
      const captured = captureIo(dir, { OPENAI_API_KEY: "sk-x-0123456789" });
      const argv = [
        "node",
        "route-eval",
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        baseUrl,
        "--retry-base-ms",
        "1",
        "--no-gates",
        "-f",
        "html",
        "--mode",
        "live",
      ];
      await main(argv, captured.io);
      const printed = captured.stdout() + captured.stderr();
      for (const secret of [user, password]) expect(printed).not.toContain(secret);
      const files = [...filesUnder(join(dir, "reports")), ...filesUnder(join(dir, ".route-eval"))];
      expect(files.some((f) => f.endsWith("report.html"))).toBe(true);
      for (const file of files)
        for (const secret of [user, password])
          expect(readFileSync(file, "utf8"), file).not.toContain(secret);
    }
  });
});
