/** A presentation-free table (cells with tones, aligned columns) as HTML, for any page. */
import type { Cell, TableData, Tone } from "../section.js";
import { cellText, cellTone } from "../section.js";
import { html, type SafeHtml } from "./escape.js";

const TONE_CLASSES: Record<Tone, string> = { plain: "", good: "good", bad: "bad", muted: "muted" };

function renderCell(cell: Cell, align: string, tag: "td" | "th"): SafeHtml {
  const classes = [align === "right" ? "num" : "", TONE_CLASSES[cellTone(cell)]]
    .filter((c) => c !== "")
    .join(" ");
  return tag === "td"
    ? html`<td class="${classes}">${cellText(cell)}</td>`
    : html`<th class="${classes}">${cellText(cell)}</th>`;
}

export function renderTableHtml(table: TableData, id: string | null = null): SafeHtml {
  const head = table.head.map((h, i) => renderCell(h, table.align[i], "th"));
  const rows = table.rows.map(
    (row) => html`<tr>${row.map((cell, i) => renderCell(cell, table.align[i], "td"))}</tr>`,
  );
  return html`<div class="table-wrap"><table${id === null ? "" : html` id="${id}"`}><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}
