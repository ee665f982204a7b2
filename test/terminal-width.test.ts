/**
 * Every terminal rendering fits the terminal: at 80 and 120 columns (COLUMNS, as when stdout is
 * not a TTY) no line of run, report, show, show --case, lint, diff, sweep, ablate or
 * counterfactual is wider; and the live progress line never is either.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { createProgressPrinter } from "../src/render/progress.js";
import { runCli, tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = tempDir("route-eval-width-");
  for (const name of ["route-eval.yaml", "cases", "registries"]) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  // 12 trials (pass^k up to k=12) and a retriever (recall@k, retrieval quality): the widest report.
  expect((await runCli(["run", "--run-id", "wide", "-n", "12", "--retriever", "bm25", "-k", "4", "--no-progress", "--no-gates"], dir)).code).toBe(0);
  expect((await runCli(["run", "--run-id", "plain", "--no-progress", "--no-gates"], dir)).code).toBe(0);
}, 60_000);

function widest(text: string): number {
  return Math.max(...text.split("\n").map((line) => line.length));
}

const COMMANDS: [string, (width: number) => string[]][] = [
  ["report", () => ["report", join(dir, "reports", "wide")]],
  ["show", () => ["show", join(dir, "reports", "wide")]],
  ["show --case", () => ["show", join(dir, "reports", "wide"), "--case", "refund-over-limit"]],
  ["lint", () => ["lint"]],
  ["diff", () => ["diff", join(dir, "reports", "plain"), join(dir, "reports", "wide"), "--force"]],
  ["sweep", (w) => ["sweep", "--sizes", "5,10,20", "--sweep-id", `sweep-${w}`]],
  ["ablate", (w) => ["ablate", "--run-id", `ablate-${w}`, "--no-progress"]],
  ["counterfactual", () => ["counterfactual", join(dir, "reports", "plain"), "--no-progress", "--max-counterfactuals", "40"]],
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

  it("run prints the reliability table with k as rows, a chosen few when there are many", async () => {
    const result = await runCli(["report", join(dir, "reports", "wide")], { cwd: dir, env: { COLUMNS: "80" } });
    const section = result.stdout.slice(result.stdout.indexOf("Reliability over trials"));
    expect(section).toContain("k = 1, 2, 3, 5, 10, 12 of 1..12 (every k: report.json)");
    expect(section.match(/│ k=\d+ /g)).toEqual(["│ k=1 ", "│ k=2 ", "│ k=3 ", "│ k=5 ", "│ k=10 ", "│ k=12 "]);
  });

  it("the live progress line never exceeds the width", () => {
    let text = "";
    const print = createProgressPrinter({ stderr: (t) => void (text += t) }, { tty: true, width: 40, now: () => 0 });
    print({ total: 4000, done: 1234, resumed: 0, errored: 12, retries: 345, from_store: 678, elapsed_ms: 65_000, finished: false });
    const line = text.replace("\r\u001b[K", "");
    expect(line.length).toBeLessThanOrEqual(39);
    expect(line.endsWith("…")).toBe(true);
  });
});
