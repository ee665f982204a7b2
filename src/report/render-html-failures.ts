/** Where the failed trials broke (one stacked bar and a row per rung) and how selection failed. */
import { listedSelectionErrors, STAGES } from "../types.js";
import type { Metrics } from "../types.js";
import { FIX_ACTIONS } from "../show/explain-fix.js";
import { formatPercent, SELECTION_ERROR_LABELS, STAGE_MEANINGS } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import { stageBadge, svgBar } from "./render-html-parts.js";

function stackedBar(metrics: Metrics, failed: number): SafeHtml {
  let x = 0;
  const segments = STAGES.filter((stage) => metrics.failure_profile[stage] > 0).map((stage) => {
    const w = (metrics.failure_profile[stage] / failed) * 800;
    const rect = html`<rect class="fail-${stage}" x="${x.toFixed(1)}" y="0" width="${w.toFixed(1)}" height="22"><title>${stage}: ${metrics.failure_profile[stage]}</title></rect>`;
    x += w;
    return rect;
  });
  return html`<svg class="bar" viewBox="0 0 800 22" preserveAspectRatio="none" width="100%" height="22" role="img" aria-label="failures by rung">${segments}</svg>`;
}

export function renderFailureSection(metrics: Metrics): HtmlSection {
  const failed = STAGES.reduce((sum, stage) => sum + metrics.failure_profile[stage], 0);
  const rows = STAGES.map((stage) => {
    const count = metrics.failure_profile[stage];
    return html`<tr data-stage="${stage}"><td>${stageBadge(stage)}</td><td class="num">${count}</td><td class="num">${formatPercent(failed === 0 ? null : count / failed)}</td><td>${STAGE_MEANINGS[stage]}</td><td>${FIX_ACTIONS[stage]}</td></tr>`;
  });
  const listed = listedSelectionErrors(metrics.selection_errors);
  const errorTotal = listed.reduce((sum, type) => sum + (metrics.selection_errors[type] ?? 0), 0);
  const errorRows = listed.map((type) => {
    const count = metrics.selection_errors[type] ?? 0;
    return html`<tr><td><code>${type}</code></td><td class="num">${count}</td><td class="bar-cell">${svgBar(count, errorTotal, "fail-selection")}</td><td>${SELECTION_ERROR_LABELS[type]}</td></tr>`;
  });
  const body = html`${failed === 0 ? "" : stackedBar(metrics, failed)}
<table><thead><tr><th>rung</th><th class="num">failed trials</th><th class="num">share</th><th>meaning</th><th>the fix it points to</th></tr></thead><tbody>${rows}</tbody></table>
<h3>Selection failures by type</h3>
<table><thead><tr><th>type</th><th class="num">trials</th><th></th><th>the model chose</th></tr></thead><tbody>${errorRows}</tbody></table>`;
  return {
    id: "failures",
    title: "Failure profile",
    intro: `${failed} of ${metrics.scored} scored trials failed a rung; each is counted at the first rung it failed.`,
    body,
  };
}
