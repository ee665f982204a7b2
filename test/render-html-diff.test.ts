/**
 * The diff page (`diff A B --format html`): where it is written, that its numbers are diff.json's,
 * that the changed descriptions sit side by side with their word diff, that drill-down links
 * resolve, and that a hostile description is shown as text.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../src/cli.js";
import type { Diff } from "../src/types/diff.js";
import { captureIo } from "./support/io.js";
import { ROOT, runShop } from "./fixtures/diff-runs.js";

const HOSTILE = fileURLToPath(new URL("./fixtures/html-hostile/", import.meta.url));
let tmp = "";
let a = "";
let b = "";
let diff: Diff;
let page = "";

async function cli(
  args: string[],
  cwd = ROOT,
): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo(cwd);
  const code = await main(["node", "route-eval", ...args], io.io);
  return { code, out: io.stdout(), err: io.stderr() };
}

/** "66.7% (8/12)" and "−14.3 pts", computed here from the JSON, independently of the renderers. */
const percent = (v: {
  value: number | null;
  numerator: number | null;
  denominator: number | null;
}) => `${((v.value ?? 0) * 100).toFixed(1)}% (${v.numerator}/${v.denominator})`;
const points = (delta: number) =>
  `${delta > 0 ? "+" : delta < 0 ? "−" : ""}${Math.abs(delta * 100).toFixed(1)} pts`;

function field(html: string, rowStart: string, name: string): string | undefined {
  const row = html.slice(html.indexOf(rowStart));
  return new RegExp(`data-field="${name}">([^<]*)<`).exec(row.slice(0, row.indexOf("</tr>")))?.[1];
}

