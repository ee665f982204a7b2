/**
 * The confusion heatmap as inline SVG (one element per non-empty cell, so a large matrix stays
 * light to render): expected labels down, selections across — abstention, no call and phantom
 * first — green where the selection was acceptable, red elsewhere, darker the larger the share.
 */
import type { Report } from "../types.js";
import { buildHeatmap, isAcceptableCell, type Heatmap, type HeatRow } from "./confusion-heatmap.js";
import type { CaseExplanation } from "../types/explain.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";

const CELL = 18;
const GAP = 8;
const MAX_LABEL = 44;

function shorten(text: string): string {
  return text.length <= MAX_LABEL ? text : `${text.slice(0, MAX_LABEL - 1)}…`;
}

/** 1–5 by the cell's share of its row. */
function intensity(count: number, total: number): number {
  return Math.min(5, Math.max(1, Math.ceil((count / total) * 5)));
}

interface Layout {
  labelWidth: number;
  headHeight: number;
  columnX: number[];
  width: number;
}

function layOut(map: Heatmap): Layout {
  const longest = (texts: string[]): number => Math.max(4, ...texts.map((t) => shorten(t).length));
  const labelWidth = Math.round(
    longest(map.rows.map((r) => r.label.split("|").join(" | "))) * 6.4 + 14,
  );
  const headHeight = Math.round(longest(map.columns.map((c) => c.key)) * 6.2 + 14);
  let x = labelWidth;
  const columnX = map.columns.map((c, i) => {
    if (i > 0 && map.columns[i - 1].special && !c.special) x += GAP;
    const at = x;
    x += CELL;
    return at;
  });
  return { labelWidth, headHeight, columnX, width: x + 64 };
}

function renderRow(map: Heatmap, row: HeatRow, index: number, l: Layout): SafeHtml {
  const y = l.headHeight + index * CELL;
  const label = row.label.split("|").join(" | ");
  const cells = map.columns.map((column, i) => {
    const cell = row.cells.get(column.key);
    if (cell === undefined) return "";
    const tone = isAcceptableCell(row.label, column.key) ? "g" : "r";
    const level = intensity(cell.count, row.total);
    const title = [`expected ${label} → ${column.key}: ${cell.count} of ${row.total} trials`];
    if (cell.names.length > 0) title.push(`called: ${cell.names.join(", ")}`);
    if (cell.cases.length > 0) title.push(`cases: ${cell.cases.join(", ")}`);
    const x = l.columnX[i];
    return html`<g class="cell" data-col="${column.key}"><title>${title.join("\n")}</title><rect class="${tone}${level}" x="${x}" y="${y}" width="${CELL - 1}" height="${CELL - 1}"></rect><text class="${level >= 4 ? "on-dark" : ""}" x="${x + CELL / 2}" y="${y + 13}" text-anchor="middle">${cell.count}</text></g>`;
  });
  return html`<g class="row ${row.wrong === 0 ? "clean" : "hot"}" data-label="${row.label}"><text x="${l.labelWidth - 6}" y="${y + 13}" text-anchor="end"><title>${label}</title>${shorten(label)}</text>${cells}<text class="total" x="${l.width - 58}" y="${y + 13}">${row.wrong}/${row.total}</text></g>`;
}

function renderColumnHeads(map: Heatmap, l: Layout): SafeHtml {
  return html`${map.columns.map((c, i) => {
    const x = l.columnX[i] + CELL / 2 + 4;
    const y = l.headHeight - 6;
    return html`<text class="${c.special ? "special" : ""}" x="${x}" y="${y}" transform="rotate(-90 ${x} ${y})"><title>${c.key}</title>${shorten(c.key)}</text>`;
  })}<text class="total" x="${l.width - 58}" y="${l.headHeight - 6}">wrong/all</text>`;
}

function renderGrid(rows: number, l: Layout): SafeHtml {
  const bottom = l.headHeight + rows * CELL;
  const horizontal = Array.from({ length: rows + 1 }, (_, i) => l.headHeight + i * CELL - 0.5);
  const vertical = [...l.columnX, l.columnX[l.columnX.length - 1] + CELL].map((x) => x - 0.5);
  return html`<g class="grid">${horizontal.map((y) => html`<line x1="${l.labelWidth}" x2="${l.width - 64}" y1="${y}" y2="${y}"></line>`)}${vertical.map((x) => html`<line x1="${x}" x2="${x}" y1="${l.headHeight}" y2="${bottom}"></line>`)}</g>`;
}

function renderMatrix(map: Heatmap, rows: HeatRow[], id: string, hidden: boolean): SafeHtml {
  if (rows.length === 0)
    return html`<p id="${id}" class="muted" ${hidden ? "hidden" : ""}>no wrong selections</p>`;
  const l = layOut(map);
  const height = l.headHeight + rows.length * CELL + 4;
  return html`<div class="heat-wrap" id="${id}" ${hidden ? "hidden" : ""}><svg class="heat" viewBox="0 0 ${l.width} ${height}" width="${l.width}" height="${height}" role="img" aria-label="confusion heatmap">${renderGrid(rows.length, l)}${renderColumnHeads(map, l)}${rows.map((row, i) => renderRow(map, row, i, l))}</svg></div>`;
}

export function renderHeatmapSection(
  report: Report,
  explanations: CaseExplanation[] | null,
): HtmlSection {
  const map = buildHeatmap(report, explanations);
  const hot = map.rows.filter((row) => row.wrong > 0);
  const body = html`<div class="filters"><label><input type="checkbox" id="heat-errors-only"> only expected labels with wrong selections (${hot.length} of ${map.rows.length})</label></div>
<div class="legend"><span><i class="g4"></i>an acceptable tool</span><span><i class="r4"></i>anything else</span><span>darker: a larger share of the row · hover a cell for its cases</span></div>
${renderMatrix(map, map.rows, "heat-all", false)}${renderMatrix(map, hot, "heat-hot", true)}`;
  const intro =
    "Every scored trial, by the tools that were acceptable (rows) and what was selected (columns; abstention, no call and phantom first). Red cells are the confusions.";
  return { id: "confusion", title: "Confusion heatmap", intro, body };
}
