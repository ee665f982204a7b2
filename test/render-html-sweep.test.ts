/**
 * The sweep page (`sweep --format html`, `report SWEEP_DIR --format html`): where it is written,
 * that its numbers are sweep.json's, that its point links resolve, and that hostile text is text.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import { renderSweepHtml } from "../src/sweep/render-sweep-html.js";
import type { SweepReport } from "../src/types/sweep.js";
import { argv, captureIo } from "./support/io.js";

const FIXTURE = "test/fixtures/sweep";
let out = "";
let sweepDir = "";
let sweep: SweepReport;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIo();
  const code = await main(argv(...args), captured.io);
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** "66.7% (8/12)" computed here from the JSON, independently of the renderers. */
function percentOf(rate: { value: number | null; numerator: number; denominator: number }): string {
  return `${rate.value === null ? "—" : `${(rate.value * 100).toFixed(1)}%`} (${rate.numerator}/${rate.denominator})`;
}

/** The text of the cell of column `column` in the table row of point `run`. */
function cell(page: string, run: string, column: string): string | undefined {
  const row = new RegExp(`<tr data-point="${run}"[^>]*>(.*?)</tr>`, "s").exec(page)?.[1] ?? "";
  return new RegExp(`data-col="${column}">([^<]*)<`).exec(row)?.[1];
}

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "route-eval-sweep-html-"));
  const result = await cli(
    "sweep",
    "-c",
    `${FIXTURE}/route-eval.yaml`,
    "--out-dir",
    out,
    "--sizes",
    "2,4,8,16",
    "--sweep-id",
    "sizes",
    "--distractor-registry",
    `${FIXTURE}/distractors.yaml`,
    "-f",
    "html",
  );
  if (result.code !== 0) throw new Error(result.stderr);
  sweepDir = join(out, "sizes");
  sweep = JSON.parse(readFileSync(join(sweepDir, "sweep.json"), "utf8"));
}, 30_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("sweep --format html", () => {
  it("writes <sweep>/report.html and one report.html per point, nothing on stdout", async () => {
    expect(existsSync(join(sweepDir, "report.html"))).toBe(true);
    for (const point of sweep.points)
      expect(existsSync(join(sweepDir, point.run, "report.html"))).toBe(true);
  });

  it("shows sweep.json's numbers in its table and links each point page by a relative path", () => {
    const page = readFileSync(join(sweepDir, "report.html"), "utf8");
    for (const point of sweep.points) {
      expect(cell(page, point.run, "selection accuracy")).toBe(percentOf(point.selection_accuracy));
      expect(cell(page, point.run, "trials")).toBe(String(point.scored));
      expect(page).toContain(`href="${point.run}/report.html"`);
    }
    expect(sweep.thresholds?.n90.status).toBe("below_at_smallest");
    expect(page).toContain(
      "N90 (selection accuracy falls below 90%): below 90% already at the smallest size (2 visible tools)",
    );
    // One dot per point on the selection-accuracy curve, at the true visible size (16 requested, 15.2 shown).
    const series =
      /<g class="series" data-series="selection accuracy">(.*?)<\/g>/s.exec(page)?.[1] ?? "";
    expect(series.match(/<circle /g)).toHaveLength(sweep.points.length);
    expect(page).toMatch(/size 16 \(15\.2 visible\): selection accuracy 50\.0%/);
    expect(page).toContain("script-src &#39;none&#39;"); // no script at all: the page needs none
  });
});

