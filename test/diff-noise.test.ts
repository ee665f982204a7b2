/**
 * Flake-aware gating on a model whose choices are seeded-random with known probabilities
 * (test/fixtures/random-model.ts), through the real pipeline and a local OpenAI-compatible
 * server: an A/A diff (two runs of one config, fresh seeds) passes --fail-on-regressed-case in at
 * least 95% of 40 repetitions, while a real regression (a case at 10/10 → about 2/10) is caught;
 * --remeasure-base re-asks the base side through the store; the quarantine file is read and
 * updated.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffRuns } from "../src/app/diff.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import { runCli } from "./support/cli.js";
import { useFakeServers } from "./fixtures/fake-provider.js";
import { liveConfig, removeTempDirs } from "./fixtures/live-project.js";
import { randomModel, writeRandomProject } from "./fixtures/random-model.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = { OPENAI_API_KEY: "sk-test-noise-0123456789" };
const GATE = {
  force: false,
  alpha: 0.05,
  maxDrops: [],
  failOnRegressedCase: true,
  significantOnly: false,
};

/** 12 cases from clearly passing to coin flips. */
const P = [1, 1, 1, 0.95, 0.9, 0.9, 0.8, 0.8, 0.7, 0.6, 0.5, 0.5];
const CASES = P.map((p, i) => ({ id: `case-${String(i).padStart(2, "0")}`, p }));

async function runOnce(
  dir: string,
  url: string,
  seed: number,
  trials: number,
  runId: string,
): Promise<string> {
  const config = liveConfig(dir, {
    endpoint: "openai:random-model",
    base_url: `${url}/v1`,
    seed,
    trials,
    concurrency: 8,
  });
  const { runDir } = await runEvaluation(config, {
    env: ENV,
    now: () => new Date("2026-12-02T00:00:00Z"),
    place: { kind: "new", id: runId },
    gates: false,
  });
  return runDir;
}

describe("diff --fail-on-regressed-case on a seeded-random model", () => {
  it("passes an A/A diff in ≥ 95% of 40 repetitions, and catches a case at 10/10 → 2/10", async () => {
    const dir = writeRandomProject(CASES);
    const same = await fake.start(randomModel(P));
    let passed = 0;
    let flips = 0;
    for (let rep = 0; rep < 40; rep++) {
      const a = await runOnce(dir, same.url, 1000 + 2 * rep, 5, `aa-${rep}-a`);
      const b = await runOnce(dir, same.url, 1001 + 2 * rep, 5, `aa-${rep}-b`);
      const diff = diffRuns(a, b, dir, GATE);
      if (diff.verdict === "pass") passed += 1;
      flips += diff.flips.filter((f) => f.kind === "regressed").length;
    }
    expect(passed).toBeGreaterThanOrEqual(38);
    // The old rule (any pass → fail flip fails the gate) would have fired on these: the noise is real.
    expect(flips).toBeGreaterThan(10);

    // A real regression: case-00 picks its tool always in BASE, with p = 0.2 in CURRENT.
    const broken = await fake.start(randomModel([0.2, ...P.slice(1)]));
    let caught = 0;
    for (let rep = 0; rep < 10; rep++) {
      const a = await runOnce(dir, same.url, 5000 + 2 * rep, 10, `reg-${rep}-a`);
      const b = await runOnce(dir, broken.url, 5001 + 2 * rep, 10, `reg-${rep}-b`);
      const diff = diffRuns(a, b, dir, GATE);
      if (diff.verdict === "fail" && diff.noise.regressed.includes("case-00")) caught += 1;
    }
    expect(caught).toBeGreaterThanOrEqual(9);
  }, 240_000);
});

describe("diff --remeasure-base and the quarantine file", () => {
  it("re-asks the base side N more trials through the store, names flaky cases, and quarantines them", async () => {
    const dir = writeRandomProject(CASES.slice(0, 4));
    const server = await fake.start(randomModel(P.slice(0, 4).map((p, i) => (i === 3 ? 0.5 : p))));
    const args = [
      "-e",
      "openai:random-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--trials",
      "3",
      "--no-gates",
    ];
    expect(
      (await runCli(["run", ...args, "--run-id", "base", "--seed", "1"], { cwd: dir, env: ENV }))
        .code,
    ).toBe(0);
    expect(
      (await runCli(["run", ...args, "--run-id", "current", "--seed", "2"], { cwd: dir, env: ENV }))
        .code,
    ).toBe(0);
    const before = server.requests.length;
    // The endpoint, its base URL and the settings come from the base run's run.json.
    const diffArgs = [
      "diff",
      "reports/base",
      "reports/current",
      "--remeasure-base",
      "4",
      "--no-progress",
      "-f",
      "json",
    ];
    const first = await runCli(diffArgs, { cwd: dir, env: ENV });
    expect(first.code, first.stderr).toBe(0);
    // 4 cases × 4 more trials, with trial indices 3..6 (new seeds).
    expect(server.requests.length - before).toBe(16);
    const remeasured = readFileSync(
      join(dir, "reports", "base", "remeasure", "records.jsonl"),
      "utf8",
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(remeasured.map((r) => r.trial).sort()).toEqual([
      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6,
    ]);
    const diff = JSON.parse(first.stdout);
    expect(diff.noise.remeasured).toBe(4);
    for (const flip of diff.flips) expect(flip.test.base.scored).toBe(7);
    // Recomputed from the records alone: each case's base tally is its run's trials plus the remeasured ones.
    const baseRecords = readFileSync(join(dir, "reports", "base", "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const flip of diff.flips) {
      const mine = [...baseRecords, ...remeasured].filter((r) => r.case_id === flip.case_id);
      expect(flip.test.base.correct).toBe(mine.filter((r) => r.failed_stage === null).length);
    }
    // Asked again: the store answers, no new request.
    expect((await runCli(diffArgs, { cwd: dir, env: ENV })).code).toBe(0);
    expect(server.requests.length - before).toBe(16);

    // case-03 (p = 0.5) disagrees with itself: listed flaky, and --update-quarantine writes it down.
    expect(diff.noise.flaky).toContain("case-03");
    const update = await runCli(
      ["diff", "reports/base", "reports/current", "--update-quarantine"],
      { cwd: dir, env: ENV },
    );
    expect(update.code, update.stderr).toBe(0);
    const file = join(dir, "route-eval.quarantine.yaml");
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, "utf8")).toMatch(
      /^# route-eval diff --quarantine: cases reported, never gated[\s\S]*- case: case-03\n\s+reason: "flaky: /m,
    );
    const quarantined = await runCli(["diff", "reports/base", "reports/current", "-f", "json"], {
      cwd: dir,
      env: ENV,
    });
    expect(JSON.parse(quarantined.stdout).noise.quarantined).toContain("case-03");

    writeFileSync(file, "quarantine:\n  - case: case-03\n    colour: red\n");
    const bad = await runCli(["diff", "reports/base", "reports/current"], { cwd: dir, env: ENV });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "route-eval: route-eval.quarantine.yaml:3: quarantine.0.colour: unknown key (expected case, reason)\n",
    );
  }, 120_000);
});
