/**
 * GitHub-flavoured Markdown layout: escaped text and tables.
 */
import { inertMarkdown } from "../text/inert.js";
import { cellText, type Align, type Cell, type TableData } from "./section.js";

const ALIGN_MARKERS: Record<Align, string> = { left: "---", right: "---:" };

function renderRow(cells: Cell[]): string {
  return `| ${cells.map((cell) => inertMarkdown(cellText(cell))).join(" | ")} |`;
}

export function renderTable(table: TableData): string {
  const lines = [
    renderRow(table.head),
    `| ${table.align.map((a) => ALIGN_MARKERS[a]).join(" | ")} |`,
  ];
  return [...lines, ...table.rows.map(renderRow)].join("\n");
}
