/**
 * The fault table of docs/faults.md, row by row: each fault is brought about through the real CLI
 * against real processes, local servers and files, and must end in the exit code its row states,
 * within its bound (the test's timeout, sized for a loaded machine: a fault that hangs fails
 * here), keeping what the row says is kept. A row of the docs that changes its exit code fails
 * here too.
 */
import {
  existsSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startBatchServer, type BatchServer } from "./fixtures/batch-server.js";
import {
  offeredTools,
  openaiReply,
  type ReceivedRequest,
  useFakeServers,
} from "./fixtures/fake-provider.js";
import { CASES, removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli, tempDir } from "./support/cli.js";

afterAll(removeTempDirs);
const MISBEHAVE = fileURLToPath(new URL("./fixtures/endpoints/misbehave.js", import.meta.url));
const ENV = { OPENAI_API_KEY: "sk-test-faults-0123456789" };
/** Characters that must never reach a page or a file raw: C0/C1 controls, DEL, bidi overrides. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const fake = useFakeServers();
let closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

interface Fault {
  /** The start of the fault's row in docs/faults.md ("| <this>… | <exit> | …"). */
  row: string;
  exit: number;
  /** The most it may take on a loaded two-core machine (ms). */
  bound: number;
  /** Brings the fault about, checks what is kept, and returns the exit code. */
  meet(): Promise<number>;
}

const run = (url: string, ...extra: string[]) => [
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
  "-f",
  "json",
  ...extra,
];

const answerFirst = (request: ReceivedRequest) =>
  openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]);

/** One Chat Completions request/response pair, as a trace file's line. */
function chatPair(goal: string, tools: string[], reply: Record<string, unknown>): string {
  const pair = {
    request: {
      model: "gpt-4o",
      messages: [{ role: "user", content: goal }],
      tools: tools.map((name) => ({
        type: "function",
        function: { name, description: `Use ${name}.`, parameters: { type: "object" } },
      })),
    },
    response: {
      id: "chatcmpl-fault",
      object: "chat.completion",
      created: 0,
      model: "gpt-4o",
      choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", ...reply } }],
    },
  };
  return `${JSON.stringify(pair)}\n`;
}

/** The YAML files under `dir`, by path. */
function yamlFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".yaml"))
      .map((file) => [file, readFileSync(join(dir, file), "utf8")]),
  );
}

