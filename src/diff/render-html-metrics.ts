/**
 * Every metric of the two runs: BASE, CURRENT, Δ, better/worse, the paired tests, and a dumbbell
 * from BASE to CURRENT on 0–100% with BASE's 95% interval, so a move inside it reads as noise.
 */
import { formatValue } from "../render/format.js";
import { wilson } from "../metrics/wilson.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import type { MetricDelta } from "../types/diff.js";
import { CHANGE_LABELS, formatDelta, formatTest, isSignificant } from "./format-diff.js";

const W = 200;
const PAD = 6;
const x = (value: number): string =>
  (PAD + Math.max(0, Math.min(1, value)) * (W - 2 * PAD)).toFixed(1);

function interval(value: MetricDelta["base"]): [number, number] | null {
  return value.numerator === null || value.denominator === null
    ? null
    : wilson(value.numerator, value.denominator);
}

/** Null for metrics that are not proportions or that a run did not measure. */
function dumbbell(row: MetricDelta): SafeHtml | null {
  const { base, current } = row;
  if (row.metric === "mean_visible" || base.value === null || current.value === null) return null;
  const ci = interval(base);
  const band =
    ci === null
      ? ""
      : html`<line class="ci-base" x1="${x(ci[0])}" x2="${x(ci[1])}" y1="6" y2="6"><title>BASE 95% CI</title></line>`;
  return html`<svg class="dumbbell" viewBox="0 0 ${W} 12" width="${W}" height="12" aria-hidden="true"><line class="track" x1="${PAD}" x2="${W - PAD}" y1="6" y2="6"></line>${band}<line class="move ${row.change}" x1="${x(base.value)}" x2="${x(current.value)}" y1="6" y2="6"></line><circle class="base" cx="${x(base.value)}" cy="6" r="3.5"></circle><circle class="${row.change}" cx="${x(current.value)}" cy="6" r="4.5"></circle></svg>`;
}

function metricRow(row: MetricDelta, alpha: number): SafeHtml {
  const significant = isSignificant(row.cases, alpha) || isSignificant(row.trials, alpha);
  const tone = row.change === "improved" ? "good" : row.change === "regressed" ? "bad" : "";
  return html`<tr class="${significant ? "sig" : ""}" data-metric="${row.metric}" data-change="${row.change}">
<td>${row.label}</td><td class="num" data-field="base">${formatValue(row, row.base)}</td><td class="num" data-field="current">${formatValue(row, row.current)}</td>
<td class="num ${tone}" data-field="delta">${formatDelta(row)}</td><td class="${tone}">${CHANGE_LABELS[row.change]}</td><td>${dumbbell(row)}</td>
<td class="ci" data-field="cases">${formatTest(row.cases)}</td><td class="ci" data-field="trials">${formatTest(row.trials)}</td></tr>`;
}

export function renderMetricsSection(metrics: MetricDelta[], alpha: number): HtmlSection {
  const shown = metrics.filter((m) => m.base.value !== null || m.current.value !== null);
  const hidden = metrics.filter((m) => !shown.includes(m)).map((m) => m.label);
  const body = html`<div class="table-wrap"><table id="metrics"><thead><tr><th>metric</th><th class="num">BASE</th><th class="num">CURRENT</th><th class="num">Δ</th><th>change</th><th>BASE → CURRENT (0–100%)</th><th>cases (paired)</th><th>trials (paired)</th></tr></thead>
<tbody>${shown.map((row) => metricRow(row, alpha))}</tbody></table></div>
${hidden.length === 0 ? "" : html`<p class="muted">Not measured in either run: ${hidden.join(", ")}.</p>`}`;
  const intro = `Grey dot: BASE, with its 95% Wilson interval as a grey bar; coloured dot: CURRENT (green better, red worse). Paired tests: cases — the sign test over shared cases whose own value rose (↑) or fell (↓); trials — exact McNemar over trial pairs in the metric's population in both runs. * marks p < ${alpha}.`;
  return { id: "metrics", title: "Metrics", intro, body };
}
