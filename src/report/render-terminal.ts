/**
 * The terminal summary of a report: the ladder as a funnel, then failures, rates, reliability,
 * errored trials, exposure assertions and gates. Pure; without colour the output has no ANSI codes.
 */
import Table from "cli-table3";
import type { GateResult, Report } from "../types.js";
import { buildGateSection, buildSummarySections, cellText, cellTone, describeRun } from "./render-sections.js";
import type { Cell, Section, TableData, Tone } from "./render-sections.js";

export interface TerminalOptions {
  color: boolean;
  gates?: GateResult[];
}

export type Paint = (text: string, style: Style) => string;
export type Style = "bold" | "green" | "red" | "dim";

/** SGR open/close codes; close codes reset only their own attribute so styles can nest. */
const ANSI: Record<Style, [number, number]> = {
  bold: [1, 22],
  green: [32, 39],
  red: [31, 39],
  dim: [2, 22],
};

const TONE_STYLES: Record<Tone, Style | null> = {
  plain: null,
  good: "green",
  bad: "red",
  muted: "dim",
};

export function makePaint(color: boolean): Paint {
  if (!color) return (text) => text;
  return (text, style) => (text === "" ? text : `\u001b[${ANSI[style][0]}m${text}\u001b[${ANSI[style][1]}m`);
}

/** Registry, case and model strings must not move the cursor or recolour the terminal. */
export function stripControls(text: string): string {
  return text.replace(/[\t\n\r]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd");
}

function paintCell(cell: Cell, paint: Paint): string {
  const style = TONE_STYLES[cellTone(cell)];
  const text = stripControls(cellText(cell));
  return style === null ? text : paint(text, style);
}

export function renderTable(data: TableData, paint: Paint): string {
  const table = new Table({
    head: data.head.map((h) => paint(h, "bold")),
    colAligns: data.align,
    // cli-table3 colours through its own dependency and TTY detection; we paint cells ourselves.
    style: { head: [], border: [], compact: true },
  });
  for (const row of data.rows) table.push(row.map((cell) => paintCell(cell, paint)));
  return table.toString();
}

function renderSection(section: Section, paint: Paint): string {
  const parts = [paint(section.title, "bold"), ...section.lines.map(stripControls)];
  if (section.table !== null) parts.push(renderTable(section.table, paint));
  parts.push(...section.notes.map(stripControls));
  return parts.join("\n");
}

/** The whole terminal summary, ending with a newline; the same report always renders the same. */
export function renderTerminal(report: Report, opts: TerminalOptions): string {
  const paint = makePaint(opts.color);
  const sections = buildSummarySections(report);
  if (opts.gates !== undefined && opts.gates.length > 0) sections.push(buildGateSection(opts.gates));
  const blocks = [paint(stripControls(describeRun(report)), "bold"), ...sections.map((s) => renderSection(s, paint))];
  return `${blocks.join("\n\n")}\n`;
}
