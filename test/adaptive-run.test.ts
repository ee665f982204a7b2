/**
 * Adaptive trials through the real pipeline, on a local OpenAI-compatible server whose choices are
 * seeded-random with known probabilities (test/fixtures/random-model.ts): clearly passing and
 * clearly failing cases are decided early and the calls saved against the fixed plan are counted;
 * every decision is recomputed from the records alone; a replay, a resumed run and two merged
 * shards stop every case where the whole run did.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { decideCase } from "../src/metrics/e-process.js";
import type { Report } from "../src/types.js";
import { runCli } from "./support/cli.js";
import { useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs } from "./fixtures/live-project.js";
import { randomModel, writeRandomProject } from "./fixtures/random-model.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = { OPENAI_API_KEY: "sk-test-adaptive-0123456789" };

/** Six clearly passing cases (p = 1) and six clearly failing ones (p = 0.3). */
const P = [1, 1, 1, 1, 1, 1, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3];
const CASES = P.map((p, i) => ({ id: `case-${String(i).padStart(2, "0")}`, p }));

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function reportOf(dir: string): Report {
  return JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as Report;
}

describe("run --adaptive on a seeded-random model", () => {
  it("decides clear cases early, counts the calls saved, and every decision follows from the records", async () => {
    const dir = writeRandomProject(CASES);
    const server = await fake.start(randomModel(P));
    const args = [
      "-e",
      "openai:random-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--no-gates",
      "--adaptive",
      "0.8",
      "--max-trials",
      "60",
      "--concurrency",
      "8",
    ];
    const run = await runCli(["run", ...args, "--run-id", "whole"], { cwd: dir, env: ENV });
    expect(run.code, run.stderr).toBe(0);
    const report = reportOf(join(dir, "reports", "whole"));
    const adaptive = report.adaptive;
    expect(adaptive).toMatchObject({
      target: 0.8,
      source: "adaptive 0.8",
      alpha: 0.05,
      max_trials: 60,
      pass: 6,
      fail: 6,
      undecided: 0,
      fixed_plan_calls: 720,
    });
    expect(adaptive?.case_alpha).toBeCloseTo(0.05 / 12, 15);
    // ≥ 40% fewer calls than 60 trials for every case.
    expect(adaptive?.saved).toBeGreaterThanOrEqual(0.4);
    expect(run.stdout).toContain("decided pass 6 · decided fail 6 · undecided 0 (of 12 cases)");
    const page = await runCli(["report", join(dir, "reports", "whole"), "-f", "html"], {
      cwd: dir,
      env: ENV,
    });
    expect(page.code, page.stderr).toBe(0);
    const html = readFileSync(join(dir, "reports", "whole", "report.html"), "utf8");
    expect(html).toContain('<table id="adaptive-table">');
    expect(html).toContain("decided pass 6 · decided fail 6 · undecided 0 (of 12 cases)");

    // From the records alone: each case's outcomes in trial order, decided by the same rule.
    const records = lines(join(dir, "reports", "whole", "records.jsonl")) as {
      case_id: string;
      trial: number;
      failed_stage: string | null;
    }[];
    expect(records).toHaveLength(adaptive?.calls ?? -1);
    expect(server.requests).toHaveLength(records.length);
    for (const c of adaptive?.cases ?? []) {
      const mine = records.filter((r) => r.case_id === c.case_id).sort((a, b) => a.trial - b.trial);
      const verdict = decideCase(
        mine.map((r) => r.failed_stage === null),
        0.8,
        0.05 / 12,
      );
      expect([c.decision, c.trials, c.correct]).toEqual([
        verdict.decision,
        verdict.trials,
        verdict.successes,
      ]);
      // No trial after the stop: the case stopped where it was decided.
      expect(mine).toHaveLength(verdict.trials);
      expect(mine.map((r) => r.trial)).toEqual(Array.from({ length: mine.length }, (_, i) => i));
    }

    // A replay of the same run asks nothing and stops every case at the same trial.
    const asked = server.requests.length;
    const replay = await runCli(["run", ...args, "--run-id", "replayed", "--mode", "replay"], {
      cwd: dir,
      env: ENV,
    });
    expect(replay.code, replay.stderr).toBe(0);
    expect(server.requests.length).toBe(asked);
    expect(reportOf(join(dir, "reports", "replayed")).adaptive?.cases).toEqual(adaptive?.cases);

    // Interrupted after 40 trials, resumed: the same decisions, the store answering what was asked.
    const cut = join(dir, "reports", "cut");
    await runCli(["run", ...args, "--run-id", "cut"], { cwd: dir, env: ENV });
    const kept = readFileSync(join(cut, "records.jsonl"), "utf8")
      .split("\n")
      .slice(0, 40)
      .join("\n");
    writeFileSync(join(cut, "records.jsonl"), `${kept}\n`);
    const resumed = await runCli(["run", ...args, "--resume", cut], { cwd: dir, env: ENV });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(reportOf(cut).adaptive?.cases).toEqual(adaptive?.cases);

    // Two shards (a case stays in one), merged: the same decisions as the whole run.
    for (const shard of ["1/2", "2/2"]) {
      const part = await runCli(
        ["run", ...args, "--run-id", `shard-${shard[0]}`, "--shard", shard],
        { cwd: dir, env: ENV },
      );
      expect(part.code, part.stderr).toBe(0);
    }
    const shardCases = [1, 2].map(
      (i) =>
        new Set(lines(join(dir, "reports", `shard-${i}`, "records.jsonl")).map((r) => r.case_id)),
    );
    for (const id of shardCases[0]) expect(shardCases[1].has(id)).toBe(false);
    const merged = await runCli(
      [
        "merge",
        join(dir, "reports", "merged"),
        join(dir, "reports", "shard-1"),
        join(dir, "reports", "shard-2"),
      ],
      { cwd: dir, env: ENV },
    );
    expect(merged.code, merged.stderr).toBe(0);
    expect(reportOf(join(dir, "reports", "merged")).adaptive?.cases).toEqual(adaptive?.cases);
  }, 180_000);

  it("trials: auto takes θ from the gates, and refuses without one", async () => {
    const dir = writeRandomProject(CASES.slice(0, 2));
    const server = await fake.start(randomModel([1, 0.3]));
    const args = [
      "-e",
      "openai:random-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--max-trials",
      "30",
    ];
    const none = await runCli(["run", ...args, "--trials", "auto"], { cwd: dir, env: ENV });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(
      "trials: auto (adaptive: auto) decides each case against a gate, and none applies",
    );
    const config = JSON.parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(
      join(dir, "route-eval.yaml"),
      JSON.stringify({ ...config, gates: { pass_hat_k: { k: 2, min: 0.64 } } }),
    );
    const auto = await runCli(["run", ...args, "--trials", "auto", "--run-id", "auto"], {
      cwd: dir,
      env: ENV,
    });
    const report = reportOf(join(dir, "reports", "auto"));
    expect(report.adaptive?.target).toBeCloseTo(0.8, 12);
    expect(report.adaptive?.source).toBe("gate pass_hat_k {k: 2, min: 0.64} (θ = 0.64^(1/2))");
    expect(auto.stderr).not.toContain("Error");
    expect([report.adaptive?.pass, report.adaptive?.fail]).toEqual([1, 1]);
  }, 60_000);
});

