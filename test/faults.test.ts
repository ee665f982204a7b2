/**
 * Faults that must end a run cleanly, with the right exit code, and nothing written outside its
 * folder (issue "every fault ends in the right exit code"): real processes, local servers and real
 * file systems (a 64 KiB tmpfs, a read-only one), the CLI driven whole.
 */
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { buildReport } from "../src/report/build-report.js";
import { sortKeys } from "../src/text/canonical-json.js";
import { buildMeta, buildRecords } from "./fixtures/diff-records.js";
import { openaiError, openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli, tempDir } from "./support/cli.js";

afterAll(removeTempDirs);
const ROOT = resolve(".");
const MISBEHAVE = fileURLToPath(new URL("./fixtures/endpoints/misbehave.js", import.meta.url));
const fake = useFakeServers();

/** Every running process whose command line holds `mark`. */
function processesWith(mark: string): string[] {
  return execFileSync("ps", ["-eww", "-o", "args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(mark) && !line.startsWith("ps "));
}

async function gone(mark: string): Promise<string[]> {
  for (let i = 0; i < 50 && processesWith(mark).length > 0; i++)
    await new Promise((r) => setTimeout(r, 100));
  return processesWith(mark);
}

describe("a command endpoint whose agent hides behind a shell or a pipe", () => {
  it("an agent stuck behind a shim (a shell that waits for it) is killed with its whole group: its slot is freed, the trial is asked again, the run ends", async () => {
    const mark = `mark-once-${process.pid}-${Date.now()}`;
    const dir = writeProject();
    const result = await runCli(
      [
        "run",
        "-e",
        "command",
        "--command",
        `sh -c "node ${MISBEHAVE} stuck-once ${mark}; true"`,
        "--concurrency",
        "1",
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "--timeout-ms",
        "3000",
        "--retry-base-ms",
        "1",
        "--run-id",
        "once",
      ],
      { cwd: dir, env: { ...process.env, ONCE_FILE: join(dir, "hung-once") } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("errored");
    expect(await gone(mark)).toEqual([]);
  }, 60_000);

  it("an agent writing a reply line past 8 MB through `| cat`: killed whole at once, the run ends (exit 3), no process is left", async () => {
    const mark = `mark-huge-${process.pid}-${Date.now()}`;
    const dir = writeProject();
    const result = await runCli(
      [
        "run",
        "-e",
        "command",
        "--command",
        `node ${MISBEHAVE} huge ${mark} | cat`,
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "--retry-base-ms",
        "1",
        "--retry-budget-ms",
        "2000",
        "--run-id",
        "huge",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toMatch(
      /failed more than 6 times in a row \(last: wrote more than 8388608 bytes/,
    );
    expect(await gone(mark)).toEqual([]);
  }, 60_000);
});

describe("--run-id names one folder inside the reports folder", () => {
  it("refuses ../ and absolute ids (with --force too), and leaves the folder it pointed at alone", async () => {
    const dir = writeProject();
    const victim = join(dir, "victim");
    mkdirSync(victim);
    writeFileSync(join(victim, "keep.txt"), "precious");
    for (const id of ["../victim", "../../victim", victim, "a/b", ".."]) {
      const result = await runCli(["run", "--run-id", id, "--force", "--no-progress"], dir);
      expect(result.code, id).toBe(2);
      expect(result.stderr, id).toMatch(
        /^route-eval: --run-id .*: an id names one directory inside the reports folder/,
      );
    }
    expect(readFileSync(join(victim, "keep.txt"), "utf8")).toBe("precious");
    expect(existsSync(join(dir, "reports"))).toBe(false);
    const sweep = await runCli(["sweep", "--sweep-id", "../out", "--sizes", "5", "-n", "1"], dir);
    expect(sweep.code).toBe(2);
    expect(sweep.stderr).toContain('--sweep-id "../out"');
  }, 60_000);
});

/** A tmpfs mounted for the test (root only, as CI runs); null where mounting is not permitted. */
function mountTmpfs(options: string): string | null {
  const dir = tempDir("route-eval-mount-");
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", options, "tmpfs", dir], { stdio: "ignore" });
    mounted.push(dir);
    return dir;
  } catch {
    return null;
  }
}
const mounted: string[] = [];
afterAll(() => {
  for (const dir of mounted) execFileSync("umount", ["-l", dir], { stdio: "ignore" });
});

describe("an output folder that cannot be written", () => {
  const full = mountTmpfs("size=64k");
  const readOnly = mountTmpfs("ro,size=64k");
  it.skipIf(full === null || readOnly === null)(
    "a full disk or a read-only folder is exit 2 naming the path, not an internal error",
    async () => {
      const full64k = full ?? "";
      const result = await runCli(
        ["run", "--out-dir", full64k, "--run-id", "r", "--no-progress", "-n", "3"],
        ROOT,
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `route-eval: cannot write ${full64k}/r/(records|sets)\\.jsonl: no space left on the device \\(ENOSPC\\); free space or choose a writable --out-dir`,
        ),
      );
      expect(result.stderr).not.toContain("internal error");
      const denied = await runCli(
        ["run", "--out-dir", join(readOnly ?? "", "reports"), "--no-progress", "-n", "1"],
        ROOT,
      );
      expect(denied.code).toBe(2);
      expect(denied.stderr).toMatch(
        /route-eval: cannot \w+ .*: the file system is read-only \(EROFS\)/,
      );
    },
    60_000,
  );
});

describe("a very large suite", () => {
  it("builds the report of 200,000 cases (no spread of a per-case array)", () => {
    const outcomes: Record<string, string> = {};
    for (let i = 0; i < 200_000; i++) outcomes[`c${i}`] = i % 3 === 0 ? "F" : "P";
    const records = buildRecords(outcomes);
    const report = buildReport(buildMeta("big", records), records);
    expect(report.metrics.trials).toBe(200_000);
    expect(report.metrics.selection_accuracy.numerator).toBe(133_333);
  }, 120_000);
});

describe("the response store", () => {
  it("refuses an entry whose reply was edited after it was written (replay: exit 3 naming it; cached: asked again)", async () => {
    const server = await fake.start(() => openaiReply([{ name: "get_order", arguments: "{}" }]));
    const dir = writeProject();
    const env = { OPENAI_API_KEY: "sk-test-0123456789" };
    const args = [
      "run",
      "-e",
      "openai:m",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--no-gates",
      "-n",
      "1",
      "-f",
      "json",
    ];
    const first = await runCli([...args, "--run-id", "first"], { cwd: dir, env });
    expect(first.code, first.stderr).toBe(0);
    const packs = join(dir, ".route-eval/store/packs");
    const pack = join(packs, readdirSync(packs)[0]);
    const lines = readFileSync(pack, "utf8").split("\n");
    lines[0] = lines[0].replace('"name":"get_order"', '"name":"search_orders"');
    expect(lines[0]).toContain('"name":"search_orders"');
    writeFileSync(pack, lines.join("\n"));
    const replay = await runCli([...args, "--run-id", "replay", "--mode", "replay"], {
      cwd: dir,
      env,
    });
    expect(replay.code).toBe(3);
    expect(replay.stderr).toMatch(/was changed after it was written/);
    const asked = server.requests.length;
    const cached = await runCli([...args, "--run-id", "cached"], { cwd: dir, env });
    expect(cached.code, cached.stderr).toBe(0);
    expect(server.requests.length).toBe(asked + 1);
    // The edited decision is not scored: the answer asked again is the server's, as in the first run.
    expect(JSON.parse(cached.stdout).metrics.selection_errors).toEqual(
      JSON.parse(first.stdout).metrics.selection_errors,
    );
  }, 60_000);

  it("stores each reply with its keys sorted (its seal is checked on the text as stored), and still replays an older entry whose reply is not", async () => {
    const server = await fake.start(() => openaiReply([{ name: "get_order", arguments: "{}" }]));
    const dir = writeProject();
    const env = { OPENAI_API_KEY: "sk-test-0123456789" };
    const args = ["run", "-e", "openai:m", "--base-url", `${server.url}/v1`, "--no-progress"];
    const run = (...more: string[]) =>
      runCli([...args, "--no-gates", "-n", "1", "-f", "json", ...more], { cwd: dir, env });
    const first = await run("--run-id", "first");
    expect(first.code, first.stderr).toBe(0);
    const packs = join(dir, ".route-eval/store/packs");
    const pack = join(packs, readdirSync(packs)[0]);
    const lines = readFileSync(pack, "utf8").split("\n");
    const [key, json] = lines[0].split("\t");
    const entry = JSON.parse(json);
    const replyText = json.slice(json.indexOf('"reply":') + 8, json.lastIndexOf(',"reply_hash":'));
    expect(replyText).toBe(JSON.stringify(sortKeys(entry.reply)));
    expect(createHash("sha256").update(replyText).digest("hex")).toBe(entry.reply_hash);
    // An entry written before replies were sorted: the same reply, its keys in the server's order.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([k, v]) => [k, reversed(v)]),
            )
          : value;
    const older = { ...entry, reply: reversed(entry.reply) };
    expect(JSON.stringify(older.reply)).not.toBe(replyText);
    writeFileSync(
      pack,
      lines.map((line, i) => (i === 0 ? `${key}\t${JSON.stringify(older)}` : line)).join("\n"),
    );
    const asked = server.requests.length;
    const replay = await run("--run-id", "replay", "--mode", "replay");
    expect(replay.code, replay.stderr).toBe(0);
    expect(server.requests.length).toBe(asked);
    expect(JSON.parse(replay.stdout).metrics).toEqual(JSON.parse(first.stdout).metrics);
  }, 60_000);
});

describe("exit codes", () => {
  it("a missing API key is bad configuration: exit 2", async () => {
    const result = await runCli(["run", "-e", "openai:gpt-4.1-mini", "--no-progress"], {
      cwd: writeProject(),
      env: {},
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^route-eval: OPENAI_API_KEY is not set/m);
  }, 60_000);

  it("a shard is not gated (merge is); the unsharded run is", async () => {
    const dir = tempDir();
    for (const part of ["cases", "registries", "schemas"])
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    writeFileSync(
      join(dir, "route-eval.yaml"),
      `${readFileSync(join(ROOT, "route-eval.yaml"), "utf8")}\n`.replace(
        'selection_accuracy: ">= 0.6"',
        'selection_accuracy: ">= 0.99"',
      ),
    );
    const whole = await runCli(["run", "--no-progress", "-n", "1", "--run-id", "whole"], dir);
    expect(whole.code).toBe(1);
    const shard = await runCli(
      ["run", "--no-progress", "-n", "1", "--shard", "2/2", "--run-id", "s2"],
      dir,
    );
    expect(shard.code, shard.stderr).toBe(0);
    expect(shard.stderr).toContain("a shard is not gated");
    expect(
      (await runCli(["run", "--no-progress", "-n", "1", "--shard", "1/2", "--run-id", "s1"], dir))
        .code,
    ).toBe(0);
    expect((await runCli(["merge", "merged", "reports/s1", "reports/s2"], dir)).code).toBe(1);
  }, 60_000);

  it("every trial errored with --max-retries 0 (too few to trip the breaker) is exit 3, never green", async () => {
    const server = await fake.start(() => openaiError(500, "upstream down"));
    const dir = writeProject();
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:m",
        "--base-url",
        `${server.url}/v1`,
        "--mode",
        "live",
        "--max-retries",
        "0",
        "--no-progress",
        "--no-gates",
        "-n",
        "1",
        "--run-id",
        "down",
      ],
      { cwd: dir, env: { OPENAI_API_KEY: "sk-test-0123456789" } },
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /route-eval: \d+ of \d+ trials errored .*route-eval run --resume /,
    );
    // An errored trial has no latency (it got no answer), not 0 ms.
    const records = readFileSync(join(dir, "reports/down/records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(records.map((r) => r.latency_ms)).toEqual(records.map(() => null));
  }, 60_000);
});

describe("timings", () => {
  it("a store hit reports the replay's own latency and keeps the original call's as recorded_latency_ms", async () => {
    const server = await fake.start(() => ({
      ...openaiReply([{ name: "get_order", arguments: "{}" }]),
      delayMs: 150,
    }));
    const dir = writeProject();
    const env = { OPENAI_API_KEY: "sk-test-0123456789" };
    const args = [
      "run",
      "-e",
      "openai:m",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--no-gates",
      "-n",
      "1",
    ];
    expect((await runCli([...args, "--run-id", "live"], { cwd: dir, env })).code).toBe(0);
    expect(
      (await runCli([...args, "--run-id", "replay", "--mode", "replay"], { cwd: dir, env })).code,
    ).toBe(0);
    const read = (id: string) =>
      readFileSync(join(dir, "reports", id, "records.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
    const live = new Map(read("live").map((r) => [`${r.case_id}/${r.trial}`, r]));
    for (const r of read("replay")) {
      const original = live.get(`${r.case_id}/${r.trial}`);
      expect(original.latency_ms).toBeGreaterThanOrEqual(150);
      expect(original.recorded_latency_ms).toBeUndefined();
      expect(r.recorded_latency_ms).toBe(original.latency_ms);
      expect(typeof r.latency_ms).toBe("number");
      expect(r.latency_ms).not.toBe(original.latency_ms); // this run's own (a store read), not the call it replays
    }
  }, 60_000);

  it("sweep prints progress when stderr is not a terminal, as run does", async () => {
    const dir = tempDir();
    for (const part of ["route-eval.yaml", "cases", "registries", "schemas"])
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    const sweep = await runCli(["sweep", "--sizes", "5", "-n", "1"], dir);
    expect(sweep.code).toBe(0);
    expect(sweep.stderr).toMatch(/route-eval: 106\/106 trials \(100%\)/);
  }, 60_000);
});

describe("a CLI started while dist/ is being replaced (npm test rebuilds it)", () => {
  it("waits for the rename and runs, instead of crashing with ERR_MODULE_NOT_FOUND", async () => {
    const dir = tempDir();
    cpSync(join(ROOT, "bin"), join(dir, "bin"), { recursive: true });
    cpSync(join(ROOT, "dist"), join(dir, ".dist-next"), { recursive: true });
    cpSync(join(ROOT, "package.json"), join(dir, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    // A preload says when the process has started; dist/ appears a moment later, after the CLI looked for it.
    writeFileSync(join(dir, "started.cjs"), 'process.stderr.write("started\\n");');
    const child = spawn(
      process.execPath,
      ["--require", join(dir, "started.cjs"), join(dir, "bin/route-eval.js"), "--version"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      if (err === "started\n")
        setTimeout(() => renameSync(join(dir, ".dist-next"), join(dir, "dist")), 50);
    });
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(err).toBe("started\n");
    expect(code).toBe(0);
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+/);
  }, 60_000);
});

describe("text from a model in the terminal report", () => {
  it("a 20,000-character tool name is cut in tables (its length said), and the report renders at once", async () => {
    const dir = writeProject();
    writeFileSync(
      join(dir, "agent.mjs"),
      `import { createInterface } from "node:readline";
for await (const line of createInterface({ input: process.stdin })) {
  const r = JSON.parse(line);
  process.stdout.write(JSON.stringify({ id: r.id, tool: "t".repeat(20000), arguments: {} }) + "\\n");
}
`,
    );
    const run = await runCli(
      [
        "run",
        "-e",
        "command",
        "--command",
        "node agent.mjs",
        "--mode",
        "live",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--run-id",
        "long",
        "-f",
        "json",
      ],
      dir,
    );
    expect(run.code, run.stderr).toBe(0);
    const report = await runCli(["report", "reports/long"], { cwd: dir, env: { COLUMNS: "100" } });
    expect(report.code).toBe(0);
    expect(report.stdout).toContain("… (20000 characters)");
    for (const line of report.stdout.split("\n"))
      expect([...line].length, line.slice(0, 80)).toBeLessThanOrEqual(100);
  }, 60_000);
});

describe("--resume continues the run as it was started", () => {
  it("with its own --cases, --concurrency and --timeout-ms, not the config's", async () => {
    const dir = writeProject();
    writeFileSync(
      join(dir, "cases", "more.yaml"),
      JSON.stringify({
        registry: "../registries/shop.yaml",
        cases: [
          { id: "extra", goal: "Email the customer their receipt.", acceptable: ["send_email"] },
        ],
      }),
    );
    const started = await runCli(
      [
        "run",
        "--cases",
        "cases/cases.yaml",
        "--concurrency",
        "1",
        "--timeout-ms",
        "1234",
        "--run-id",
        "r",
        "--no-progress",
        "--no-gates",
      ],
      dir,
    );
    expect(started.code, started.stderr).toBe(0);
    const records = join(dir, "reports/r/records.jsonl");
    const lines = readFileSync(records, "utf8").trim().split("\n");
    writeFileSync(records, `${lines.slice(0, -2).join("\n")}\n`); // interrupted: the last two trials missing
    const resumed = await runCli(
      ["run", "--resume", "reports/r", "--no-progress", "--no-gates"],
      dir,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(readFileSync(records, "utf8").trim().split("\n")).toHaveLength(lines.length);
    const config = JSON.parse(readFileSync(join(dir, "reports/r/run.json"), "utf8")).config;
    expect(config).toMatchObject({ cases: ["cases/cases.yaml"], concurrency: 1, timeout_ms: 1234 });
  }, 60_000);
});

describe("a prompt over the model's context (a local server's HTTP 400)", () => {
  it("errors that trial with the reason and goes on; a 400 for every request stops the run with a hint", async () => {
    const overflow = {
      status: 400,
      body: {
        error: {
          message:
            "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens.",
          type: "invalid_request_error",
        },
      },
    };
    const server = await fake.start((request) =>
      JSON.stringify(request.body).includes("refund")
        ? overflow
        : openaiReply([{ name: "get_order", arguments: "{}" }]),
    );
    const dir = writeProject();
    const env = { OPENAI_API_KEY: "sk-test-0123456789" };
    const args = [
      "run",
      "-e",
      "openai:m",
      "--base-url",
      `${server.url}/v1`,
      "--mode",
      "live",
      "--no-progress",
      "--no-gates",
      "-f",
      "json",
      "--concurrency",
      "1",
    ];
    const some = await runCli([...args, "--run-id", "some"], { cwd: dir, env });
    expect(some.code, some.stderr).toBe(3); // errored trials: never green, but the run finished
    const report = JSON.parse(some.stdout);
    expect(report.metrics.scored).toBeGreaterThan(0);
    expect(report.metrics.errored).toBeGreaterThan(0);
    for (const trial of report.errored)
      expect(trial.error).toMatch(
        /^the prompt exceeds the model's context \(HTTP 400: This model's maximum context length is 4096 tokens/,
      );

    const every = await fake.start(() => overflow);
    const stopped = await runCli(
      [...args, "--base-url", `${every.url}/v1`, "-n", "3", "--run-id", "every"],
      { cwd: dir, env },
    );
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toMatch(
      /every one of the first 6 trials was rejected alike: the prompt exceeds the model's context/,
    );
    expect(stopped.stderr).toContain("--resume");
    expect(every.requests.length).toBeLessThan(9 + 6); // stopped early, not every trial asked
  }, 60_000);
});

describe("merge and report take only the records a run plans", () => {
  it("refuses a record outside the plan, two copies of one shard, and an OUT that is one of the shards", async () => {
    const dir = tempDir();
    for (const part of ["route-eval.yaml", "cases", "registries", "schemas"])
      cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    const run = (...args: string[]) =>
      runCli(["run", "--no-progress", "--no-gates", "-n", "1", ...args], dir);
    expect((await run("--shard", "1/2", "--run-id", "s1")).code).toBe(0);
    expect((await run("--shard", "2/2", "--run-id", "s2")).code).toBe(0);
    expect((await run("--shard", "1/2", "--run-id", "s1b")).code).toBe(0);
    expect((await run("--run-id", "whole")).code).toBe(0);
    const merge = (...args: string[]) => runCli(["merge", ...args], dir);

    const twice = await merge("m1", "reports/s1", "reports/s1b", "reports/s2");
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/both shard 1\/2 \(the same shard given twice\?\)/);

    const into = await merge("reports/s1", "reports/s1", "reports/s2", "--force");
    expect(into.code).toBe(2);
    expect(into.stderr).toContain("is (or holds, or is inside) the shard reports/s1");
    expect(existsSync(join(dir, "reports/s1/records.jsonl"))).toBe(true);

    const records = join(dir, "reports/s1/records.jsonl");
    const [line] = readFileSync(records, "utf8").split("\n");
    const tamper = async (extra: Record<string, unknown>, message: RegExp) => {
      const original = readFileSync(records, "utf8");
      writeFileSync(records, `${original}${JSON.stringify({ ...JSON.parse(line), ...extra })}\n`);
      const merged = await merge("m2", "reports/s1", "reports/s2");
      expect(merged.code, merged.stderr).toBe(2);
      expect(merged.stderr).toMatch(message);
      writeFileSync(records, original);
    };
    await tamper({ trial: 99 }, /trial 99: the run plans trials 0–0 of each case/);
    await tamper({ case_id: "a-13th-case" }, /the run has no case "a-13th-case"/);

    const whole = join(dir, "reports/whole/records.jsonl");
    writeFileSync(
      whole,
      `${readFileSync(whole, "utf8")}${JSON.stringify({ ...JSON.parse(readFileSync(whole, "utf8").split("\n")[0]), trial: 99 })}\n`,
    );
    const report = await runCli(["report", "reports/whole"], dir);
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(/records\.jsonl: case ".*" trial 99: the run plans trials 0–0/);
    expect((await merge("m3", "reports/s1", "reports/s2")).code).toBe(0);
  }, 120_000);
});
