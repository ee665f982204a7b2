/**
 * The HTML pages in a real browser — the run report, the sweep, diff and experiment pages — with
 * Debian's chromium, headless, driven by playwright-core (no downloaded browser; one launch for
 * all). Skipped, saying why, only when /usr/bin/chromium is absent; .ci/run installs it so CI
 * always runs these tests.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import type { Diff } from "../src/types/diff.js";
import type { Experiment } from "../src/types/ablate.js";
import type { SweepReport } from "../src/types/sweep.js";
import type { Report } from "../src/types.js";
import { argv, captureIo } from "./support/io.js";

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
const SKIP_NOTE = HAS_CHROMIUM
  ? ""
  : ` — SKIPPED: ${CHROMIUM} is absent (install it: apt-get install -y chromium)`;
if (!HAS_CHROMIUM)
  console.warn(`html-browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

const EXAMPLE_CONFIG = fileURLToPath(new URL("../route-eval.yaml", import.meta.url));
const HOSTILE_CONFIG = fileURLToPath(
  new URL("./fixtures/html-hostile/route-eval.yaml", import.meta.url),
);
const HOSTILE_REGISTRY_B = fileURLToPath(
  new URL("./fixtures/html-hostile/registry-b.yaml", import.meta.url),
);
const SWEEP_FIXTURE = fileURLToPath(new URL("./fixtures/sweep/", import.meta.url));
const BROWSER_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let out: string;
let browser: Browser;

/** Runs the real pipeline (baseline endpoint) with --format html; returns the run directory. */
async function runToHtml(config: string, runId: string): Promise<string> {
  const captured = captureIo();
  const code = await main(
    argv("run", "-c", config, "--run-id", runId, "--out-dir", out, "-f", "html"),
    captured.io,
  );
  if (code !== 0) throw new Error(`run ${runId} exited ${code}: ${captured.stderr()}`);
  return join(out, runId);
}

/** Runs a CLI command that must succeed; returns its stdout. */
async function cli(...args: string[]): Promise<string> {
  const captured = captureIo();
  const code = await main(argv(...args), captured.io);
  if (code !== 0) throw new Error(`${args[0]} exited ${code}: ${captured.stderr()}`);
  return captured.stdout();
}

/** What hostile text could have done to a page's DOM: all zero, and the flag unset, when it stayed text. */
async function inspectDom(
  page: Page,
): Promise<{ pwned: unknown; scripts: number; injected: number; handlers: number }> {
  return page.evaluate(() => ({
    pwned: (window as unknown as { __pwned?: unknown }).__pwned,
    scripts: document.scripts.length,
    injected: document.querySelectorAll("img, iframe, b, u").length,
    handlers: [...document.querySelectorAll("*")].filter((e) =>
      [...e.attributes].some((a) => a.name.startsWith("on")),
    ).length,
  }));
}

/** Opens a page, failing the test on any script error, console error or dialog. */
async function open(file: string, problems: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  page.on("console", (m) => void (m.type() === "error" && problems.push(`console: ${m.text()}`)));
  page.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on(
    "request",
    (r) => void (r.url().startsWith("file:") || problems.push(`request: ${r.url()}`)),
  );
  await page.goto(pathToFileURL(file).href);
  return page;
}

