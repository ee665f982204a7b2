/**
 * Whole outputs of the commands the other golden tests do not cover, on the bundled example with
 * the baseline endpoint: the ablation ladder, a size sweep and counterfactual headroom. Latencies
 * (the only figures that vary between runs) are normalised; everything else is compared whole.
 */
import { cpSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import { expectGolden, steady } from "./support/golden.js";

const ROOT = resolve(".");

/** A copy of the bundled example, so reports land in a throwaway folder. */
function project(): string {
  const dir = tempDir("route-eval-golden-commands-");
  for (const part of ["route-eval.yaml", "cases", "registries", "schemas", "examples"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  return dir;
}

describe(
  "golden outputs of ablate, sweep and counterfactual (bundled example, baseline)",
  { timeout: 120_000 },
  () => {
    it("ablate: the ladder side by side, terminal and markdown", async () => {
      const dir = project();
      const terminal = await runCli(["ablate", "--run-id", "ab", "-n", "1"], dir);
      expect(terminal.code).toBe(0);
      expectGolden("ablate.txt", steady(terminal.stdout, dir));
      const markdown = await runCli(["report", "reports/ab", "-f", "markdown"], dir);
      expect(markdown.code).toBe(0);
      expectGolden("ablate.md", steady(markdown.stdout, dir));
    });

    it("sweep: terminal table and sweep.csv", async () => {
      const dir = project();
      const sweep = await runCli(
        ["sweep", "-n", "1", "--sizes", "5,10,20", "-o", "sweep.txt"],
        dir,
      );
      expect(sweep.code).toBe(0);
      expectGolden("sweep.txt", steady(readFileSync(join(dir, "sweep.txt"), "utf8"), dir));
      const markdown = await runCli(["sweep", "-n", "1", "--sizes", "5,10", "-f", "markdown"], dir);
      expectGolden(
        "sweep.md",
        steady(markdown.stdout, dir).replace(/\| [\d.]+ \| [\d.]+ \|$/gm, "| <ms> | <ms> |"),
      );
    });

    it("counterfactual: headroom of a bm25 run's failures, and one case's explanation with them", async () => {
      const dir = project();
      expect(
        (await runCli(["run", "--run-id", "b", "-n", "1", "--retriever", "bm25", "-k", "4"], dir))
          .code,
      ).toBe(0);
      const headroom = await runCli(["counterfactual", "reports/b"], dir);
      expect(headroom.code).toBe(0);
      expectGolden("counterfactual.txt", steady(headroom.stdout, dir));
      const report: { cases: { case_id: string; correct: number; trials: number }[] } = JSON.parse(
        readFileSync(join(dir, "reports/b/report.json"), "utf8"),
      );
      const failing = report.cases.find((c) => c.correct < c.trials);
      expect(failing).toBeDefined();
      const show = await runCli(
        ["show", join(dir, "reports/b"), "--case", failing?.case_id ?? ""],
        dir,
      );
      expect(show.stderr).toBe("");
      expect(show.code).toBe(0);
      expectGolden("counterfactual-show-case.txt", steady(show.stdout, dir));
    });
  },
);