describe("adaptive trials' error rate through the pipeline", () => {
  it("cases at p = θ are falsely certified 'pass' at most α of the time over 200 seeded runs", async () => {
    const { runEvaluation } = await import("../src/trial/evaluate.js");
    const { liveConfig } = await import("./fixtures/live-project.js");
    const dir = writeRandomProject(CASES.slice(0, 2));
    // Both cases pick their tool with p = 0.8 = θ: the hardest null for a pass.
    const server = await fake.start(randomModel([0.8, 0.8]));
    let falsePass = 0;
    let decided = 0;
    for (let rep = 0; rep < 200; rep++) {
      const config = liveConfig(dir, {
        endpoint: "openai:random-model",
        base_url: `${server.url}/v1`,
        seed: 10_000 + rep,
        adaptive: 0.8,
        max_trials: 40,
        concurrency: 2,
      });
      const { report } = await runEvaluation(config, {
        env: ENV,
        now: () => new Date("2026-12-02T00:00:00Z"),
        place: { kind: "new", id: `null-${rep}` },
        gates: false,
      });
      falsePass += report.adaptive?.pass ?? 0;
      decided += (report.adaptive?.pass ?? 0) + (report.adaptive?.fail ?? 0);
    }
    // 400 case decisions, each falsely "pass" with probability ≤ α/2 = 0.025: the family rate ≤ α.
    expect(falsePass / 200).toBeLessThanOrEqual(0.05);
    expect(decided).toBeLessThan(400); // near θ, most cases run to the cap undecided
  }, 240_000);
});

