/**
 * Counterfactual attribution through the real pipeline. On a fixture whose every baseline decision
 * is derived by hand (scores: name words ×3, purpose ×2, "Use when" ×1; see the comments), each
 * outcome and the headroom table are checked; the headroom is recomputed from the counterfactual
 * records alone; and against a local OpenAI-compatible server the requests carry exactly the
 * intended visible sets, a second run is free, and replay works.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CounterfactualReport } from "../src/types/counterfactual.js";
import { runCli, tempDir } from "./support/cli.js";
import { offeredTools, openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const FIXTURE = fileURLToPath(new URL("./fixtures/counterfactual/", import.meta.url));
const CONFIG = join(FIXTURE, "route-eval.yaml");
const EXTRA = join(FIXTURE, "registries", "extra.yaml");
const fake = useFakeServers();

async function runFixture(): Promise<string> {
  const out = tempDir();
  const result = await runCli([
    "run",
    "-c",
    CONFIG,
    "--out-dir",
    out,
    "--run-id",
    "run",
    "--no-progress",
    "--no-gates",
  ]);
  expect(result.code, result.stderr).toBe(0);
  return join(out, "run");
}

function lines(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe("counterfactual on the hand-derived fixture (baseline endpoint)", () => {
  it("gives every outcome as derived by hand, and the headroom table", async () => {
    const run = await runFixture();
    const dry = await runCli([
      "counterfactual",
      run,
      "-c",
      CONFIG,
      "--registry-with",
      EXTRA,
      "--dry-run",
    ]);
    // 2 inject (email) + 2 inject (refund) + cancel: 3 kinds × 2 trials + status: 2 kinds × 2 trials (first: already first),
    // and a placebo for each of the 8 failed trials; 2 repeats each. Without a retriever, inject-visible is inject.
    expect(dry.stdout).toBe(
      "dry run: 22 counterfactuals (8 placebo, 4 inject, 4 remove-rival, 2 first, 4 pair) would make 44 endpoint calls (fewer when the store has answers)\n" +
        "note: 4 × inject-visible: the run has no retriever, so it shows what inject shows (skipped)\nnote: 2 × first: the acceptable tool was already shown first (skipped)\n",
    );

    const result = await runCli([
      "counterfactual",
      run,
      "-c",
      CONFIG,
      "--registry-with",
      EXTRA,
      "--no-progress",
      "-f",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CounterfactualReport;
    const outcome = (caseId: string, kind: string) =>
      report.outcomes
        .filter((o) => o.case_id === caseId && o.kind === kind)
        .map((o) => [o.trial, o.correct, o.repeats, o.selections]);
    // refund-hidden: the phase hides refund_payment; order_refund_status wins on "refund" (3 + 2 = 5).
    // Injected, refund_payment scores 6 + 4 = 10: binding.
    expect(outcome("refund-hidden", "inject")).toEqual([
      [0, 2, 2, { refund_payment: 2 }],
      [1, 2, 2, { refund_payment: 2 }],
    ]);
    // email-customer: send_email is in no registry (coverage); from --registry-with it scores 6 + 4 = 10: binding.
    expect(outcome("email-customer", "inject")).toEqual([
      [0, 2, 2, { send_email: 2 }],
      [1, 2, 2, { send_email: 2 }],
    ]);
    // cancel-order: cancel_order_note (8) beats void_purchase (4). Removed, get_order (3 + 2 + 1 = 6) wins:
    // a third wrong tool, not binding. Position does not move a lexical router; the pair still fails.
    expect(outcome("cancel-order", "remove-rival")).toEqual([
      [0, 0, 2, { get_order: 2 }],
      [1, 0, 2, { get_order: 2 }],
    ]);
    expect(outcome("cancel-order", "first")).toEqual([
      [0, 0, 2, { cancel_order_note: 2 }],
      [1, 0, 2, { cancel_order_note: 2 }],
    ]);
    expect(outcome("cancel-order", "pair")).toEqual([
      [0, 0, 2, { cancel_order_note: 2 }],
      [1, 0, 2, { cancel_order_note: 2 }],
    ]);
    // order-status: order_refund_status (12) beats get_order (6); removed, get_order beats cancel_order_note (5): binding.
    expect(outcome("order-status", "remove-rival")).toEqual([
      [0, 2, 2, { get_order: 2 }],
      [1, 2, 2, { get_order: 2 }],
    ]);
    expect(outcome("order-status", "pair")).toEqual([
      [0, 0, 2, { order_refund_status: 2 }],
      [1, 0, 2, { order_refund_status: 2 }],
    ]);

    // The deterministic baseline re-asked unchanged fails again: the placebo recovers nothing.
    for (const o of report.outcomes.filter((x) => x.kind === "placebo")) expect(o.correct).toBe(0);
    // 10 scored trials, 2 correct (refund-ok). Each stage's binding failures are worth 2 of 10 trials.
    expect(
      report.stages.map((s) => [
        s.stage,
        s.failures,
        s.tested,
        s.kind,
        s.placebo,
        s.binding,
        s.if_fixed.value,
        s.gain.value,
      ]),
    ).toEqual([
      ["coverage", 2, 2, "inject", 0, 2, 0.4, 0.2],
      ["exposure", 2, 2, "inject", 0, 2, 0.4, 0.2],
      ["discovery", 0, 0, null, 0, 0, 0.2, 0],
      ["selection", 4, 4, "remove-rival", 0, 2, 0.4, 0.2],
    ]);
    // One case per stage's failures: a single case cannot show a change beyond chance.
    expect(report.stages[1].within_noise).toBe(true);
    expect(report.stages[3].arms.map((a) => [a.kind, a.tested, a.fix, a.placebo])).toEqual([
      ["remove-rival", 4, 2, 0],
      ["first", 2, 0, 0],
      ["pair", 4, 0, 0],
    ]);
    // A partition: removing the rival recovers order-status's two failures, but one case cannot show
    // a change beyond the placebo's noise (the arm's interval reaches 0), so no change is credited:
    // all four, where the pair alone still fails, are inseparable.
    expect(report.stages[3].arms[0].within_noise).toBe(true);
    expect(report.selection).toEqual({
      tested: 4,
      rival: 0,
      position: 0,
      crowding: 0,
      chance: 0,
      inseparable: 4,
      unexplained: 0,
      beyond_noise: [],
    });
    expect(report.rival_pairs).toEqual([
      {
        acceptable: "get_order",
        rival: "order_refund_status",
        failures: 2,
        recovered: 2,
        placebo: 0,
      },
      {
        acceptable: "void_purchase",
        rival: "cancel_order_note",
        failures: 2,
        recovered: 0,
        placebo: 0,
      },
    ]);
    // The deterministic baseline repeats itself: each case is one unit, so a gain of 1 of 5 cases.
    expect(report.stages[1].gain.cases).toBe(5);

    const terminal = await runCli([
      "counterfactual",
      run,
      "-c",
      CONFIG,
      "--registry-with",
      EXTRA,
      "--no-progress",
    ]);
    const flat = terminal.stdout.replace(/\s+/g, " ");
    expect(flat).toContain(
      "exposure: 2 failures; inject recovers 2, the placebo 0 → 2 binding, +20.0 pts end-to-end [−2.4, 20.0] (within the placebo's noise)",
    );
    expect(flat).toContain(
      "selection: the 4 failures tested, each counted once under the first that holds — the rival (removing it recovers more repeats than the placebo) 0, position",
    );
  }, 30_000);

  it("skips a coverage failure without --registry-with, saying how to include it", async () => {
    const run = await runFixture();
    const result = await runCli([
      "counterfactual",
      run,
      "-c",
      CONFIG,
      "--kinds",
      "inject",
      "--no-progress",
      "-f",
      "json",
    ]);
    const report = JSON.parse(result.stdout) as CounterfactualReport;
    expect(report.stages[0]).toMatchObject({
      stage: "coverage",
      failures: 2,
      tested: 0,
      binding: 0,
    });
    expect(report.notes).toContain(
      "2 × coverage failure without a definition of its acceptable tool: give one with --registry-with FILE (skipped)",
    );
  });

  it("recomputes from counterfactual/records.jsonl alone: the records say what was shown and what came back", async () => {
    const run = await runFixture();
    await runCli([
      "counterfactual",
      run,
      "-c",
      CONFIG,
      "--registry-with",
      EXTRA,
      "--no-progress",
      "-f",
      "json",
    ]);
    const report = JSON.parse(
      readFileSync(join(run, "counterfactual", "counterfactual.json"), "utf8"),
    ) as CounterfactualReport;
    const records = lines(join(run, "counterfactual", "records.jsonl")) as {
      counterfactual: { kind: string; of: { case_id: string; trial: number }; changed: string[] };
      failed_stage: string | null;
      visible_order?: string[];
    }[];
    expect(records).toHaveLength(report.calls);
    // Binding per stage, by hand from the records: the stage's change's share of correct repeats
    // per failed trial, minus the placebo's, summed over the failed trials.
    const stageOf: Record<string, string> = {
      "refund-hidden": "exposure",
      "email-customer": "coverage",
      "cancel-order": "selection",
      "order-status": "selection",
    };
    const flip = new Map<string, { correct: number; n: number }>();
    for (const r of records) {
      const key = `${r.counterfactual.of.case_id}#${r.counterfactual.of.trial}#${r.counterfactual.kind}`;
      const g = flip.get(key) ?? { correct: 0, n: 0 };
      g.n += 1;
      if (r.failed_stage === null) g.correct += 1;
      flip.set(key, g);
    }
    const rate = (key: string) => (flip.get(key)?.correct ?? 0) / (flip.get(key)?.n ?? 1);
    for (const stage of report.stages.filter((s) => s.kind !== null)) {
      const trials = [...flip.keys()]
        .filter(
          (key) => key.endsWith(`#${stage.kind}`) && stageOf[key.split("#")[0]] === stage.stage,
        )
        .map((key) => key.split("#").slice(0, 2).join("#"));
      const binding = trials.reduce(
        (sum, trial) => sum + rate(`${trial}#${stage.kind}`) - rate(`${trial}#placebo`),
        0,
      );
      expect(binding).toBe(stage.binding);
    }
    // Placebo and changes of one failed trial share their seeds; no two failed trials do, and none is a run trial's.
    const seeds = lines(join(run, "counterfactual", "records.jsonl")).map(
      (r) =>
        r as {
          request_hash: string;
          counterfactual: { kind: string; of: { case_id: string; trial: number }; repeat: number };
        },
    );
    const runHashes = new Set(lines(join(run, "records.jsonl")).map((r) => r.request_hash));
    const placebos = seeds.filter((r) => r.counterfactual.kind === "placebo");
    expect(new Set(placebos.map((r) => r.request_hash)).size).toBe(placebos.length);
    for (const r of placebos) expect(runHashes.has(r.request_hash)).toBe(false);
    // The pair kind showed the acceptable tool, the rival and the control only.
    const pair = records.find(
      (r) => r.counterfactual.kind === "pair" && r.counterfactual.of.case_id === "cancel-order",
    );
    expect(pair?.counterfactual.changed.sort()).toEqual(["get_order", "order_refund_status"]);
  });
});

describe("exposure inject keeps the retriever; inject-visible goes past it", () => {
  it("with bm25 k=1, inject exposes refund_payment and the retriever keeps one tool; inject-visible adds it beside the one kept", async () => {
    const out = tempDir();
    const flags = ["-c", CONFIG, "--retriever", "bm25", "-k", "1"];
    expect(
      (
        await runCli([
          "run",
          ...flags,
          "--out-dir",
          out,
          "--run-id",
          "run",
          "--no-progress",
          "--no-gates",
        ])
      ).code,
    ).toBe(0);
    const result = await runCli([
      "counterfactual",
      join(out, "run"),
      ...flags,
      "--kinds",
      "inject,inject-visible",
      "--no-progress",
      "-f",
      "json",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const records = lines(join(out, "run", "counterfactual", "records.jsonl")) as {
      counterfactual: { kind: string; placement: string; of: { case_id: string } };
      visible_order: string[];
      retrieval: unknown;
    }[];
    const shown = (kind: string) => [
      ...new Set(
        records
          .filter(
            (r) =>
              r.counterfactual.of.case_id === "refund-hidden" && r.counterfactual.kind === kind,
          )
          .map((r) => `${r.counterfactual.placement}: ${r.visible_order.join(",")}`),
      ),
    ];
    // The failed trials saw order_refund_status (bm25's top 1 of the phase's tools); re-asked unchanged, they fail again.
    expect(shown("placebo")).toEqual(["kept order: order_refund_status,no_applicable_tool"]);
    // Exposed too, refund_payment is bm25's top 1 of the five: the retriever ran, and its ranking is recorded.
    expect(shown("inject")).toEqual(["retriever ran: refund_payment,no_applicable_tool"]);
    expect(records.find((r) => r.counterfactual.kind === "inject")?.retrieval).not.toBeNull();
    expect(
      shown("inject-visible").every(
        (s) => s.includes("order_refund_status") && s.includes("refund_payment"),
      ),
    ).toBe(true);
    const report = JSON.parse(result.stdout) as CounterfactualReport;
    expect(report.stages[1].arms.map((a) => [a.kind, a.tested, a.fix, a.placebo])).toEqual([
      ["inject", 2, 2, 0],
      ["inject-visible", 2, 2, 0],
    ]);
  }, 30_000);
});

describe("counterfactual outcomes where a run is read", () => {
  it("show --case lists them, the run page gets a headroom section, diff says how headroom moved, run --counterfactual runs them", async () => {
    const out = tempDir();
    const result = await runCli([
      "run",
      "-c",
      CONFIG,
      "--out-dir",
      out,
      "--run-id",
      "run",
      "--no-progress",
      "--no-gates",
      "--counterfactual",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("Headroom by stage");
    const run = join(out, "run");
    const show = await runCli(["show", run, "--case", "order-status"]);
    expect(show.stdout).toContain(
      "Counterfactuals (route-eval counterfactual: the failed trial re-asked with one change, and unchanged as a placebo)",
    );
    expect(show.stdout).toContain(
      "  #0 placebo: re-asked unchanged → 0 of 2 correct (chance); picked order_refund_status ×2",
    );
    expect(show.stdout).toContain(
      "  #0 remove-rival: order_refund_status removed → 2 of 2 correct ✓ fixes it; picked get_order ×2",
    );
    expect(show.stdout).toContain(
      "  #1 pair: only the acceptable tool, the rival and the controls (2 removed) → 0 of 2 correct ✗",
    );
    const json = JSON.parse(
      (await runCli(["show", run, "--case", "order-status", "--json"])).stdout,
    );
    expect(json.counterfactuals).toHaveLength(6);

    expect((await runCli(["report", run, "-f", "html"])).code).toBe(0);
    const page = readFileSync(join(run, "report.html"), "utf8");
    expect(page).toContain('<tr data-stage="selection" data-failures="4" data-binding="2">');

    // A second run with the same decisions, counterfactuals with --registry-with: coverage headroom appears.
    expect(
      (
        await runCli([
          "run",
          "-c",
          CONFIG,
          "--out-dir",
          out,
          "--run-id",
          "again",
          "--no-progress",
          "--no-gates",
        ])
      ).code,
    ).toBe(0);
    await runCli([
      "counterfactual",
      join(out, "again"),
      "-c",
      CONFIG,
      "--registry-with",
      EXTRA,
      "--no-progress",
    ]);
    const diff = await runCli(["diff", run, join(out, "again")], { env: { COLUMNS: "120" } });
    expect(diff.stdout).toMatch(
      /Headroom \(counterfactual\)[\s\S]*│ coverage +│ +2 │ +2 │ +0 │ +2 │ +— │ \+20\.0 pts │/,
    );
    const diffJson = JSON.parse(
      (await runCli(["diff", run, join(out, "again"), "-f", "json"])).stdout,
    );
    expect(diffJson.headroom[0]).toEqual({
      stage: "coverage",
      base: { failures: 2, binding: 0, gain: null },
      current: { failures: 2, binding: 2, gain: 0.2 },
    });
  }, 30_000);
});

describe("counterfactual through a local OpenAI-compatible server", () => {
  it("sends exactly the intended visible sets, answers a second run from the store, and replays", async () => {
    const dir = writeProject();
    // A model that calls the first tool it is offered. The ordinary tools come first, so
    // order-by-id passes (get_order is first) and the two other cases pick get_order: wrong_tool.
    const server = await fake.start((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const env = { OPENAI_API_KEY: "sk-test-cf-0123456789" };
    const args = [
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
    ];
    expect(
      (await runCli(["run", ...args, "--run-id", "r", "--no-gates"], { cwd: dir, env })).code,
    ).toBe(0);
    const asked = server.requests.length;
    const first = await runCli(
      ["counterfactual", join(dir, "reports", "r"), ...args, "-f", "json"],
      { cwd: dir, env },
    );
    expect(first.code, first.stderr).toBe(0);
    // Each failed trial asks its placebo (the visible set it saw) and its changes, each with its own seeds:
    // order-free-text: without get_order, search_orders first (its pair is the visible set it saw: skipped);
    // refund-after-lookup: without get_order, refund_order first, and the pair get_order + refund_order.
    const sent = server.requests
      .slice(asked)
      .map(
        (r) =>
          `${(r.body.messages as { content: string }[]).at(-1)?.content} ${offeredTools(r.body).join(",")}`,
      );
    expect([...new Set(sent)].sort()).toEqual([
      "Find my teapot order get_order,search_orders,no_applicable_tool",
      "Find my teapot order search_orders,get_order,no_applicable_tool",
      "Find my teapot order search_orders,no_applicable_tool",
      "Refund it please. get_order,refund_order,no_applicable_tool",
      "Refund it please. get_order,search_orders,refund_order,no_applicable_tool",
      "Refund it please. refund_order,get_order,search_orders,no_applicable_tool",
      "Refund it please. search_orders,refund_order,no_applicable_tool",
    ]);
    // 2 failed trials × (placebo + 2 changes) + 2 × (placebo + 3 changes), 2 repeats each: no request twice.
    expect(sent).toHaveLength(28);
    expect(new Set(server.requests.slice(asked).map((r) => r.body.seed)).size).toBe(8);
    const report = JSON.parse(first.stdout) as CounterfactualReport;
    expect(report.calls).toBe(28);
    expect(report.stages[3]).toMatchObject({
      stage: "selection",
      failures: 4,
      tested: 4,
      kind: "first",
      placebo: 0,
      binding: 4,
    });
    // Only moving first recovers beyond the placebo's noise (it recovers all four); removing the
    // rival recovers two, within noise, so those are credited to position, the first that holds.
    expect(report.selection).toEqual({
      tested: 4,
      rival: 0,
      position: 4,
      crowding: 0,
      chance: 0,
      inseparable: 0,
      unexplained: 0,
      beyond_noise: ["first"],
    });

    const second = await runCli(
      ["counterfactual", join(dir, "reports", "r"), ...args, "-f", "json"],
      { cwd: dir, env },
    );
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests.length - asked).toBe(28);
    const replay = await runCli(
      ["counterfactual", join(dir, "reports", "r"), ...args, "--mode", "replay", "-f", "json"],
      { cwd: dir, env: {} },
    );
    expect(replay.code, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).stages).toEqual(report.stages);
    expect(server.requests.length - asked).toBe(28);
  });
});