describe("report SWEEP_DIR", () => {
  it("--format html writes the page again; --output elsewhere links the points from there", async () => {
    rmSync(join(sweepDir, "report.html"));
    const again = await cli("report", sweepDir, "--format", "html");
    expect([again.code, again.stdout]).toEqual([0, ""]);
    expect(again.stderr).toContain(`wrote ${join(sweepDir, "report.html")}`);
    expect(existsSync(join(sweepDir, "report.html"))).toBe(true);

    const elsewhere = join(out, "pages", "sweep.html");
    mkdirSync(dirname(elsewhere));
    expect(
      (await cli("report", join(sweepDir, "sweep.json"), "-f", "html", "--output", elsewhere)).code,
    ).toBe(0);
    const page = readFileSync(elsewhere, "utf8");
    const href = /<tr data-point="size-04".*?href="([^"]+)"/s.exec(page)?.[1] ?? "";
    expect(href).toBe("../sizes/size-04/report.html");
    expect(existsSync(resolve(dirname(elsewhere), href))).toBe(true);
  });

  it("leaves a point without records unlinked and says so", async () => {
    const copy = join(out, "partial");
    mkdirSync(copy);
    writeFileSync(join(copy, "sweep.json"), readFileSync(join(sweepDir, "sweep.json")));
    mkdirSync(join(copy, "size-02"));
    for (const file of ["records.jsonl", "sets.jsonl", "run.json"])
      writeFileSync(join(copy, "size-02", file), readFileSync(join(sweepDir, "size-02", file)));
    const result = await cli("report", copy, "-f", "html");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `route-eval: no point page: ${join(copy, "size-04", "records.jsonl")}: not found`,
    );
    const page = readFileSync(join(copy, "report.html"), "utf8");
    expect(page.match(/data-field="report" title=/g)).toHaveLength(1);
    expect(page).toContain("3 point pages are not there;");
  });

  it("renders the other formats from sweep.json, and has no JUnit", async () => {
    const json = await cli("report", sweepDir, "-f", "json");
    expect(JSON.parse(json.stdout)).toEqual(sweep);
    expect((await cli("report", sweepDir)).stdout).toContain(
      "N50 (selection accuracy falls below 50%)",
    );
    const junit = await cli("report", sweepDir, "-f", "junit");
    expect([junit.code, junit.stderr]).toEqual([
      2,
      `route-eval: ${sweepDir}: a sweep has no junit rendering (use terminal, json, markdown or html; sweep.csv is beside sweep.json)\n`,
    ]);
  });

  it("rejects a sweep.json that breaks its schema with the file and JSON path (exit 2)", async () => {
    const bad = join(out, "bad");
    mkdirSync(bad);
    writeFileSync(
      join(bad, "sweep.json"),
      JSON.stringify({ ...sweep, points: [{ ...sweep.points[0], run: "../../etc" }] }),
    );
    const result = await cli("report", bad, "-f", "html");
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^route-eval: ${join(bad, "sweep.json")}: points\\[0\\]\\.run: .*\n$`),
    );
    expect(existsSync(join(bad, "report.html"))).toBe(false);
  });
});

describe("renderSweepHtml", () => {
  it("escapes every string of the sweep: ids, endpoint, model, registries, capped cases", () => {
    const hostile = "</script><script>window.__pwned=1</script><img src=x onerror=alert(1)>";
    const point = { ...sweep.points[3], run: `size-16${hostile}`, capped_cases: [hostile] };
    const report: SweepReport = {
      ...sweep,
      sweep_id: hostile,
      model: hostile,
      settings: {
        ...sweep.settings,
        cases: [hostile],
        distractor_registry: { snapshot: hostile, revision: hostile, file: hostile },
      },
      points: [point],
    };
    const page = renderSweepHtml(report, {
      pointLinks: { [point.run]: `${encodeURIComponent(point.run)}/report.html` },
      sweepDir: hostile,
    });
    expect(page).not.toMatch(/<img|<script>window/);
    expect(page.match(/<script/g)).toHaveLength(1); // the JSON data block, nothing else
    expect(page).toContain(
      "&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;",
    );
    const data =
      /<script type="application\/json" id="route-eval-data">(.*?)<\/script>/s.exec(page)?.[1] ??
      "";
    expect(JSON.parse(data).sweep.sweep_id).toBe(hostile);
  });
});
