/**
 * The shape every summary is built in before it is laid out: titled sections of lines and one
 * table each. The terminal, Markdown and HTML renderers lay the same sections out differently.
 */
import type { Rate } from "../types.js";
import { formatCi, formatPercent, formatPopulation } from "./format.js";

/** How a renderer may emphasise a cell; the terminal maps tones to colours, Markdown ignores them. */
export type Tone = "plain" | "good" | "bad" | "muted";
export type Cell = string | { text: string; tone: Tone };
export type Align = "left" | "right";

export interface TableData {
  head: string[];
  align: Align[];
  rows: Cell[][];
}

export interface Section {
  title: string;
  /** Lines shown before the table. */
  lines: string[];
  table: TableData | null;
  /** Lines shown after the table (e.g. "… and 3 more"). */
  notes: string[];
}

export function cellText(cell: Cell): string {
  return typeof cell === "string" ? cell : cell.text;
}

export function cellTone(cell: Cell): Tone {
  return typeof cell === "string" ? "plain" : cell.tone;
}

export function section(
  title: string,
  lines: string[],
  table: TableData | null,
  notes: string[] = [],
): Section {
  return { title, lines, table, notes };
}

/** The columns of a rate table after its label: population, count, rate, interval. */
export const RATE_ALIGN: Align[] = ["left", "right", "right", "right", "left"];

/** A rate's row: its label, population (with cases), count, value and 95% interval. */
export function rateRow(label: string, rate: Rate): Cell[] {
  return [
    label,
    formatPopulation(rate),
    String(rate.numerator),
    formatPercent(rate.value),
    formatCi(rate.ci),
  ];
}
