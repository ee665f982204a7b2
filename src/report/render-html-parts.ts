/** Small building blocks shared by the HTML sections: rate cells, bars and stage badges. */
import type { Rate, Stage } from "../types.js";
import { formatCi, formatCount, formatPercent } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";

/** A case's or a trial's place on the ladder, as the page colours it. */
export type StageLabel = Stage | "passed" | "errored";

export function stageBadge(label: StageLabel): SafeHtml {
  return html`<span class="badge st-${label}">${label}</span>`;
}

/** Rate, then its interval in muted text; the title carries numerator/denominator. */
export function rateCells(rate: Rate): SafeHtml {
  const title = `${formatCount(rate.numerator)} of ${formatCount(rate.denominator)}`;
  return html`<td class="num" title="${title}">${formatPercent(rate.value)}</td><td class="ci">${formatCi(rate.ci)}</td>`;
}

/** A compact "72.7% (8/11)" cell with the interval as its title. */
export function rateCell(rate: Rate): SafeHtml {
  const title = `95% CI ${formatCi(rate.ci)}`;
  return html`<td class="num" title="${title}">${formatPercent(rate.value)} <span class="muted">(${formatCount(rate.numerator)}/${formatCount(rate.denominator)})</span></td>`;
}

/** A horizontal bar of `value` out of `max` (centred for a funnel), drawn in SVG so it needs no inline style. */
export function svgBar(value: number, max: number, className: string, centred = false): SafeHtml {
  const width = 400;
  const w = max <= 0 ? 0 : Math.round((Math.max(0, Math.min(value, max)) / max) * width * 10) / 10;
  const x = centred ? (width - w) / 2 : 0;
  return html`<svg class="bar" viewBox="0 0 ${width} 16" preserveAspectRatio="none" width="100%" height="16" aria-hidden="true"><rect class="track" x="0" y="0" width="${width}" height="16" rx="3"></rect><rect class="${className}" x="${x}" y="0" width="${w}" height="16" rx="3"></rect></svg>`;
}
