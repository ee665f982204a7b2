/**
 * Every terminal rendering fits the terminal: at 80 and 120 columns (COLUMNS, as when stdout is
 * not a TTY) no line of run, report, show, show --case, lint, diff (with a word-diffed definition
 * and CJK text — two columns a character, no spaces to wrap at), sweep, ablate, counterfactual or
 * any command's --help is wider; and the live progress line never is either.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { createProgressPrinter } from "../src/render/progress.js";
import { displayWidth } from "../src/render/text-layout.js";
import { terminalWidth } from "../src/render/terminal-width.js";
import { runCli, tempDir } from "./support/cli.js";
import { CATALOGUE } from "../src/commands/catalogue.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CJK =
  "注文番号で注文の状態、配送先住所、荷物の追跡番号を確認します。スペースを含まない長い説明文でも端末の幅に収まるように折り返されなければなりません。";
let dir: string;

beforeAll(async () => {
  dir = tempDir("route-eval-width-");
  for (const name of ["route-eval.yaml", "cases", "registries", "examples"])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  // 12 trials (pass^k up to k=12) and a retriever (recall@k, retrieval quality): the widest report.
  expect(
    (
      await runCli(
        [
          "run",
          "--run-id",
          "wide",
          "-n",
          "12",
          "--retriever",
          "bm25",
          "-k",
          "4",
          "--no-progress",
          "--no-gates",
        ],
        dir,
      )
    ).code,
  ).toBe(0);
  expect(
    (await runCli(["run", "--run-id", "plain", "--no-progress", "--no-gates"], dir)).code,
  ).toBe(0);
  // A description rewritten with CJK in it, and a case goal in Japanese: the diff word-diffs a definition.
  const cjk = tempDir("route-eval-width-cjk-");
  for (const name of ["route-eval.yaml", "cases", "registries"])
    cpSync(join(ROOT, name), join(cjk, name), { recursive: true });
  const cases = join(cjk, "cases", "orders.yaml");
  writeFileSync(
    cases,
    readFileSync(cases, "utf8").replace(
      "goal: Is order ord_1042 shipped yet?",
      `goal: "ord_1042 の注文はもう発送されましたか？${CJK}"`,
    ),
  );
  expect(
    (
      await runCli(
        [
          "run",
          "--out-dir",
          join(dir, "reports"),
          "--run-id",
          "cjk-main",
          "--no-progress",
          "--no-gates",
        ],
        cjk,
      )
    ).code,
  ).toBe(0);
  const registry = join(cjk, "registries", "commerce.yaml");
  writeFileSync(
    registry,
    readFileSync(registry, "utf8").replace(
      /purpose: Look up the current record of one order[^\n]*/,
      `purpose: Fetch one order by its exact order id, with the tracking numbers of its parcels. ${CJK}`,
    ),
  );
  expect(
    (
      await runCli(
        [
          "run",
          "--out-dir",
          join(dir, "reports"),
          "--run-id",
          "cjk-pr",
          "--no-progress",
          "--no-gates",
        ],
        cjk,
      )
    ).code,
  ).toBe(0);
}, 120_000);

function widest(text: string): number {
  return Math.max(...text.split("\n").map((line) => displayWidth(line)));
}

