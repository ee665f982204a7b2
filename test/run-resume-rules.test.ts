/** `--resume` continues exactly the experiment run.json pins, and redoes errored trials. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  offeredTools,
  openaiError,
  openaiReply,
  useFakeServers,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);

const base = ["run", "--no-progress", "--no-gates", "--no-step-summary"];

async function firstRun(dir: string): Promise<string> {
  const result = await runCli([...base, "--run-id", "first"], dir);
  expect(result.code, result.stderr).toBe(0);
  return join(dir, "reports", "first");
}

describe("--resume refuses another experiment", () => {
  const differing: [string, string[], string][] = [
    ["trials", ["--trials", "3"], "trials 2 → 3"],
    ["temperature", ["--temperature", "0.7"], "temperature 0 → 0.7"],
    ["system prompt", ["--system-prompt", "Be terse."], 'system_prompt "You are the tool router'],
    [
      "retriever and k",
      ["--retriever", "bm25", "-k", "2"],
      'discovery {"retriever":"none"} → {"k":2,"retriever":"bm25"}',
    ],
    ["seed", ["--seed", "9"], "seed 1 → 9"],
    [
      "endpoint",
      ["-e", "openai:other", "--base-url", "http://127.0.0.1:9/v1"],
      "endpoint baseline → openai",
    ],
  ];
  for (const [what, flags, named] of differing) {
    it(`a different ${what}: exit 2 naming it, nothing written`, async () => {
      const dir = writeProject();
      const runDir = await firstRun(dir);
      const before = readFileSync(join(runDir, "records.jsonl"), "utf8");
      const result = await runCli([...base, "--resume", runDir, ...flags], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("this would not continue the same experiment:");
      expect(result.stderr).toContain(named);
      expect(readFileSync(join(runDir, "records.jsonl"), "utf8")).toBe(before);
    });
  }

  it("an edited tool description or case: exit 2 naming the tool and the case", async () => {
    const dir = writeProject();
    const runDir = await firstRun(dir);
    const registry = join(dir, "registries", "shop.yaml");
    writeFileSync(
      registry,
      readFileSync(registry, "utf8").replace("Refund an order.", "Refund an order, fully."),
    );
    const cases = join(dir, "cases", "cases.yaml");
    writeFileSync(
      cases,
      readFileSync(cases, "utf8").replace("Find my teapot order", "Find my kettle order"),
    );
    const result = await runCli([...base, "--resume", runDir], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("tool refund_order: description changed");
    expect(result.stderr).toContain("case order-free-text: changed");
  });

  it("continues with no differences, taking the settings from run.json (here --trials 3 given at the start)", async () => {
    const dir = writeProject();
    expect((await runCli([...base, "--run-id", "three", "--trials", "3"], dir)).code).toBe(0);
    const runDir = join(dir, "reports", "three");
    const result = await runCli([...base, "--resume", runDir, "-f", "json"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`resuming ${runDir}: 9 of 9 trials kept`);
    expect(JSON.parse(result.stdout).metrics.trials).toBe(9);
  });

  it("a folder that is not a route-eval run: exit 2, and no run files written into it", async () => {
    const dir = writeProject();
    const result = await runCli([...base, "--resume", join(dir, "cases")], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("not a route-eval run directory (it has no run.json)");
    expect(readFileSync(join(dir, "cases", "cases.yaml"), "utf8")).toContain("order-free-text");
  });
});

describe("--resume redoes errored trials", () => {
  const servers = useFakeServers();

  it("asks each errored trial again, says how many, and ends with every trial scored once", async () => {
    const dir = writeProject();
    let failing = true;
    const server = await servers.start((request) =>
      failing && JSON.stringify(request.body).includes("teapot")
        ? openaiError(413, "too long today")
        : openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const flags = [
      ...base,
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--mode",
      "live",
      "--retry-base-ms",
      "1",
    ];
    const env = { OPENAI_API_KEY: "sk-test-redo-0123456789" };
    const first = await runCli([...flags, "--run-id", "redo", "-f", "json"], { cwd: dir, env });
    expect(JSON.parse(first.stdout).errored).toHaveLength(2);
    failing = false;
    const before = server.requests.length;
    const runDir = join(dir, "reports", "redo");
    const second = await runCli(
      [...flags.filter((f) => f !== "--mode" && f !== "live"), "--resume", runDir, "-f", "json"],
      { cwd: dir, env },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain("4 of 6 trials kept; 2 errored trials will be asked again");
    expect(server.requests.length - before).toBe(2);
    const report = JSON.parse(second.stdout);
    expect([report.metrics.trials, report.errored.length]).toEqual([6, 0]);
    const lines = readFileSync(join(runDir, "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(new Set(lines.map((r) => `${r.case_id}#${r.trial}`)).size).toBe(6);
    expect(lines).toHaveLength(6);
  });
});
