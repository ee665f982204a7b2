/**
 * GitHub-flavoured Markdown layout: escaped text and tables.
 */
import { cellText, type Align, type Cell, type TableData } from "./section.js";

const ALIGN_MARKERS: Record<Align, string> = { left: "---", right: "---:" };

/** HTML-escape `&`, `<`, `>`; escape `|` for table cells; newlines become `<br>`. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|")
    .replace(/\r\n|\r|\n/g, "<br>");
}

function renderRow(cells: Cell[]): string {
  return `| ${cells.map((cell) => escapeMarkdown(cellText(cell))).join(" | ")} |`;
}

export function renderTable(table: TableData): string {
  const lines = [renderRow(table.head), `| ${table.align.map((a) => ALIGN_MARKERS[a]).join(" | ")} |`];
  return [...lines, ...table.rows.map(renderRow)].join("\n");
}

