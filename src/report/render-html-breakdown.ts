/** Per-family (and per-phase, per-tag) breakdown: the same ladder over each slice, worst first. */
import { NONE_LABEL } from "../metrics/breakdowns.js";
import { STAGES } from "../types.js";
import type { CaseRow, Metrics, Report } from "../types.js";
import { compareText } from "../text/compare-text.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import { rateCell } from "./render-html-parts.js";

type Dimension = keyof Report["breakdowns"];

const CASE_KEYS: Record<Dimension, (row: CaseRow) => string[]> = {
  family: (row) => [row.family ?? NONE_LABEL],
  phase: (row) => [row.phase ?? NONE_LABEL],
  tag: (row) => (row.tags.length === 0 ? [NONE_LABEL] : row.tags),
};

function renderTable(report: Report, dimension: Dimension): SafeHtml {
  const slices = report.breakdowns[dimension];
  const cases = (key: string): number =>
    report.cases.filter((row) => CASE_KEYS[dimension](row).includes(key)).length;
  const worstFirst = (a: string, b: string): number =>
    (slices[a].end_to_end_accuracy.value ?? 2) - (slices[b].end_to_end_accuracy.value ?? 2) ||
    compareText(a, b);
  const rows = Object.keys(slices)
    .sort(worstFirst)
    .map((key) => {
      const m: Metrics = slices[key];
      const fails = STAGES.map(
        (stage) =>
          html`<td class="num ${m.failure_profile[stage] > 0 ? "bad" : "muted"}">${m.failure_profile[stage]}</td>`,
      );
      return html`<tr data-${dimension}="${key}"><td>${key}</td><td class="num">${cases(key)}</td><td class="num">${m.scored}</td>${rateCell(m.end_to_end_accuracy)}${rateCell(m.selection_accuracy)}${fails}${rateCell(m.violation_rate)}</tr>`;
    });
  const stageHeads = STAGES.map((stage) => html`<th class="num">${stage}</th>`);
  return html`<table class="breakdown" id="breakdown-${dimension}"><thead><tr><th>${dimension}</th><th class="num">cases</th><th class="num">scored trials</th><th class="num">end-to-end</th><th class="num">selection accuracy</th>${stageHeads}<th class="num">violation rate</th></tr></thead><tbody>${rows}</tbody></table>`;
}

export function renderBreakdownSection(report: Report): HtmlSection {
  const body = html`${renderTable(report, "family")}
<details><summary>by phase</summary>${renderTable(report, "phase")}</details>
<details><summary>by tag</summary>${renderTable(report, "tag")}</details>`;
  const intro =
    "Each slice's ladder, worst end-to-end accuracy first; the stage columns count failed trials at each rung. Hover a rate for its 95% interval.";
  return { id: "families", title: "By case family", intro, body };
}
