/**
 * Terminal layout: ANSI styles (none without colour), inert untrusted text, and tables.
 */
import Table from "cli-table3";
import { inertLine } from "../text/inert.js";
import { cellText, cellTone, type Cell, type TableData, type Tone } from "./section.js";

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

/** Registry, case and model strings must not move the cursor or recolour the terminal: one inert line. */
export function stripControls(text: string): string {
  return inertLine(text.replace(/\r\n|[\r\n\t]/g, " "));
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

