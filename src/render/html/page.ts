/**
 * The shell every route-eval HTML page shares (run report, sweep, diff): one
 * self-contained file with inline CSS, an optional inline script, the page's data as JSON, and a
 * Content-Security-Policy that forbids every network fetch and any script but our own.
 */
import { createHash } from "node:crypto";
import { embedJson, html, trustedHtml, type SafeHtml } from "./escape.js";
import { HTML_STYLE } from "./style.js";

export interface HtmlSection {
  /** Anchor id (also the table of contents link). */
  id: string;
  title: string;
  /** A sentence saying what the section shows and how to read it. */
  intro: string | null;
  body: SafeHtml;
}

export interface HtmlPage {
  /** The document title and the page heading. */
  title: string;
  /** One line under the heading, e.g. the run description. */
  subtitle: string;
  /** Label → value pairs shown in the header. */
  facts: [string, string][];
  sections: HtmlSection[];
  /** Embedded as JSON in <script type="application/json" id="route-eval-data"> for the page script. */
  data: unknown;
  /** Trusted inline script (constant code from this codebase), or null for none. */
  script: string | null;
  footer: string;
  /** Extra CSS of this kind of page (constant text from this codebase), after the shared sheet. */
  style?: string;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}

/** No fetches of any kind; our own script only (by hash); inline styles allowed (they cannot run code). */
function contentSecurityPolicy(script: string | null): string {
  const scripts = script === null ? "'none'" : `'sha256-${sha256(script)}'`;
  return `default-src 'none'; script-src ${scripts}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
}

function renderSection(s: HtmlSection): SafeHtml {
  return html`<section class="card" id="${s.id}"><h2>${s.title}</h2>${s.intro === null ? "" : html`<p class="intro">${s.intro}</p>`}${s.body}</section>`;
}

export function renderHtmlPage(page: HtmlPage): string {
  const toc = page.sections.map((s) => html`<a href="#${s.id}">${s.title}</a>`);
  const facts = page.facts.map(
    ([label, value]) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`,
  );
  const script = page.script === null ? "" : html`<script>${trustedHtml(page.script)}</script>`;
  const doc = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(page.script)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="route-eval">
<title>${page.title}</title>
<style>${trustedHtml(HTML_STYLE + (page.style ?? ""))}</style>
</head>
<body>
<header class="page"><h1>${page.title}</h1><div class="run">${page.subtitle}</div><dl>${facts}</dl></header>
<nav class="toc">${toc}</nav>
<main>
${page.sections.map(renderSection)}
</main>
<footer>${page.footer}</footer>
<script type="application/json" id="route-eval-data">${embedJson(page.data)}</script>
${script}
</body>
</html>
`;
  return doc.text;
}
