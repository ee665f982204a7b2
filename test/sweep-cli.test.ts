import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";

const FIXTURE = "test/fixtures/sweep";
const GOLDEN = new URL("./golden/", import.meta.url);
const out = mkdtempSync(join(tmpdir(), "route-eval-sweep-cli-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

// A terminal wide enough for the whole table: its measured latency cells vary in width, and a narrower one would wrap them differently run to run.
const run = (args: string[]) => runCli(args, { env: { COLUMNS: "250" } });

/**
 * Latency is the only measured (non-deterministic) figure: mask the p50/p95 cells. Table borders
 * are dropped and cells trimmed, since masked widths would otherwise move every border.
 */
function normalise(text: string): string {
  return text
    .split("\n")
    .filter((line) => !/^[┌├└]/.test(line) && !/^\| -/.test(line))
    .map((line) => {
      const terminal = line.startsWith("│");
      if (!terminal && !line.startsWith("| ")) return line;
      const cells = line
        .split(terminal ? "│" : / \| /)
        .map((cell) => cell.replace(/^\|? ?| ?\|?$/g, "").trim())
        .filter((_, i, all) => !terminal || (i > 0 && i < all.length - 1));
      const masked = /^\d/.test(cells[0]) ? [...cells.slice(0, -2), "<ms>", "<ms>"] : cells;
      return masked.join(" | ");
    })
    .join("\n");
}

function expectGolden(name: string, actual: string): void {
  const file = new URL(name, GOLDEN);
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, "utf8"));
}

describe("route-eval sweep through the CLI", { timeout: 30_000 }, () => {
  const sizeArgs = [
    "sweep",
    "-c",
    `${FIXTURE}/route-eval.yaml`,
    "--out-dir",
    out,
    "--sizes",
    "16,2,4,8",
    "--sweep-id",
    "sizes",
  ];

  it("runs a size sweep with padding: golden table, chart and thresholds", async () => {
    const { code, stdout, stderr } = await run([
      ...sizeArgs,
      "--distractor-registry",
      `${FIXTURE}/distractors.yaml`,
    ]);
    expect(stderr).toContain(join(out, "sizes"));
    expect(code).toBe(0);
    expectGolden("sweep-size.txt", normalise(stdout));
  });

  it("writes one full run per point, sweep.json and sweep.csv; `report` works on a point", async () => {
    const dir = join(out, "sizes");
    expect(readdirSync(dir).sort()).toEqual([
      "size-02",
      "size-04",
      "size-08",
      "size-16",
      "sweep.csv",
      "sweep.json",
    ]);
    for (const point of ["size-02", "size-16"]) {
      expect(readdirSync(join(dir, point)).sort()).toEqual([
        "records.jsonl",
        "report.json",
        "run.json",
        "sets.jsonl",
      ]);
    }
    const sweep = JSON.parse(readFileSync(join(dir, "sweep.json"), "utf8"));
    expect(Object.keys(sweep)[0]).toBe("schema_version");
    expect(sweep.settings).toMatchObject({
      values: [2, 4, 8, 16],
      trials: 2,
      seed: 1,
      distractors: "random",
    });
    expect(sweep.settings.distractor_registry.snapshot).toBe("desk-neighbours");
    expect(sweep.points.map((p: { visible: { max: number } }) => p.visible.max)).toEqual([
      2, 4, 8, 16,
    ]);
    const csv = readFileSync(join(dir, "sweep.csv"), "utf8").trim().split("\n");
    expect(csv).toHaveLength(5);
    expect(csv[1].startsWith("size,2,size-02,2,2,2,0,6,12,12,0,")).toBe(true);

    const report = await run(["report", join(dir, "size-08"), "--format", "json"]);
    expect(report.code).toBe(0);
    const recomputed = JSON.parse(report.stdout);
    expect(recomputed.metrics.selection_accuracy).toEqual(sweep.points[2].selection_accuracy);
    expect(recomputed.metrics.tool_recall_at_k).toHaveProperty("8");
  });

  it("runs a k sweep over the configured retriever: golden Markdown", async () => {
    const { code, stdout } = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--retriever",
      "bm25",
      "--k",
      "1,2,4",
      "--sweep-id",
      "ks",
      "-f",
      "markdown",
    ]);
    expect(code).toBe(0);
    expectGolden("sweep-k.md", normalise(stdout));
    const sweep = JSON.parse(readFileSync(join(out, "ks", "sweep.json"), "utf8"));
    const recall = sweep.points.map((p: { tool_recall: { value: number } }) => p.tool_recall.value);
    expect([...recall].sort((a, b) => a - b)).toEqual(recall); // top-k sets are nested, so recall never falls
    expect(sweep.thresholds).toBeNull();
  });

  it("prints CSV on request and writes the rendering to --output", async () => {
    const file = join(out, "sweep-out.csv");
    const { code, stderr } = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--sweep-id",
      "csv",
      "--sizes",
      "3",
      "-f",
      "csv",
      "--output",
      file,
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(`wrote ${file}`);
    expect(readFileSync(file, "utf8").split("\n")[0]).toMatch(/^kind,value,run,visible_mean,/);
  });

  it("says so when every point showed the same tools (a registry smaller than every size)", async () => {
    const { writeProject, removeTempDirs } = await import("./fixtures/live-project.js");
    const dir = writeProject();
    try {
      const sweep = (sizes: string) =>
        runCli(["sweep", "--sizes", sizes, "--trials", "1", "--no-progress"], {
          cwd: dir,
          env: { COLUMNS: "250" },
        });
      const result = await sweep("5,10");
      expect(result.code, result.stderr).toBeLessThanOrEqual(1);
      expect(result.stdout).toContain(
        "every point showed the same 2.3 ordinary tools: the points measure one size, not 2 (the cases' phases expose no more tools than the smallest size asked: pad them with --distractor-registry, or sweep smaller sizes)",
      );
      const varied = await sweep("1,2");
      expect(varied.stdout).not.toContain("every point showed the same");
    } finally {
      removeTempDirs();
    }
  });

  it("rejects bad usage with exit 2 and a one-line reason", async () => {
    const both = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--sizes",
      "2",
      "--k",
      "2",
    ]);
    expect([both.code, both.stderr.trim()]).toEqual([
      2,
      "route-eval: --sizes and --k: choose one sweep (visible-set sizes, or retriever budgets)",
    ]);
    const noRetriever = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--k",
      "1,2",
    ]);
    expect(noRetriever.code).toBe(2);
    expect(noRetriever.stderr).toContain("a k sweep varies the retriever's budget");
    const missing = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--distractor-registry",
      "nope.yaml",
    ]);
    expect([missing.code, missing.stderr.trim()]).toEqual([
      2,
      "route-eval: nope.yaml: file not found",
    ]);
    const badList = await run([
      "sweep",
      "-c",
      `${FIXTURE}/route-eval.yaml`,
      "--out-dir",
      out,
      "--sizes",
      "5,x",
    ]);
    expect(badList.code).toBe(2);
    expect(existsSync(join(out, "nope"))).toBe(false);
  });
});
