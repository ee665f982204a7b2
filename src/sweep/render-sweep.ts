/** The sweep rendered for people (terminal, Markdown) and machines (JSON = sweep.json, CSV). */
import Table from "cli-table3";
import { stableStringify } from "../render/stable-json.js";
import { renderSweepCsv } from "./render-sweep-csv.js";
import { renderSweepHtml, type SweepHtmlOptions } from "./render-sweep-html.js";
import { renderSweepChart } from "./sweep-chart.js";
import { buildSweepTable, describeFindings, describeSweep, type SweepTable } from "./sweep-table.js";
import type { SweepReport } from "./sweep-types.js";

export const SWEEP_FORMATS = ["terminal", "markdown", "csv", "json", "html"] as const;
export type SweepFormat = (typeof SWEEP_FORMATS)[number];

function renderTerminalTable(data: SweepTable): string {
  const table = new Table({
    head: data.head,
    colAligns: data.numeric.map((n) => (n ? "right" : "left")),
    style: { head: [], border: [], compact: true },
  });
  for (const row of data.rows) table.push(row);
  return table.toString();
}

function renderTerminal(report: SweepReport): string {
  const blocks = [
    describeSweep(report),
    renderTerminalTable(buildSweepTable(report)),
    describeFindings(report).join("\n"),
    renderSweepChart(report).join("\n"),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

function escapeCell(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\|/g, "\\|");
}

function renderMarkdownTable(data: SweepTable): string {
  const row = (cells: string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [row(data.head), `| ${data.numeric.map((n) => (n ? "---:" : "---")).join(" | ")} |`, ...data.rows.map(row)].join("\n");
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

const RENDERERS: Record<SweepFormat, (report: SweepReport, options: SweepHtmlOptions) => string> = {
  terminal: renderTerminal,
  markdown: renderMarkdown,
  csv: renderSweepCsv,
  json: (report) => `${stableStringify(report, 2)}\n`,
  html: renderSweepHtml,
};

/** `options` only matter to html: which point pages to link (none by default). */
export function renderSweep(report: SweepReport, format: SweepFormat, options: SweepHtmlOptions = { pointLinks: {}, sweepDir: report.sweep_id }): string {
  return RENDERERS[format](report, options);
}
