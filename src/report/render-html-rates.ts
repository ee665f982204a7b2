/** The remaining rates, the gates, errored trials and failing exposure assertions. */
import { OTHER_RATES, RATES } from "../types/rates.js";
import type { GateResult, Report } from "../types.js";
import { compareKeys, formatNumber, formatPopulation } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import { rateCells } from "./render-html-parts.js";

function rateRow(label: string, rate: Report["metrics"]["violation_rate"]): SafeHtml {
  return html`<tr><td>${label}</td><td class="num">${formatPopulation(rate)}</td><td class="num">${rate.numerator}</td>${rateCells(rate)}</tr>`;
}

export function renderRatesSection(report: Report): HtmlSection {
  const m = report.metrics;
  const recall = Object.keys(m.tool_recall_at_k)
    .sort(compareKeys)
    .map((k) => rateRow(`discovery rate (k=${k})`, m.tool_recall_at_k[k]));
  const rows = [...recall, ...OTHER_RATES.map((field) => rateRow(RATES[field].label, m[field]))];
  const body = html`<table id="rates"><thead><tr><th>metric</th><th class="num">population</th><th class="num">passed</th><th class="num">rate</th><th>95% CI</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">Mean visible set size: ${formatNumber(m.mean_visible)} ordinary tools per trial (controls apart).</p>`;
  return { id: "rates", title: "Other rates", intro: null, body };
}

export function renderGatesSection(gates: GateResult[]): HtmlSection | null {
  if (gates.length === 0) return null;
  const passed = gates.filter((g) => g.passed).length;
  const rows = gates.map(
    (g) =>
      html`<tr class="${g.passed ? "" : "failed"}"><td class="${g.passed ? "good" : "bad"}">${g.passed ? "✓ passed" : "✗ failed"}</td><td><code>${g.name} ${g.threshold}</code></td><td>${g.reason}</td></tr>`,
  );
  const body = html`<table id="gates"><thead><tr><th></th><th>gate</th><th>reason</th></tr></thead><tbody>${rows}</tbody></table>`;
  return { id: "gates", title: "Gates", intro: `${passed} of ${gates.length} gates passed.`, body };
}

/** Errored trials and failing exposure assertions; null when there are none. */
export function renderProblemsSection(report: Report): HtmlSection | null {
  const failing = report.exposure_assertions.filter((a) => a.failures.length > 0);
  if (report.errored.length === 0 && failing.length === 0) return null;
  const errored = report.errored.map(
    (e) =>
      html`<tr><td>${e.case_id}</td><td class="num">${e.trial}</td><td><code>${e.error}</code></td></tr>`,
  );
  const assertions = failing.map(
    (a) => html`<tr><td>${a.case_id}</td><td>${a.failures.join("; ")}</td></tr>`,
  );
  const body = html`${errored.length === 0 ? "" : html`<h3>Errored trials (${errored.length}; counted, excluded from every rate)</h3><table><thead><tr><th>case</th><th class="num">trial</th><th>error</th></tr></thead><tbody>${errored}</tbody></table>`}
${assertions.length === 0 ? "" : html`<h3>Failing exposure assertions (${assertions.length})</h3><table><thead><tr><th>case</th><th>failures</th></tr></thead><tbody>${assertions}</tbody></table>`}`;
  return { id: "problems", title: "Errored trials and exposure assertions", intro: null, body };
}
