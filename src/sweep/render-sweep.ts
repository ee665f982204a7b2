/** The sweep rendered for people (terminal, Markdown) and machines (JSON = sweep.json, CSV). */
import type { SweepFormat } from "../types/formats.js";
import type { TableData } from "../render/section.js";
import { makePaint, renderTable, stripControls } from "../render/terminal.js";
import { displayWidth, wrapFacts, wrapText } from "../render/text-layout.js";
import { stableStringify } from "../render/stable-json.js";
import { renderSweepCsv } from "./render-sweep-csv.js";
import { renderSweepHtml, type SweepHtmlOptions } from "./render-sweep-html.js";
import { renderSweepChart } from "./sweep-chart.js";
import {
  buildSweepTable,
  describeFindings,
  describeSweep,
  type SweepTable,
} from "./sweep-table.js";
import type { SweepReport } from "../types/sweep.js";

/**
 * The sweep's table: a row per point when that fits the width; else turned on its side — a row
 * per measure, a column per point — in as many tables as it takes to fit, so a narrow terminal
 * still reads it as a table rather than blocks of "key: value" lines.
 */
function renderTerminalTable(data: SweepTable, width: number): string {
  const paint = makePaint(false);
  const table: TableData = {
    head: data.head,
    align: data.numeric.map((n) => (n ? "right" : "left")),
    rows: data.rows,
  };
  const wide = renderTable(table, paint);
  if (widestLine(wide) <= width) return wide;
  if (data.rows.length === 0) return renderTable(table, paint, width);
  const sideways = (points: string[][], fit = width): string => {
    const table: TableData = {
      head: [data.head[0], ...points.map((row) => row[0])],
      align: ["left", ...points.map(() => "right" as const)],
      rows: data.head.slice(1).map((head, i) => [head, ...points.map((row) => row[i + 1])]),
    };
    return renderTable(table, paint, fit);
  };
  const tables: string[] = [];
  for (let start = 0; start < data.rows.length;) {
    let count = 1;
    while (
      start + count < data.rows.length &&
      widestLine(sideways(data.rows.slice(start, start + count + 1), Number.POSITIVE_INFINITY)) <=
        width
    )
      count++;
    tables.push(sideways(data.rows.slice(start, start + count)));
    start += count;
  }
  return tables.join("\n\n");
}

function widestLine(text: string): number {
  return Math.max(...text.split("\n").map((line) => displayWidth(line)));
}

function renderTerminal(report: SweepReport, width: number): string {
  const wrap = (line: string) => wrapText(stripControls(line), width).join("\n");
  const blocks = [
    wrapFacts(stripControls(describeSweep(report)), width).join("\n"),
    renderTerminalTable(buildSweepTable(report), width),
    describeFindings(report).map(wrap).join("\n"),
    renderSweepChart(report).join("\n"),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

function escapeCell(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/\|/g, "\\|");
}

function renderMarkdownTable(data: SweepTable): string {
  const row = (cells: string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [
    row(data.head),
    `| ${data.numeric.map((n) => (n ? "---:" : "---")).join(" | ")} |`,
    ...data.rows.map(row),
  ].join("\n");
}

function renderMarkdown(report: SweepReport): string {
  const findings = describeFindings(report);
  const blocks = [
    "## route-eval sweep",
    escapeCell(describeSweep(report)),
    renderMarkdownTable(buildSweepTable(report)),
    findings.map(escapeCell).join("<br>\n"),
    ["```text", ...renderSweepChart(report), "```"].join("\n"),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

export interface SweepRenderOptions extends SweepHtmlOptions {
  /** Terminal columns to fit. */
  width?: number;
}

const RENDERERS: Record<SweepFormat, (report: SweepReport, options: SweepRenderOptions) => string> =
  {
    terminal: (report, o) => renderTerminal(report, o.width ?? Number.POSITIVE_INFINITY),
    markdown: renderMarkdown,
    csv: renderSweepCsv,
    json: (report) => `${stableStringify(report, 2)}\n`,
    html: renderSweepHtml,
  };

/** `options` only matter to html: which point pages to link (none by default). */
export function renderSweep(
  report: SweepReport,
  format: SweepFormat,
  options: SweepRenderOptions = { pointLinks: {}, sweepDir: report.sweep_id },
): string {
  return RENDERERS[format](report, options);
}