function article(html: string, tool: string): string {
  const start = html.indexOf(`<article class="def" data-tool="${tool}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</article>", start));
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "route-eval-diff-html-"));
  a = await runShop(tmp, "a", "a", ["shared"]);
  b = await runShop(tmp, "b", "b", ["shared"]);
  diff = JSON.parse((await cli(["diff", a, b, "-f", "json"])).out);
  const result = await cli(["diff", a, b, "-f", "html"], tmp);
  if (result.code !== 0) throw new Error(result.err);
  page = readFileSync(join(tmp, "diff.html"), "utf8");
}, 30_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("diff --format html", () => {
  it("writes diff.html in the working directory by default, --output elsewhere, --output - to stdout", async () => {
    const again = await cli(["diff", a, b, "-f", "html"], tmp);
    expect([again.code, again.out, again.err]).toEqual([
      0,
      "",
      `wrote ${join(tmp, "diff.html")}\n`,
    ]);
    const stdout = await cli(["diff", a, b, "-f", "html", "--output", "-"]);
    expect(stdout.out).toBe(page);
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page).toContain("<title>route-eval diff · a → b</title>");
  });

  it("shows every measured metric with diff.json's values, delta and tests", () => {
    const measured = diff.metrics
      .filter((m) => m.base.value !== null || m.current.value !== null)
      .map((m) => m.metric);
    expect([...page.matchAll(/<tr class="[^"]*" data-metric="([^"]+)"/g)].map((m) => m[1])).toEqual(
      measured,
    );
    for (const metric of ["selection_accuracy", "argument_validity", "end_to_end_accuracy"]) {
      const row = diff.metrics.find((m) => m.metric === metric);
      if (row === undefined || row.delta === null) throw new Error(`no ${metric} in diff.json`);
      const start = `data-metric="${metric}"`;
      expect([
        field(page, start, "base"),
        field(page, start, "current"),
        field(page, start, "delta"),
      ]).toEqual([percent(row.base), percent(row.current), points(row.delta)]);
    }
    expect(field(page, 'data-metric="argument_validity"', "delta")).toBe("−20.0 pts");
    expect(page).toContain('data-metric="argument_validity" data-change="regressed"');
  });

  it("lists the flipped cases and the moved confusion cells as diff.json has them", () => {
    const flips = [
      ...page.matchAll(/<tr id="flip-[^"]*" data-case="([^"]+)" data-kind="([^"]+)"/g),
    ].map((m) => [m[1], m[2]]);
    expect(flips).toEqual(
      diff.flips.filter((f) => f.kind !== "still_passing").map((f) => [f.case_id, f.kind]),
    );
    expect(flips).toContainEqual(["find-order-with-id", "regressed"]);
    expect(field(page, 'data-case="find-order-with-id"', "current-correct")).toBe("0/2");
    const cells = [
      ...page.matchAll(
        /data-expected="([^"]+)" data-selected="([^"]+)">.*?data-field="base">(\d+)<.*?data-field="current">(\d+)</g,
      ),
    ].map((m) => [m[1], m[2], Number(m[3]), Number(m[4])]);
    expect(cells).toEqual(
      diff.confusions.map((c) => [c.acceptable, c.selected, c.base, c.current]),
    );
  });

  it("puts each changed description side by side: removed words in BASE, added words in CURRENT", () => {
    const search = article(page, "search_orders");
    const [base, current] = search.split('data-side="current"');
    expect(base).toContain("<del>Search</del> orders.");
    expect(base).not.toContain("<ins>");
    expect(current).toContain(
      "<ins>Find</ins> orders <ins>from a product name, a date or free text</ins>.",
    );
    expect(current).toContain("<ins>Avoid when: The user gives an exact order id.</ins>");
    expect(current).not.toContain("<del>");
    const change = diff.definitions.changes.find((c) => c.tool === "search_orders");
    const blast = change?.blast_radius;
    expect(field(search, "Blast radius", "blast-trials")).toBe(
      `${blast?.base.correct}/${blast?.base.scored} → ${blast?.current.correct}/${blast?.current.scored}`,
    );
    expect(search).toContain(
      'regressed: <a href="#flip-find-order-with-id" data-kind="regressed">find-order-with-id</a>',
    );
    expect(article(page, "legacy_lookup")).toContain("not in CURRENT&#39;s registry");
    expect(article(page, "refund_order")).toContain("<li>effect mutating → destructive</li>");
  });

  it("links each flipped case to its drill-down in the runs' own report.html, relative to the page", async () => {
    expect(page).toContain("to get drill-down links here");
    for (const run of [a, b]) expect((await cli(["report", run, "-f", "html"])).code).toBe(0);
    const file = join(tmp, "pages", "diff.html");
    mkdirSync(dirname(file));
    await cli(["diff", a, b, "-f", "html", "--output", file]);
    const linked = readFileSync(file, "utf8");
    const href =
      /data-case="find-order-with-id".*?<a href="([^"#]+)#case=find-order-with-id">BASE<\/a>/s.exec(
        linked,
      )?.[1] ?? "";
    expect(href).toBe("../a/report.html");
    expect(existsSync(resolve(dirname(file), href))).toBe(true);
    expect(linked).toContain('<a href="../b/report.html#case=find-order-with-id">CURRENT</a>');
  });

  it("shows a failed gate as the verdict and exits 1", async () => {
    const { code, out } = await cli([
      "diff",
      a,
      b,
      "-f",
      "html",
      "--output",
      "-",
      "--max-drop",
      "argument_validity=0.1",
    ]);
    expect(code).toBe(1);
    expect(out).toContain('<p class="verdict fail" id="verdict">verdict: FAIL — exit 1</p>');
    expect(out).toMatch(/<td class="bad">✗<\/td><td class="">max-drop argument_validity/);
  });
});

describe("diff --format html with hostile descriptions", () => {
  it("escapes the changed definition text on both sides; the only <script> is the JSON data block", async () => {
    const run = async (id: string, registry: string) => {
      const result = await cli([
        "run",
        "-c",
        join(HOSTILE, "route-eval.yaml"),
        "--registry",
        join(HOSTILE, registry),
        "--out-dir",
        tmp,
        "--run-id",
        id,
        "-f",
        "json",
      ]);
      if (result.code !== 0) throw new Error(result.err);
      return join(tmp, id);
    };
    const { code, out } = await cli([
      "diff",
      await run("hostile-a", "registry.yaml"),
      await run("hostile-b", "registry-b.yaml"),
      "-f",
      "html",
      "--output",
      "-",
    ]);
    expect(code).toBe(0);
    expect(out).not.toMatch(/<(img|iframe|b|u|svg onload)[ >]/);
    expect(out.match(/<script/g)).toHaveLength(1);
    expect(out.match(/<\/script>/g)).toHaveLength(1);
    const [base, current] = article(out, "evil_tool").split('data-side="current"');
    expect(base).toContain(
      "&lt;img src=x onerror=<del>alert(</del>1<del>)</del>&gt; Use the evil tool to refund <del>everything now</del>",
    );
    expect(current).toContain(
      "Use the evil tool to <ins>&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;</ins> refund <ins>nothing</ins>.",
    );
    expect(current).toContain("<ins>&lt;b&gt;always&lt;/b&gt;</ins>");
    expect(out).toContain("B&lt;/title&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;");
    const data =
      /<script type="application\/json" id="route-eval-data">(.*?)<\/script>/s.exec(out)?.[1] ?? "";
    const embedded: { diff: Diff } = JSON.parse(data);
    expect(embedded.diff.definitions.changes.map((c) => c.tool)).toEqual([
      "evil_tool",
      "safe_tool",
    ]);
  });
});
