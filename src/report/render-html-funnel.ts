/** The ladder as a funnel: how many scored trials survive each rung, with each rung's conditional rate. */
import { STAGE_RATES } from "../types/rates.js";
import { STAGES } from "../types.js";
import type { Metrics, Stage } from "../types.js";
import { formatCount, plural, STAGE_MEANINGS } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import { rateCells, svgBar } from "./render-html-parts.js";

function rungRow(metrics: Metrics, stage: Stage): SafeHtml {
  const rate = metrics[STAGE_RATES[stage]];
  const lost = metrics.failure_profile[stage];
  return html`<tr class="rung" data-rung="${stage}">
<td>${stage}</td><td class="num" data-field="denominator">${formatCount(rate.denominator)}</td><td class="num" data-field="numerator">${formatCount(rate.numerator)}</td>${rateCells(rate)}
<td class="num ${lost > 0 ? "bad" : ""}" data-field="failed">${lost}</td>
<td class="bar-cell" title="${formatCount(rate.numerator)} of ${plural(metrics.scored, "scored trial")} pass this rung">${svgBar(rate.numerator, metrics.scored, "fill-ok", true)}</td>
<td class="muted">${STAGE_MEANINGS[stage]}</td></tr>`;
}

export function renderFunnelSection(metrics: Metrics): HtmlSection {
  const e2e = metrics.end_to_end_accuracy;
  const body = html`<table class="funnel">
<thead><tr><th>rung</th><th class="num">population</th><th class="num">passed</th><th class="num">rate</th><th>95% CI</th><th class="num">failed here</th><th>trials left</th><th>a failure means</th></tr></thead>
<tbody>${STAGES.map((stage) => rungRow(metrics, stage))}
<tr class="rung" data-rung="end-to-end"><td><strong>end-to-end</strong></td><td class="num" data-field="denominator">${formatCount(e2e.denominator)}</td><td class="num" data-field="numerator">${formatCount(e2e.numerator)}</td>${rateCells(e2e)}<td></td><td class="bar-cell">${svgBar(e2e.numerator, metrics.scored, "fill-ok", true)}</td><td class="muted">correct: no rung failed</td></tr>
</tbody></table>`;
  const intro = `${plural(metrics.scored, "scored trial")} (${metrics.errored} errored, excluded). Each rung's rate is conditioned on the rung before; the bars show how many trials are still alive after each rung.`;
  return { id: "funnel", title: "Routing ladder", intro, body };
}