const FAULTS: Fault[] = [
  {
    row: "`--force` over a run, and the new run stops before recording anything",
    exit: 2,
    bound: 30_000,
    async meet() {
      const dir = writeProject();
      const first = await runCli(["run", "--run-id", "keep", "--no-progress", "--no-gates"], dir);
      expect(first.code, first.stderr).toBe(0);
      const records = join(dir, "reports", "keep", "records.jsonl");
      const before = readFileSync(records, "utf8");
      // The embeddings retriever's key is missing: found only once the first trial asks for a vector.
      const again = await runCli(
        [
          "run",
          "--run-id",
          "keep",
          "--force",
          "--no-progress",
          "--retriever",
          "embeddings",
          "--k",
          "2",
        ],
        { cwd: dir, env: { OPENAI_API_KEY: "" } },
      );
      expect(again.stderr).toContain("environment variable OPENAI_API_KEY is not set");
      expect(readFileSync(records, "utf8")).toBe(before);
      expect(readdirSync(join(dir, "reports"))).toEqual(["keep"]);
      return again.code;
    },
  },
  {
    row: "a model server that dies mid-run",
    exit: 3,
    // Backoffs drawn up to 60 s: the retries must wake when the 1.5 s breaker window closes.
    bound: 20_000,
    async meet() {
      let served = 0;
      const server = await fake.start((request) =>
        served++ < 10 ? answerFirst(request) : { reset: true },
      );
      const dir = writeProject();
      const result = await runCli(
        run(server.url, "--run-id", "dies", "--trials", "10", "--breaker-window-ms", "1500").concat(
          "--retry-base-ms",
          "60000",
        ),
        { cwd: dir, env: ENV },
      );
      expect(result.stderr).toMatch(/looks down: no call has succeeded for [\d.]+ s while/);
      expect(result.stderr).toContain(`--resume ${join(dir, "reports", "dies")}`);
      const kept = readFileSync(join(dir, "reports", "dies", "records.jsonl"), "utf8");
      expect(kept.trim().split("\n").length).toBeGreaterThanOrEqual(8);
      return result.code;
    },
  },
  {
    row: "a `command` agent that hangs or floods stdout",
    exit: 0,
    bound: 60_000,
    async meet() {
      const dir = writeProject();
      const spawns = join(dir, "spawns.log");
      const result = await runCli(
        [
          "run",
          "-e",
          "command",
          "--command",
          `sh -c 'node ${MISBEHAVE} hang-1-in-4 | cat'`,
          "--mode",
          "live",
          "--no-progress",
          "--no-gates",
          "--trials",
          "10",
          "--timeout-ms",
          "300",
          "--breaker-window-ms",
          "200",
          "--retry-base-ms",
          "1",
          "-f",
          "json",
        ],
        { cwd: dir, env: { SPAWN_LOG: spawns } },
      );
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout);
      expect([report.metrics.trials, report.metrics.errored]).toEqual([30, 0]);
      // Each hung process was killed and a new one started: more processes than one per worker.
      expect(readFileSync(spawns, "utf8").trim().split("\n").length).toBeGreaterThan(4);
      return result.code;
    },
  },
  {
    row: "a batch submit's upload or create meets a 5xx",
    exit: 0,
    bound: 60_000,
    async meet() {
      const failing = new Set(["POST /v1/files", "POST /v1/batches"]);
      const server: BatchServer = await startBatchServer(
        () => false,
        2,
        () => undefined,
        // The upload fails once, then the create fails once: each call is retried on its own.
        (call) => (failing.delete(call) ? 500 : null),
      );
      closing.push(() => server.close());
      const dir = writeProject();
      const result = await runCli(
        run(server.url, "--run-id", "batch", "--batch", "--batch-poll-ms", "20"),
        { cwd: dir, env: ENV },
      );
      // Two uploads (the first refused), two creates (the first refused) — not an upload per create.
      expect(server.calls.filter((c) => c === "POST /v1/files")).toHaveLength(2);
      expect(server.calls.filter((c) => c === "POST /v1/batches")).toHaveLength(2);
      const state = JSON.parse(readFileSync(join(dir, "reports", "batch", "batches.json"), "utf8"));
      expect(state.batches).toHaveLength(1);
      expect(JSON.parse(result.stdout).metrics.trials).toBe(6);
      return result.code;
    },
  },
  {
    row: "an `http` reply over 8 MB; a redirect to another origin",
    exit: 3,
    bound: 60_000,
    async meet() {
      const seen: unknown[] = [];
      const other: Server = createServer((request, response) => {
        seen.push(request.headers);
        request.resume();
        response.end(JSON.stringify({ tool: "get_order", arguments: {} }));
      });
      await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
      closing.push(() => new Promise((r) => other.close(() => r())));
      const elsewhere = `http://127.0.0.1:${(other.address() as AddressInfo).port}/route`;
      const server = await fake.start((request) =>
        request.path === "/huge"
          ? { raw: `{"tool":"${"x".repeat(9 * 1024 * 1024)}"}` }
          : { status: 307, headers: { location: elsewhere } },
      );
      const dir = writeProject();
      const config = join(dir, "route-eval.yaml");
      const headers = { headers_env: { "X-Agent-Token": "AGENT_TOKEN" } };
      writeFileSync(
        config,
        JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), ...headers }),
      );
      const env = { AGENT_TOKEN: "agent-secret-0123456789" };
      const http = (path: string, id: string) =>
        runCli(
          ["run", "-e", "http", "--base-url", `${server.url}${path}`, "--run-id", id]
            .concat("--mode", "live", "--no-progress", "--no-gates", "--retry-base-ms", "1")
            .concat("-f", "json", "-n", "1"),
          { cwd: dir, env },
        );
      const moved = await http("/route", "moved");
      // Not followed: nothing (the token least of all) reaches the other origin; the trial errors.
      expect(server.requests[0].headers["x-agent-token"]).toBe(env.AGENT_TOKEN);
      expect(seen).toEqual([]);
      const movedReport = JSON.parse(moved.stdout);
      expect(movedReport.metrics.errored).toBe(movedReport.metrics.trials);
      expect(movedReport.errored[0].error).toContain("redirected to another origin");
      const huge = await http("/huge", "huge");
      const report = JSON.parse(huge.stdout);
      expect(report.metrics.errored).toBe(report.metrics.trials);
      expect(report.errored[0].error).toMatch(/the reply is longer than 8388608 bytes/);
      expect(huge.code).toBe(moved.code);
      return moved.code;
    },
  },
  {
    row: "a provider search result of any size",
    exit: 0,
    bound: 120_000,
    async meet() {
      // 120,000 tools (10 MB), a third of them the same name.
      const tools = Array.from({ length: 120_000 }, (_, i) => ({
        type: "function",
        name: i % 3 === 0 ? "get_order" : `unknown_tool_${i}`,
        description: "",
        parameters: { type: "object", properties: {} },
        strict: false,
      }));
      const hosted = { call_id: null, execution: "server", status: "completed" };
      const server = await fake.start(() => ({
        body: {
          id: "resp_big",
          object: "response",
          created_at: 0,
          status: "completed",
          model: "test-model",
          output: [
            { type: "tool_search_call", id: "ts_1", arguments: { query: "order" }, ...hosted },
            { type: "tool_search_output", id: "tso_1", tools, ...hosted },
            {
              type: "function_call",
              id: "fc_1",
              call_id: "c1",
              name: "get_order",
              arguments: "{}",
            },
          ],
          usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
        },
      }));
      const dir = writeProject(undefined, [CASES[0]]);
      const result = await runCli(
        run(server.url, "--tool-search", "provider", "-n", "1", "--run-id", "big").map((word) =>
          word === "openai:test-model" ? "openai-responses:test-model" : word,
        ),
        { cwd: dir, env: ENV },
      );
      const [record] = readFileSync(join(dir, "reports", "big", "records.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect([record.error, record.failed_stage]).toEqual([null, null]);
      expect(record.search.searches).toEqual([
        { query: "order", returned: ["get_order"], by: "provider" },
      ]);
      return result.code;
    },
  },
  {
    row: "a traced message holding one long token",
    exit: 0,
    bound: 30_000,
    async meet() {
      const dir = tempDir();
      // 4 MB of base64 with no address in it, then an address to redact.
      const token = Buffer.alloc(3 * 1024 * 1024, 7).toString("base64");
      const goal = `Look at data:image/png;base64,${token} and mail ana@example.com`;
      writeFileSync(join(dir, "big.jsonl"), chatPair(goal, ["get_weather"], { content: "ok" }));
      const result = await runCli(["freeze", "big.jsonl", "--acceptable", "get_weather"], dir);
      const [cases] = Object.entries(yamlFiles(dir)).filter(([file]) => file.startsWith("cases"));
      const frozen = parse(cases[1]).cases[0].goal as string;
      expect(frozen.length).toBeGreaterThan(token.length);
      expect(frozen.endsWith("and mail [REDACTED:email]")).toBe(true);
      return result.code;
    },
  },
  {
    row: "traced tool names unsafe as file or provider names",
    exit: 0,
    bound: 30_000,
    async meet() {
      const dir = tempDir();
      const names = ["get_weather", "../etc/passwd", "a b/c"];
      writeFileSync(join(dir, "unsafe.jsonl"), chatPair("Weather?", names, { content: "ok" }));
      const frozen = await runCli(["freeze", "unsafe.jsonl", "--acceptable", "get_weather"], dir);
      expect(frozen.stderr).toContain(
        '"../etc/passwd" is not a provider-safe name; imported as "etc_passwd"',
      );
      const [registry] = Object.entries(yamlFiles(dir)).filter(([f]) => f.startsWith("registries"));
      const tools = parse(registry[1]).tools;
      expect(tools.map((t: { name: string }) => t.name)).toEqual([
        "get_weather",
        "etc_passwd",
        "a_b_c",
      ]);
      expect(tools[1].declared).toEqual({ name: "../etc/passwd" });
      // The command freeze prints replays from the store: the kept tools are offered as they were.
      const replay = await runCli(
        frozen.stdout.trim().split(" ").slice(1).concat("--run-id", "r"),
        dir,
      );
      expect(replay.code, replay.stderr).toBe(0);
      return frozen.code;
    },
  },
  {
    row: "NUL, ESC, BEL or a bidi override in a model's or a trace's text",
    exit: 0,
    bound: 60_000,
    async meet() {
      const hostile = "\u0000\u001b]0;pwned\u0007\u001b[2J\r\u202eevil\u2066";
      const server = await fake.start(() =>
        openaiReply([{ name: `tool${hostile}`, arguments: "{}" }], `said ${hostile}`),
      );
      const dir = writeProject();
      const result = await runCli(run(server.url, "--run-id", "hostile"), { cwd: dir, env: ENV });
      const html = await runCli(["report", "reports/hostile", "-f", "html", "-o", "r.html"], dir);
      expect(html.code, html.stderr).toBe(0);
      const page = readFileSync(join(dir, "r.html"), "utf8");
      expect(page).not.toMatch(RAW);
      expect(page).toContain("\\u202eevil");
      // A trace's goal and description, frozen: written as escapes, read back whole.
      const goal = `Refund \u202eorder 7\u2066 please`;
      writeFileSync(join(dir, "t.jsonl"), chatPair(goal, ["refund_order"], { content: "ok" }));
      const frozen = await runCli(["freeze", "t.jsonl", "--acceptable", "refund_order"], dir);
      expect(frozen.code, frozen.stderr).toBe(0);
      for (const [file, text] of Object.entries(yamlFiles(join(dir, "cases")))) {
        expect(text, file).not.toMatch(RAW);
        if (file.includes("frozen")) expect(parse(text).cases[0].goal).toBe(goal);
      }
      return result.code;
    },
  },
  {
    row: "`init` / `freeze` over a symbolic link",
    exit: 2,
    bound: 30_000,
    async meet() {
      const dir = tempDir();
      writeFileSync(join(dir, "t.jsonl"), chatPair("Weather?", ["get_weather"], { content: "ok" }));
      const args = ["freeze", "t.jsonl", "--acceptable", "get_weather", "--force"];
      expect((await runCli(args, dir)).code).toBe(0);
      const [cases] = Object.keys(yamlFiles(dir)).filter((file) => file.startsWith("cases"));
      writeFileSync(join(dir, "precious.txt"), "precious");
      const target = join(dir, cases);
      const before = readFileSync(target, "utf8");
      unlinkSync(target); // replaced by a link to a file outside the project
      symlinkSync(join(dir, "precious.txt"), target);
      const result = await runCli(args, dir);
      expect(result.stderr).toMatch(/is a symbolic link; route-eval does not write through links/);
      expect(readFileSync(join(dir, "precious.txt"), "utf8")).toBe("precious");
      expect(before).toContain("get_weather");
      return result.code;
    },
  },
  {
    row: "a trace value nested deeper than 500 levels",
    exit: 2,
    bound: 30_000,
    async meet() {
      const dir = tempDir();
      const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
      const line = `{"request":{"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":${deep}},"response":{"choices":[{"message":{"content":"hi"}}]}}`;
      writeFileSync(
        join(dir, "deep.jsonl"),
        `${chatPair("first", [], { content: "ok" })}${line}\n`,
      );
      const result = await runCli(["monitor", "deep.jsonl"], dir);
      expect([result.stdout, result.stderr]).toEqual([
        "",
        "route-eval: deep.jsonl:2: JSON nested deeper than 500 levels; route-eval reads trace values up to that depth\n",
      ]);
      return result.code;
    },
  },
  {
    row: "a conversation of more than 1,000 turns",
    exit: 2,
    bound: 30_000,
    async meet() {
      const turns = Array.from({ length: 10_000 }, (_, i) => ({
        user: `turn ${i}`,
        acceptable: ["get_order"],
      }));
      const dir = writeProject(undefined, [CASES[0], { id: "long", family: "orders", turns }]);
      const result = await runCli(["run", "--no-progress"], dir);
      expect(result.stderr.trim()).toMatch(
        /cases\.yaml:\d+: case "long": 10,000 turns; a conversation holds at most 1,000 \(each turn is sent with all the turns before it/,
      );
      expect(existsSync(join(dir, "reports"))).toBe(false);
      return result.code;
    },
  },
  {
    row: "trials past 10,000 or searches past 50",
    exit: 2,
    bound: 30_000,
    async meet() {
      const dir = writeProject();
      const refused = [
        ["--trials", "1e9"],
        ["--trials", "auto", "--max-trials", "20000"],
        ["--tool-search", "client", "--max-searches", "100000"],
      ];
      const codes = [];
      for (const flags of refused) {
        const result = await runCli(["run", "--no-progress", ...flags], dir);
        expect(result.stderr).toMatch(/expected a whole number from 1 to (10,000|50)\./);
        codes.push(result.code);
      }
      const config = join(dir, "route-eval.yaml");
      writeFileSync(
        config,
        JSON.stringify({ ...JSON.parse(readFileSync(config, "utf8")), max_trials: 1e9 }),
      );
      const file = await runCli(["run", "--no-progress"], dir);
      expect(file.stderr).toMatch(
        /route-eval\.yaml:\d+: max_trials: must be <= 10000 \(got 1000000000\)/,
      );
      expect(existsSync(join(dir, "reports"))).toBe(false);
      expect(new Set([...codes, file.code]).size).toBe(1);
      return file.code;
    },
  },
];

/** The table under "Faults, exit codes and what is kept": each row's first two cells. */
function documentedRows(): { fault: string; exit: string }[] {
  const text = readFileSync(new URL("../docs/faults.md", import.meta.url), "utf8");
  const table = text.split("### Faults, exit codes and what is kept")[1].split("\n\n")[1];
  return table
    .split("\n")
    .slice(2)
    .map((line) => line.split(" | "))
    .map(([fault, exit]) => ({ fault: fault.replace(/^\| /, ""), exit }));
}

describe("docs/faults.md's table of faults", () => {
  it("has each fault below, with the exit code it ends in", () => {
    const rows = documentedRows();
    for (const fault of FAULTS) {
      const row = rows.find((r) => r.fault.startsWith(fault.row));
      expect(row, fault.row).toBeDefined();
      expect(row?.exit.startsWith(String(fault.exit)), `${fault.row}: ${row?.exit}`).toBe(true);
    }
  });

  for (const fault of FAULTS)
    it(
      `${fault.row}: exit ${fault.exit}`,
      async () => {
        expect(await fault.meet()).toBe(fault.exit);
      },
      fault.bound,
    );
});