describe("an adaptive run gates on what it decided (issue 48)", () => {
  // Five cases that always pass and five at 0.2–0.3: the suite's mean (each case once) is 0.63.
  const P = [1, 1, 1, 1, 1, 0.3, 0.3, 0.25, 0.25, 0.2];
  const cases = P.map((p, i) => ({ id: `case-${String(i).padStart(2, "0")}`, p }));

  it("a 0.8 gate fails on the case-weighted rate in every one of 20 seeds, whose interval covers the suite's mean, where the pooled rate leans to the passing cases' extra trials", async () => {
    const dir = writeRandomProject(cases);
    const config = JSON.parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(
      join(dir, "route-eval.yaml"),
      JSON.stringify({ ...config, gates: { selection_accuracy: ">= 0.8" } }),
    );
    const pooled: number[] = [];
    let covered = 0;
    const mean = P.reduce((a, b) => a + b, 0) / P.length;
    for (let salt = 0; salt < 20; salt++) {
      const server = await fake.start(randomModel(P, salt));
      const run = await runCli(
        [
          "run",
          "-e",
          "openai:random-model",
          "--base-url",
          `${server.url}/v1`,
          "--no-progress",
          "--retry-base-ms",
          "1",
          "--trials",
          "auto",
          "--max-trials",
          "60",
          "--concurrency",
          "8",
          "--run-id",
          `seed-${salt}`,
        ],
        { cwd: dir, env: ENV },
      );
      const report = reportOf(join(dir, "reports", `seed-${salt}`));
      const [gate] = report.gates;
      expect(run.code, `seed ${salt}: ${gate.reason}`).toBe(1);
      expect(gate.reason).toMatch(
        /^selection_accuracy \(case-weighted: an adaptive run gives each case its own trials\) 0\.\d+ \(mean of 10 cases' own rates, 0\.\d+–0\.\d+\) is below 0\.8$/,
      );
      // From the report's own case rows (every trial reaches selection here): the mean of the cases' rates.
      const rows = report.cases.map((c) => c.correct / (c.trials - c.errored));
      expect(gate.value).toBeCloseTo(rows.reduce((a, b) => a + b, 0) / rows.length, 12);
      const [, low, high] = /, ([01](?:\.\d+)?)–([01](?:\.\d+)?)\)/.exec(gate.reason) ?? [];
      if (Number(low) <= mean && mean <= Number(high)) covered += 1;
      pooled.push(report.metrics.selection_accuracy.value ?? 0);
      expect(pooled.at(-1)).toBeGreaterThan(gate.value ?? 1);
      expect(run.stdout).toMatch(/ × \d+–\d+ trials \(adaptive, \d+ in all, cap 60\)/);
    }
    // The case-weighted estimate's interval covers the suite's mean (0.6) in at least 90% of seeds.
    expect(covered).toBeGreaterThanOrEqual(18);
  }, 300_000);

  it("says before the first call when no case can be certified to pass within the cap", async () => {
    const dir = writeRandomProject(cases);
    const server = await fake.start(randomModel(P));
    const run = await runCli(
      [
        "run",
        "-e",
        "openai:random-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--retry-base-ms",
        "1",
        "--adaptive",
        "0.9",
        "--max-trials",
        "60",
        "--concurrency",
        "8",
      ],
      { cwd: dir, env: ENV },
    );
    expect(run.code, run.stderr).toBe(0);
    // α 0.05 over 10 cases: 0.005 each; a pass at θ 0.9 needs 69 correct trials in a row.
    expect(run.stderr.split("\n")[0]).toBe(
      "adaptive trials: no case can be certified to pass θ 0.9 within --max-trials 60 (α 0.05 split across the cases: 0.00500 each) — a case needs 69 correct trials in a row; every passing case will end undecided. Raise --max-trials to 69, lower θ, or gate on fewer cases",
    );
  }, 120_000);
});