/** ms from navigation start until the first frame after load; the best of `runs` fresh loads. */
describe.skipIf(!HAS_CHROMIUM)(`HTML report in chromium${SKIP_NOTE}`, () => {
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "route-eval-html-"));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (out !== undefined) rmSync(out, { recursive: true, force: true });
  });

  it("renders the bundled example: funnel equals report.json, a case expands, under 1 MB and 1 s", async () => {
    const run = await runToHtml(EXAMPLE_CONFIG, "example");
    const file = join(run, "report.html");
    const report: Report = JSON.parse(readFileSync(join(run, "report.json"), "utf8"));
    const size = statSync(file).size;
    expect(size).toBeLessThan(1_000_000);

    const problems: string[] = [];
    const page = await open(file, problems);
    const funnel = await page.$$eval("tr.rung", (rows) =>
      rows.map((row) => [
        row.getAttribute("data-rung"),
        row.querySelector("[data-field=numerator]")?.textContent,
        row.querySelector("[data-field=denominator]")?.textContent,
      ]),
    );
    const m = report.metrics;
    const rate = (r: { numerator: number; denominator: number }) => [
      String(r.numerator),
      String(r.denominator),
    ];
    expect(funnel).toEqual([
      ["coverage", ...rate(m.capability_coverage)],
      ["exposure", ...rate(m.exposure_recall)],
      ["discovery", ...rate(m.discovery_recall)],
      ["selection", ...rate(m.selection_accuracy)],
      ["end-to-end", ...rate(m.end_to_end_accuracy)],
    ]);

    const failing = report.cases.find((c) => !c.passed && (c.stages.selection ?? 0) > 0);
    if (failing === undefined)
      throw new Error("the bundled example has no selection failure to expand");
    const row = page.locator(`tr.case-row[data-case-id="${failing.case_id}"]`);
    await row.locator("button.expand").click();
    const drill = page.locator("tr.drill").first();
    await expect.poll(() => drill.isVisible()).toBe(true);
    expect(await drill.locator("ol.ladder li").count()).toBe(4);
    expect(
      await drill.locator("ol.ladder li[data-stage=selection]").getAttribute("data-status"),
    ).toBe("failed");
    expect(await drill.locator(".fix strong").textContent()).toBe(
      "selection → sharpen one pair of descriptions",
    );
    expect(await drill.locator("table.trials tbody tr").count()).toBe(failing.trials);
    await drill.screenshot({ path: join(out, "example-case.png") });
    await page.screenshot({ path: join(out, "example.png") });
    expect(statSync(join(out, "example.png")).size).toBeGreaterThan(10_000);

    await page.fill("#case-search", failing.case_id);
    expect(await page.locator("#case-count").textContent()).toMatch(/^1 of \d+ cases$/);
    await page.selectOption("#case-stage", "passed");
    expect(await page.locator("#case-count").textContent()).toMatch(/^0 of /);
    expect(problems).toEqual([]);
  }, 120_000);

  it("shows a hostile registry and hostile cases as text and runs none of their markup", async () => {
    const run = await runToHtml(HOSTILE_CONFIG, "hostile");
    const file = join(run, "report.html");
    const raw = readFileSync(file, "utf8");
    expect(raw).not.toContain("<img");
    expect(raw).not.toContain("<svg onload");
    expect(raw).not.toContain("<script>window");

    const problems: string[] = [];
    const page = await open(file, problems);
    const caseId = "<script>window.__pwned=1</script>";
    const ids = await page.$$eval("td.case-id", (cells) => cells.map((c) => c.textContent));
    expect(ids).toEqual([caseId, "needs-hidden-<b>tool</b>"]);

    await page.locator("tr.case-row").first().locator("button.expand").click();
    const drill = page.locator("tr.drill").first();
    await expect.poll(() => drill.isVisible()).toBe(true);
    const rival = await drill.locator(".rival pre").allTextContents();
    expect(rival[1]).toContain("<img src=x onerror=alert(1)> Use the evil tool");
    expect(rival[1]).toContain("</script><script>window.__pwned=1</script> refund everything");
    expect(await drill.locator("dl.facts dd").first().textContent()).toBe(
      "<img src=x onerror=window.__pwned=1> refund everything with the evil tool",
    );
    await page.locator("tr.case-row").nth(1).locator("button.expand").click();
    await expect.poll(() => page.locator("tr.drill").count()).toBe(2);

    const body = await page.locator("body").innerText();
    expect(body).toContain("<b>hostile</b>@</title><script>window.__pwned=1</script>");
    expect(body).toContain("</script><svg onload=window.__pwned=1>");
    expect(body).toContain(`"'><script>window.__pwned=1</script>`);
    const dom = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned,
      scripts: document.scripts.length,
      injected: document.querySelectorAll("img, iframe, b, u").length,
      handlers: [...document.querySelectorAll("*")].filter((e) =>
        [...e.attributes].some((a) => a.name.startsWith("on")),
      ).length,
    }));
    expect(dom).toEqual({ pwned: undefined, scripts: 2, injected: 0, handlers: 0 });
    await page.screenshot({ path: join(out, "hostile.png"), fullPage: true });
    expect(problems).toEqual([]);
  }, 120_000);

  it("shows a tool-search decision's queries and returns in the case drill-down, as text", async () => {
    const captured = captureIo();
    const code = await main(
      argv(
        "run",
        "-c",
        HOSTILE_CONFIG,
        "--tool-search",
        "client",
        "--run-id",
        "hostile-search",
        "--out-dir",
        out,
        "-f",
        "html",
      ),
      captured.io,
    );
    expect(code, captured.stderr()).toBeLessThan(2);
    const problems: string[] = [];
    const page = await open(join(out, "hostile-search", "report.html"), problems);
    await page.locator("tr.case-row").first().locator("button.expand").click();
    const drill = page.locator("tr.drill").first();
    await expect.poll(() => drill.isVisible()).toBe(true);
    const records = readFileSync(join(out, "hostile-search", "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const queries = new Set(
      records.flatMap((r) =>
        r.search.searches.map((step: { query: string | null }) => JSON.stringify(step.query)),
      ),
    );
    const lines = await page.locator("tr.drill div.search").allTextContents();
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(queries.has(line.replace(/^search \d+: /, "").split(" → ")[0])).toBe(true);
    expect(await inspectDom(page)).toEqual({
      pwned: undefined,
      scripts: 2,
      injected: 0,
      handlers: 0,
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it("opens a sweep page from disk: its table and curve are sweep.json's, and a point link opens that point's report", async () => {
    await cli(
      "sweep",
      "-c",
      join(SWEEP_FIXTURE, "route-eval.yaml"),
      "--out-dir",
      out,
      "--sizes",
      "2,4,8,16",
      "--sweep-id",
      "sizes",
      "--distractor-registry",
      join(SWEEP_FIXTURE, "distractors.yaml"),
      "-f",
      "html",
    );
    const dir = join(out, "sizes");
    const sweep: SweepReport = JSON.parse(readFileSync(join(dir, "sweep.json"), "utf8"));
    const problems: string[] = [];
    const page = await open(join(dir, "report.html"), problems);
    for (const point of sweep.points) {
      const { numerator, denominator, value } = point.selection_accuracy;
      const text = await page
        .locator(`tr[data-point="${point.run}"] td[data-col="selection accuracy"]`)
        .textContent();
      expect(text).toBe(`${((value ?? 0) * 100).toFixed(1)}% (${numerator}/${denominator})`);
    }
    expect(await page.locator('g.series[data-series="selection accuracy"] circle').count()).toBe(
      sweep.points.length,
    );
    expect(await page.locator("#findings li").first().textContent()).toContain("N90");
    await page.screenshot({ path: join(out, "sweep.png"), fullPage: true });

    const point = sweep.points[1];
    await page.locator(`tr[data-point="${point.run}"] a[data-field=report]`).click();
    await page.waitForURL(/size-04\/report\.html$/);
    expect(
      await page.locator("tr.rung[data-rung=selection] [data-field=numerator]").textContent(),
    ).toBe(String(point.selection_accuracy.numerator));

    // A hostile sweep: its id (the directory name) and its capped case ids are markup.
    const sweepId = "<img src=x onerror=window.__pwned=1>";
    await cli(
      "sweep",
      "-c",
      HOSTILE_CONFIG,
      "--out-dir",
      out,
      "--sizes",
      "1,3",
      "--sweep-id",
      sweepId,
      "-f",
      "html",
    );
    const hostile = await open(join(out, sweepId, "report.html"), problems);
    expect(await hostile.locator("h1").textContent()).toBe(`route-eval sweep · ${sweepId}`);
    expect(await hostile.locator("#capped .chip").allTextContents()).toEqual([
      "<script>window.__pwned=1</script>",
      "needs-hidden-<b>tool</b>",
    ]);
    expect(await inspectDom(hostile)).toEqual({
      pwned: undefined,
      scripts: 1,
      injected: 0,
      handlers: 0,
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it("opens a diff page of hostile registries from disk: numbers are diff.json's, descriptions show as text, drill-down links work", async () => {
    const base = await runToHtml(HOSTILE_CONFIG, "diff-a");
    const captured = captureIo();
    const code = await main(
      argv(
        "run",
        "-c",
        HOSTILE_CONFIG,
        "--registry",
        HOSTILE_REGISTRY_B,
        "--run-id",
        "diff-b",
        "--out-dir",
        out,
        "-f",
        "html",
      ),
      captured.io,
    );
    expect(code).toBe(0);
    const current = join(out, "diff-b");
    const diff: Diff = JSON.parse(await cli("diff", base, current, "-f", "json"));
    const file = join(out, "diff.html");
    await cli("diff", base, current, "-f", "html", "--output", file);

    const problems: string[] = [];
    const page = await open(file, problems);
    const e2e = diff.metrics.find((m) => m.metric === "end_to_end_accuracy");
    const e2eRow = page.locator('tr[data-metric="end_to_end_accuracy"]');
    expect(await e2eRow.locator("[data-field=base]").textContent()).toBe(
      `${((e2e?.base.value ?? 0) * 100).toFixed(1)}% (${e2e?.base.numerator}/${e2e?.base.denominator})`,
    );
    expect(await page.locator("tr[data-case]").count()).toBe(
      diff.flips.filter((f) => f.kind !== "still_passing").length,
    );
    const sides = await page.locator('article[data-tool="evil_tool"] .side pre').allInnerTexts();
    expect(sides[0]).toContain(
      "<img src=x onerror=alert(1)> Use the evil tool to refund everything now.",
    );
    expect(sides[1]).toContain(
      "<img src=x onerror=window.__pwned=1> Use the evil tool to </script><script>window.__pwned=1</script> refund nothing.",
    );
    expect(await page.locator('article[data-tool="evil_tool"] ins').allTextContents()).toContain(
      "</script><script>window.__pwned=1</script>",
    );
    expect(await inspectDom(page)).toEqual({
      pwned: undefined,
      scripts: 1,
      injected: 0,
      handlers: 0,
    });
    await page.screenshot({ path: join(out, "diff-hostile.png"), fullPage: true });

    const caseId = "<script>window.__pwned=1</script>";
    await page.locator(`tr[data-case="${caseId}"] a`, { hasText: "BASE" }).click();
    await page.waitForURL(/diff-a\/report\.html#case=/);
    const drill = page.locator("tr.drill").first();
    await expect.poll(() => drill.isVisible()).toBe(true);
    expect(
      await page
        .locator("tr.case-row:has(button.expand[aria-expanded=true]) td.case-id")
        .textContent(),
    ).toBe(caseId);
    expect((await inspectDom(page)).pwned).toBeUndefined();
    expect(problems).toEqual([]);
  }, 120_000);

  it("opens an ablation page from disk: its table and ladder chart are experiment.json's, a rung links to its report, hostile text stays text", async () => {
    await cli(
      "ablate",
      "-c",
      EXAMPLE_CONFIG,
      "--out-dir",
      out,
      "--run-id",
      "ladder",
      "-f",
      "html",
      "--no-progress",
    );
    const dir = join(out, "ladder");
    const experiment: Experiment = JSON.parse(readFileSync(join(dir, "experiment.json"), "utf8"));
    const problems: string[] = [];
    const page = await open(join(dir, "experiment.html"), problems);
    for (const metric of ["end_to_end_accuracy", "selection_accuracy"]) {
      const row = experiment.metrics.find((m) => m.metric === metric);
      const cells = await page
        .locator(`#metrics tr[data-metric="${metric}"] td.num`)
        .allInnerTexts();
      expect(cells).toEqual(
        row?.values.map(
          (v) =>
            `${((v.value ?? 0) * 100).toFixed(1)}% (${v.numerator}/${v.denominator})\n[${((v.ci?.[0] ?? 0) * 100).toFixed(1)}%, ${((v.ci?.[1] ?? 0) * 100).toFixed(1)}%]`,
        ),
      );
      const plotted = await page
        .locator(`#ladder-chart g[data-metric="${metric}"]`)
        .evaluateAll((gs) =>
          gs.map((g) => [g.getAttribute("data-variant"), Number(g.getAttribute("data-value"))]),
        );
      expect(plotted).toEqual(experiment.variants.map((v, i) => [v.name, row?.values[i].value]));
    }
    for (const [i, variant] of experiment.variants.entries()) {
      const counts = await page
        .locator(`#profiles tr[data-variant="${variant.name}"] td[data-stage]`)
        .allTextContents();
      const p = experiment.profiles[i];
      expect(counts.map(Number)).toEqual([
        p.stages.coverage,
        p.stages.exposure,
        p.stages.discovery,
        p.stages.selection,
        p.correct,
        p.errored,
      ]);
    }
    expect(
      await page
        .locator(".pair")
        .evaluateAll((pairs) => pairs.map((p) => p.getAttribute("data-verdict"))),
    ).toEqual(experiment.comparisons.map((c) => c.verdict));
    await page.screenshot({ path: join(out, "ablate.png"), fullPage: true });
    await page.locator('.pair[data-variant="+ exposure"] a').click();
    await page.waitForURL(/variants\/exposure\/report\.html$/);
    const rung = experiment.metrics.find((m) => m.metric === "selection_accuracy")?.values[2];
    expect(
      await page.locator("tr.rung[data-rung=selection] [data-field=numerator]").textContent(),
    ).toBe(String(rung?.numerator));

    // Hostile: the experiment id (its directory) and the hostile fixture's case ids and tool names are markup.
    const id = "<b>ladder<img src=x onerror=window.__pwned=1>";
    await cli(
      "ablate",
      "-c",
      HOSTILE_CONFIG,
      "--out-dir",
      out,
      "--run-id",
      id,
      "-f",
      "html",
      "--no-progress",
    );
    const hostile = await open(join(out, id, "experiment.html"), problems);
    expect(await hostile.locator("h1").textContent()).toBe(`route-eval ablation · ${id}`);
    expect(await inspectDom(hostile)).toEqual({
      pwned: undefined,
      scripts: 1,
      injected: 0,
      handlers: 0,
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