const COMMANDS: [string, (width: number) => string[]][] = [
  ["report", () => ["report", join(dir, "reports", "wide")]],
  ["show", () => ["show", join(dir, "reports", "wide")]],
  ["show --case", () => ["show", join(dir, "reports", "wide"), "--case", "refund-over-limit"]],
  ["lint", () => ["lint"]],
  ["diff", () => ["diff", join(dir, "reports", "plain"), join(dir, "reports", "wide"), "--force"]],
  [
    "diff --all",
    () => ["diff", join(dir, "reports", "plain"), join(dir, "reports", "wide"), "--force", "--all"],
  ],
  [
    "diff of a rewritten definition with CJK",
    () => [
      "diff",
      join(dir, "reports", "cjk-main"),
      join(dir, "reports", "cjk-pr"),
      "--all",
      "--fail-on-regressed-case",
    ],
  ],
  [
    "show --case of a conversation: its timeline",
    () => ["show", join(dir, "reports", "wide"), "--case", "conv-address-then-sms"],
  ],
  [
    "show --case with a CJK goal",
    () => ["show", join(dir, "reports", "cjk-pr"), "--case", "order-status-exact-id"],
  ],
  ["sweep", (w) => ["sweep", "--sizes", "5,10,20", "--sweep-id", `sweep-${w}`]],
  [
    "sweep of many points",
    (w) => [
      "sweep",
      "--sizes",
      "4,8,16,32,64,128",
      "-n",
      "1",
      "--sweep-id",
      `sweep-many-${w}`,
      "--no-progress",
    ],
  ],
  [
    "sweep of k",
    (w) => [
      "sweep",
      "--k",
      "2,4,8,16",
      "--retriever",
      "bm25",
      "-n",
      "1",
      "--sweep-id",
      `sweep-k-${w}`,
      "--no-progress",
    ],
  ],
  ["ablate", (w) => ["ablate", "--run-id", `ablate-${w}`, "--no-progress"]],
  [
    "counterfactual",
    () => [
      "counterfactual",
      join(dir, "reports", "plain"),
      "--no-progress",
      "--max-counterfactuals",
      "40",
    ],
  ],
  [
    "monitor",
    () => [
      "monitor",
      "examples/traces/support-traffic.jsonl",
      "--by",
      "tenant",
      "--split-at",
      "2026-11-21",
    ],
  ],
  [
    "shadow",
    (w) => [
      "shadow",
      "examples/traces/support-traffic.jsonl",
      "--config",
      "examples/traces/candidate.yaml",
      "--run-id",
      `shadow-${w}`,
      "--no-progress",
    ],
  ],
];

describe("terminal output fits the terminal", () => {
  for (const width of [80, 120]) {
    for (const [name, args] of COMMANDS) {
      it(`${name} at ${width} columns`, async () => {
        const result = await runCli(args(width), { cwd: dir, env: { COLUMNS: String(width) } });
        expect(result.code, result.stderr).toBeLessThanOrEqual(1);
        expect(result.stdout.length).toBeGreaterThan(0);
        expect(widest(result.stdout)).toBeLessThanOrEqual(width);
      }, 60_000);
    }
  }

  for (const command of ["", ...CATALOGUE.map((entry) => entry.name)]) {
    it(`${command || "route-eval"} --help at 80 columns, listing the command's own options`, async () => {
      const result = await runCli([...(command === "" ? [] : [command]), "--help"], {
        cwd: dir,
        env: { COLUMNS: "80" },
      });
      expect(result.code).toBe(0);
      expect(widest(result.stdout)).toBeLessThanOrEqual(80);
      // batch reaches a provider about a run's batches: it runs no trials, so it takes no trial settings.
      if (command === "batch")
        expect(result.stdout).not.toMatch(/--trials|--retriever|--concurrency/);
    });
  }

  it("run prints the reliability table with k as rows, a chosen few when there are many", async () => {
    const result = await runCli(["report", join(dir, "reports", "wide")], {
      cwd: dir,
      env: { COLUMNS: "80" },
    });
    const section = result.stdout.slice(result.stdout.indexOf("Reliability over trials"));
    expect(section).toContain("k = 1, 2, 3, 5, 10, 12 of 1..12 (every k: report.json)");
    expect(section.match(/│ k=\d+ /g)).toEqual([
      "│ k=1 ",
      "│ k=2 ",
      "│ k=3 ",
      "│ k=5 ",
      "│ k=10 ",
      "│ k=12 ",
    ]);
  });

  it("lays output out for the terminal: stdout's, else COLUMNS, else the pager's screen (stderr's), else 80", () => {
    expect(terminalWidth({ env: {}, columns: 132 })).toBe(132);
    expect(terminalWidth({ env: { COLUMNS: "90" }, stderrColumns: 120 })).toBe(90);
    expect(terminalWidth({ env: {}, stderrColumns: 120 })).toBe(120);
    expect(terminalWidth({ env: {} })).toBe(80);
  });

  it("the live progress line never exceeds the width", () => {
    let text = "";
    const print = createProgressPrinter(
      { stderr: (t) => void (text += t) },
      { tty: true, width: 40, now: () => 0 },
    );
    print({
      total: 4000,
      done: 1234,
      resumed: 0,
      errored: 12,
      retries: 345,
      from_store: 678,
      elapsed_ms: 65_000,
      finished: false,
    });
    const line = text.replace("\r\u001b[K", "");
    expect(line.length).toBeLessThanOrEqual(39);
    expect(line.endsWith("…")).toBe(true);
  });
});
