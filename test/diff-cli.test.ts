import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { captureIo } from "./support/io.js";
import { makeShopRuns, ROOT, runShop, SHOP, type ShopRuns } from "./fixtures/diff-runs.js";

let tmp = "";
let shop: ShopRuns;
let sharedA = "";
let sharedB = "";

async function cli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(ROOT, env);
  const code = await main(["node", "route-eval", ...args], io.io);
  return { code, out: io.stdout(), err: io.stderr() };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "route-eval-diff-cli-"));
  shop = await makeShopRuns(tmp);
  sharedA = await runShop(tmp, "shared-a", "a", ["shared"]);
  sharedB = await runShop(tmp, "shared-b", "b", ["shared"]);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("route-eval diff: comparability (exit 2 unless --force)", () => {
  it("refuses runs whose case sets differ, naming the cases, and suggests --force", async () => {
    const { code, out, err } = await cli(["diff", shop.base, shop.current]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toBe(
      `route-eval: cannot compare ${shop.base} with ${shop.current}: case sets differ: 1 only in BASE (cancel-unshipped), ` +
        "1 only in CURRENT (update-address); pass --force to compare the 7 shared cases anyway\n",
    );
  });

  it("names every difference at once: cases, trials, temperature, retriever", async () => {
    const other = await runShop(
      tmp,
      "other",
      "b",
      ["shared"],
      ["-n", "3", "--temperature", "0.5", "--retriever", "bm25", "-k", "2"],
    );
    const { code, err } = await cli(["diff", shop.base, other]);
    expect(code).toBe(2);
    expect(err).toContain(
      "case sets differ: 1 only in BASE (cancel-unshipped); trials per case differs: 2 vs 3; temperature differs: 0 vs 0.5; retriever differs: none vs bm25 k=2; pass --force",
    );
    const forced = await cli(["diff", shop.base, other, "--force", "-f", "json"]);
    expect(forced.code).toBe(0);
    const diff = JSON.parse(forced.out);
    expect(diff.comparability.differences.map((d: { setting: string }) => d.setting)).toEqual([
      "cases",
      "trials",
      "temperature",
      "discovery",
    ]);
    expect(diff.scope.metrics_over).toBe("shared_cases");
    // Trials pair by index: BASE has trials 0-1, CURRENT 0-2.
    expect(diff.scope.trial_pairs).toBe(7 * 2);
  });

  it("with --force compares the shared cases, says so on stderr and in the output", async () => {
    const { code, out, err } = await cli(["diff", shop.base, shop.current, "--force"]);
    expect(code).toBe(0);
    expect(err).toContain(
      "route-eval: --force: comparing the 7 shared cases despite: case sets differ",
    );
    expect(out).toContain("forced (--force): case sets differ");
    expect(out).toContain("metrics recomputed over the 7 shared cases");
  });

  it("compares two runs of the same cases without --force", async () => {
    const { code, out } = await cli(["diff", sharedA, sharedB]);
    expect(code).toBe(0);
    expect(out).toMatch(
      /comparable: same cases, trials per case, endpoint and model, temperature and\sretriever/,
    );
    expect(out).toContain("registry shop: revision A → B");
  });
});

describe("route-eval diff: gates (exit 1 with the reason, else 0)", () => {
  it("exits 0 when every gate holds", async () => {
    const { code, out } = await cli(["diff", sharedA, sharedB, "--max-drop", "0.02"]);
    expect(code).toBe(0);
    expect(out).toContain("all 1 gates passed");
  });

  it("exits 1 on a drop beyond tolerance and prints why on stderr", async () => {
    const { code, err } = await cli([
      "diff",
      sharedA,
      sharedB,
      "--max-drop",
      "0.02",
      "--max-drop",
      "argument_validity=0.1",
    ]);
    expect(code).toBe(1);
    expect(err).toBe(
      "route-eval: gate failed: max-drop argument_validity=0.1: argument_validity 80.0% (8/10) → 60.0% (6/10): 20.0 points worse, more than the 10.0 points allowed (p = 1)\n",
    );
  });

  it("--fail-on-regressed-case: a flip at 2 trials is within noise (exit 0, said why); at 8 trials it is a regression (exit 1)", async () => {
    const few = await cli(["diff", sharedA, sharedB, "--fail-on-regressed-case"]);
    expect(few.code).toBe(0);
    expect(few.out.replace(/\s+/g, " ")).toContain(
      "passed before, fail now, within noise (not a regression): find-order-with-id (2/2 → 0/2, Holm p = 1)",
    );
    expect(few.out.replace(/\s+/g, " ")).toContain(
      "with these trials no case can show a regression",
    );
    const manyA = await runShop(tmp, "many-a", "a", ["shared"], ["-n", "8"]);
    const manyB = await runShop(tmp, "many-b", "b", ["shared"], ["-n", "8"]);
    const { code, err } = await cli(["diff", manyA, manyB, "--fail-on-regressed-case"]);
    expect(code).toBe(1);
    expect(err).toMatch(
      /gate failed: fail-on-regressed-case: 1 case regressed beyond trial noise \(exact test per case, Holm across \d+ cases, α 0\.05\): find-order-with-id \(8\/8 → 0\/8, Holm p = /,
    );
    expect((await cli(["diff", manyA, manyA, "--fail-on-regressed-case"])).code).toBe(0);
  });

  it("lets --significant-only pass a drop the sample cannot tell from noise", async () => {
    const args = ["diff", sharedA, sharedB, "--max-drop", "argument_validity=0.1"];
    expect((await cli([...args, "--significant-only"])).code).toBe(0);
  });
});

describe("route-eval diff: inputs and usage errors (exit 2)", () => {
  it("reads a bare report.json and says what it cannot do without records", async () => {
    const bare = join(tmp, "bare-report.json");
    copyFileSync(join(sharedA, "report.json"), bare);
    const { code, out } = await cli(["diff", bare, sharedB, "--max-drop", "argument_validity=0.1"]);
    expect(code).toBe(1);
    expect(out).toContain(`BASE ${bare} (report.json only)`);
    expect(out).toContain("BASE is a report.json without records.jsonl: no per-trial tests");
    expect(out).toContain("trials: not paired (a run has no trial records)");
    // (wrapped to the terminal's 100 columns)
    expect(out.replace(/\s+/g, " ")).toContain(
      "blast radius: 2 cases naming it as acceptable or forbidden, or selecting it (no trial records: visible sets unknown) — 1 regressed, 1 fixed;",
    );
  });

  it("names the file and JSON path of a malformed report", async () => {
    const broken = join(tmp, "broken.json");
    const report = JSON.parse(readFileSync(join(sharedA, "report.json"), "utf8"));
    report.cases[2].passed = "yes";
    writeFileSync(broken, JSON.stringify(report));
    const { code, err } = await cli(["diff", broken, sharedB]);
    expect(code).toBe(2);
    expect(err).toBe(`route-eval: ${broken}: cases[2].passed: expected true or false, got "yes"\n`);
  });

  it("refuses reports from a newer schema, non-JSON files and missing paths", async () => {
    const newer = join(tmp, "newer.json");
    writeFileSync(newer, JSON.stringify({ schema_version: 3 }));
    expect((await cli(["diff", newer, sharedB])).err).toContain(
      "report schema_version 3 is newer than this route-eval reads (2)",
    );
    const text = join(tmp, "notes.json");
    writeFileSync(text, "not json");
    expect((await cli(["diff", text, sharedB])).err).toMatch(
      /notes.json: not valid JSON \(.*\); expected a route-eval report.json/,
    );
    const missing = await cli(["diff", join(tmp, "nope"), sharedB]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(
      "nope: no such file or directory (expected a run directory (reports/<run-id>, or its run id), its records.jsonl, or a report.json)",
    );
  });

  it("rejects bad --max-drop and --alpha values", async () => {
    const drop = await cli(["diff", sharedA, sharedB, "--max-drop", "mean_visible=0.1"]);
    expect(drop.code).toBe(2);
    expect(drop.err).toContain('"mean_visible" has no better direction');
    const alpha = await cli(["diff", sharedA, sharedB, "--alpha", "5"]);
    expect(alpha.code).toBe(2);
    expect(alpha.err).toContain("expected a significance level between 0 and 1");
  });

  it("writes --output instead of stdout", async () => {
    const file = join(tmp, "diff.md");
    const { code, out, err } = await cli([
      "diff",
      sharedA,
      sharedB,
      "-f",
      "markdown",
      "--output",
      file,
    ]);
    expect(code).toBe(0);
    expect(out).toBe("");
    expect(err).toContain(`wrote ${file}`);
    expect(readFileSync(file, "utf8")).toMatch(/^## route-eval diff\n/);
  });
});

describe("GITHUB_STEP_SUMMARY and baselines", () => {
  it("diff appends its Markdown summary when GITHUB_STEP_SUMMARY is set, unless --no-step-summary", async () => {
    const summary = join(tmp, "summary-diff.md");
    writeFileSync(summary, "# earlier step\n");
    const { code, out } = await cli(
      ["diff", sharedA, sharedB, "--max-drop", "argument_validity=0.1"],
      { GITHUB_STEP_SUMMARY: summary },
    );
    expect(code).toBe(1);
    expect(out).toMatch(/^route-eval diff /);
    const written = readFileSync(summary, "utf8");
    expect(written.startsWith("# earlier step\n## route-eval diff\n")).toBe(true);
    expect(written).toContain(
      "| ✗ | max-drop argument_validity=0.1 | argument_validity 80.0% (8/10) → 60.0% (6/10)",
    );
    await cli(["diff", sharedA, sharedB, "--no-step-summary"], { GITHUB_STEP_SUMMARY: summary });
    expect(readFileSync(summary, "utf8")).toBe(written);
  });

  it("run appends its Markdown report (with gates) to GITHUB_STEP_SUMMARY", async () => {
    const summary = join(tmp, "summary-run.md");
    const args = [
      "run",
      "-c",
      join(SHOP, "route-eval.yaml"),
      "--registry",
      join(SHOP, "registries/shop-a.yaml"),
      "--out-dir",
      tmp,
      "--run-id",
      "summary",
    ];
    const { code } = await cli(args, { GITHUB_STEP_SUMMARY: summary });
    expect(code).toBe(0);
    expect(readFileSync(summary, "utf8")).toMatch(
      /^## route-eval report\n\nroute-eval run summary · baseline\/lexical-v1 · shop@A/,
    );
    await cli([...args.slice(0, -1), "summary-quiet", "--no-step-summary"], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(readFileSync(summary, "utf8").match(/## route-eval report/g)?.length).toBe(1);
  });

  it("run --save-baseline copies the finished run to <out>/baselines/<name>/, replacing the last one", async () => {
    const out = join(tmp, "reports");
    const run = (revision: string, runId: string) =>
      cli([
        "run",
        "-c",
        join(SHOP, "route-eval.yaml"),
        "--registry",
        join(SHOP, `registries/shop-${revision}.yaml`),
        "--out-dir",
        out,
        "--run-id",
        runId,
        "--save-baseline",
        "main",
      ]);
    const first = await run("a", "first");
    expect(first.code).toBe(0);
    const baseline = join(out, "baselines", "main");
    expect(first.err).toContain(`baseline: ${baseline}\n`);
    expect(readdirSync(baseline).sort()).toEqual([
      "records.jsonl",
      "report.json",
      "run.json",
      "sets.jsonl",
    ]);
    await run("b", "second");
    // The baseline has its own id (for diff headers) and remembers the run it was saved from.
    expect(JSON.parse(readFileSync(join(baseline, "run.json"), "utf8"))).toMatchObject({
      run_id: "baseline main",
      baseline_of: "second",
    });
    expect(readdirSync(join(out, "baselines"))).toEqual(["main"]);
    const { code, out: text } = await cli(["diff", baseline, join(out, "second")]);
    expect(code).toBe(0);
    expect(text).toContain("no tool definition changed");
    expect(existsSync(join(out, "first", "records.jsonl"))).toBe(true);
  });

  it("rejects a baseline name that is not one path segment", async () => {
    const { code, err } = await cli([
      "run",
      "-c",
      join(SHOP, "route-eval.yaml"),
      "--save-baseline",
      "../main",
    ]);
    expect(code).toBe(2);
    expect(err).toContain("expected a name of letters, digits");
  });
});
