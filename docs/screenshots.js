#!/usr/bin/env node
// Regenerates the README screenshots from the bundled example (`npm run screenshots`):
//   docs/report.png       the top of the HTML report
//   docs/report-case.png  one case's drill-down in the HTML report
//   docs/show.png         `route-eval show RUN --case ID` in a terminal (ANSI colours kept)
//   docs/sweep.png        the sweep page of `route-eval sweep --distractor-registry registries/distractors.yaml -f html`
//   docs/diff.png         the top of the diff page: the bundled example against a rewrite of list_orders and search_orders
//   docs/diff-definitions.png  that diff's changed descriptions, side by side
//   docs/sweep-search.png the two tool-search charts of `route-eval sweep --tool-search-axis off,client` (padded, sizes 10–80)
// `node docs/screenshots.js sweep-search` (after npm run build) makes only that one.
// Needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { parseDocument } from "yaml";
import { explainOneCase } from "../dist/show/explain-run.js";
import { readRun } from "../dist/run-files/read-run.js";
import { buildReport } from "../dist/report/build-report.js";
import { renderCaseExplanation } from "../dist/show/render-case.js";

const CASE = "orders-engraving-notes";
const root = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "route-eval-screenshots-"));
const run = join(dir, "example");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const only = process.argv[2] ?? null;
try {
  if (only === null || only === "sweep-search") await searchSweep();
  if (only !== null) process.exit(0);
  routeEval("run", "-c", join(root, "route-eval.yaml"), "--run-id", "example", "--out-dir", dir, "-f", "html");
  const page = await browser.newPage({ viewport: { width: 1280, height: 980 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(join(run, "report.html")).href);
  await page.screenshot({ path: join(root, "docs/report.png") });
  await page.goto(`${pathToFileURL(join(run, "report.html")).href}#case=${CASE}`);
  await page.locator("tr.drill").waitFor();
  await page.addStyleTag({ content: "nav.toc{position:static}" });
  await page.evaluate(() => window.scrollTo(0, 0));
  const row = await page.locator(`tr.case-row[data-case-id="${CASE}"]`).boundingBox();
  const drill = await page.locator("tr.drill").boundingBox();
  const clip = { x: row.x, y: row.y, width: row.width, height: drill.y + drill.height - row.y };
  await page.screenshot({ path: join(root, "docs/report-case.png"), clip, fullPage: true });

  const { meta, records } = readRun(run);
  const text = renderCaseExplanation(explainOneCase(buildReport(meta, records), records, CASE, run), { color: true });
  const terminal = await browser.newPage({ viewport: { width: 900, height: 400 }, deviceScaleFactor: 1 });
  await terminal.setContent(terminalPage(`$ route-eval show reports/example --case ${CASE}\n${text}`));
  await terminal.locator("pre").screenshot({ path: join(root, "docs/show.png") });

  routeEval("sweep", "-c", join(root, "route-eval.yaml"), "--distractor-registry", join(root, "registries/distractors.yaml"), "--out-dir", dir, "--sweep-id", "example-sweep", "-f", "html");
  const sweep = await browser.newPage({ viewport: { width: 1280, height: 1400 }, deviceScaleFactor: 1 });
  await sweep.goto(pathToFileURL(join(dir, "example-sweep", "report.html")).href);
  await sweep.screenshot({ path: join(root, "docs/sweep.png") });

  const rewritten = join(dir, "commerce-rewrite.yaml");
  writeFileSync(rewritten, rewriteRegistry(readFileSync(join(root, "registries/commerce.yaml"), "utf8")));
  routeEval("run", "-c", join(root, "route-eval.yaml"), "--registry", rewritten, "--run-id", "rewrite", "--out-dir", dir, "-f", "html");
  routeEval("diff", run, join(dir, "rewrite"), "-f", "html", "--output", join(dir, "diff.html"));
  const diff = await browser.newPage({ viewport: { width: 1280, height: 1180 }, deviceScaleFactor: 1 });
  await diff.goto(pathToFileURL(join(dir, "diff.html")).href);
  await diff.screenshot({ path: join(root, "docs/diff.png") });
  await diff.addStyleTag({ content: "nav.toc{position:static}" });
  await diff.locator('article.def[data-tool="list_orders"]').screenshot({ path: join(root, "docs/diff-definitions.png") });
  console.log("wrote docs/report.png, docs/report-case.png, docs/show.png, docs/sweep.png, docs/diff.png, docs/diff-definitions.png");
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

/** Search on vs off as the catalogue grows: the end-to-end accuracy and definition-token charts side by side. */
async function searchSweep() {
  routeEval("sweep", "-c", join(root, "route-eval.yaml"), "--distractor-registry", join(root, "registries/distractors.yaml"), "--sizes", "10,20,40,80", "--tool-search-axis", "off,client", "--out-dir", dir, "--sweep-id", "search-sweep", "-f", "html");
  const page = await browser.newPage({ viewport: { width: 1280, height: 1400 }, deviceScaleFactor: 1 });
  await page.goto(pathToFileURL(join(dir, "search-sweep", "report.html")).href);
  await page.addStyleTag({ content: "nav.toc{position:static}" });
  await page.evaluate(() => {
    const accuracy = document.getElementById("accuracy-chart");
    const caption = document.createElement("figcaption");
    caption.textContent = "End-to-end accuracy with its 95% band";
    accuracy.prepend(caption);
    const pair = accuracy.parentElement;
    for (const other of [...pair.children].filter((c) => c.id !== "accuracy-chart")) other.remove();
    pair.append(document.getElementById("definition-tokens-chart"));
  });
  await page.locator("#accuracy-chart").locator("xpath=..").screenshot({ path: join(root, "docs/sweep-search.png") });
  console.log("wrote docs/sweep-search.png");
}

function routeEval(...args) {
  const result = spawnSync(process.execPath, [join(root, "bin/route-eval.js"), ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`route-eval ${args[0]} exited ${result.status}: ${result.stderr}`);
}

/** A description rewrite to diff against: list_orders sharpened (its vague text is a deliberate flaw), search_orders broadened. */
function rewriteRegistry(text) {
  const doc = parseDocument(text);
  doc.set("revision", "2026-12-01.1");
  const tool = (name) => doc.get("tools").items.find((t) => t.get("name") === name);
  const list = tool("list_orders");
  list.set("purpose", "List every order in one status (processing, shipped, delivered) placed since a date, or the orders one customer placed recently.");
  list.set("use_when", ["The user asks for every order stuck in a status since a date, or what they have ordered recently."]);
  list.set("avoid_when", ["An exact order id is known (use get_order), or the user describes one order in free text (use search_orders)."]);
  tool("search_orders").set("purpose", "Find orders by any detail the user mentions: product, order id, note text or amount; returns ranked candidates.");
  return doc.toString();
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** Our own SGR codes (bold, dim, red, green and their resets) as spans. */
function ansiToHtml(text) {
  const open = { 1: "b", 2: "d", 31: "r", 32: "g" };
  return escapeHtml(text).replace(/\u001b\[(\d+)m/g, (_, code) => (open[code] ? `<span class="${open[code]}">` : "</span>"));
}

function terminalPage(text) {
  return `<!DOCTYPE html><meta charset="utf-8"><style>
body{margin:0;background:#1e1f29}
pre{margin:0;padding:18px 22px;background:#1e1f29;color:#e6e6e6;font:13px/1.45 "DejaVu Sans Mono",monospace;width:max-content}
.b{font-weight:bold;color:#fff}.d{color:#8a8fa3}.r{color:#ff6b6b}.g{color:#5fd38d}
</style><pre>${ansiToHtml(text)}</pre>`;
}
