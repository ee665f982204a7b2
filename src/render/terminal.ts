/**
 * Terminal layout: ANSI styles (none without colour), inert untrusted text, and tables.
 */
import type TableType from "cli-table3";
import { maxOf } from "../text/extremes.js";
import { lazyRequire } from "../text/lazy.js";
import { inertLine } from "../text/inert.js";
import { displayWidth, wrapFacts, wrapText } from "./text-layout.js";
import { cellText, cellTone, type Cell, type TableData, type Tone } from "./section.js";

/** cli-table3, loaded by the first table drawn: a run that prints JSON, or prints at its end, does not wait for it at start. */
export const Table = lazyRequire<typeof TableType>("cli-table3");

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
  return (text, style) =>
    text === "" ? text : `\u001b[${ANSI[style][0]}m${text}\u001b[${ANSI[style][1]}m`;
}

/** Registry, case and model strings must not move the cursor or recolour the terminal: one inert line. */
export function stripControls(text: string): string {
  return inertLine(text.replace(/\r\n|[\r\n\t]/g, " "));
}

/**
 * The longest text a table cell shows; a longer one (a 20,000-character tool name from a model)
 * is cut with its length said — the whole text stays in report.json and the records. cli-table3
 * measures a cell's text once per character, so a cell this long would take minutes to draw.
 */
const MAX_CELL = 240;

/** A cell's text as a table shows it: one inert line, at most MAX_CELL characters. */
function shownText(cell: Cell): string {
  const text = stripControls(cellText(cell));
  return text.length <= MAX_CELL
    ? text
    : `${text.slice(0, MAX_CELL - 20)}… (${text.length} characters)`;
}

function paintCell(cell: Cell, paint: Paint): string {
  const style = TONE_STYLES[cellTone(cell)];
  const text = shownText(cell);
  return style === null ? text : paint(text, style);
}

/** The narrowest a wrapped text column gets before the table is stacked instead. */
const MIN_TEXT_COLUMN = 10;
/** A text column no wider than this (an interval, a stage, a short name) is kept whole: longer text wraps instead. */
const WHOLE_COLUMN = 16;

/**
 * A table that fits `width` columns: as it is when it fits; else its long text (left-aligned)
 * columns are narrowed and their cells word-wrapped, never below their longest word, so a row
 * takes several lines but no identifier is split; when even that cannot fit, each row becomes a
 * block: its first cell, then "header value" facts packed into lines.
 */
export function renderTable(
  data: TableData,
  paint: Paint,
  width = Number.POSITIVE_INFINITY,
): string {
  const cells = data.rows.map((row) => row.map((cell) => shownText(cell)));
  const natural = data.head.map((head, i) =>
    Math.max(
      head.length,
      maxOf(
        cells.map((row) => longestLine(row[i] ?? "")),
        0,
      ),
    ),
  );
  const frame = (widths: number[]) => widths.reduce((sum, w) => sum + w + 3, 1);
  if (frame(natural) <= width) return drawTable(data, paint, null);
  const widths = [...natural];
  const text = data.align.map((align, i) => align === "left" && natural[i] > WHOLE_COLUMN);
  const floor = data.head.map((_, i) =>
    Math.max(
      MIN_TEXT_COLUMN,
      maxOf(
        cells.map((row) => longestWord(row[i] ?? "")),
        0,
      ),
    ),
  );
  while (frame(widths) > width) {
    // Narrow the text column that has given least so far (proportionally), the widest on a tie.
    let next = -1;
    const kept = (i: number) => widths[i] / natural[i];
    for (let i = 0; i < widths.length; i++) {
      if (!text[i] || widths[i] <= floor[i]) continue;
      if (
        next === -1 ||
        kept(i) > kept(next) ||
        (kept(i) === kept(next) && widths[i] > widths[next])
      )
        next = i;
    }
    if (next === -1) return stackTable(data, paint, width);
    widths[next] -= 1;
  }
  return drawTable(data, paint, widths);
}

function longestWord(text: string): number {
  return maxOf(
    text.split(/\s+/).map((word) => displayWidth(word)),
    0,
  );
}

function longestLine(text: string): number {
  return maxOf(
    text.split("\n").map((line) => displayWidth(line)),
    0,
  );
}

function drawTable(data: TableData, paint: Paint, widths: number[] | null): string {
  const fit = (text: string, i: number) =>
    widths === null || displayWidth(text) <= widths[i] ? [text] : wrapText(text, widths[i]);
  const table = new (Table())({
    head: data.head.map((h, i) =>
      fit(h, i)
        .map((line) => paint(line, "bold"))
        .join("\n"),
    ),
    colAligns: data.align,
    // cli-table3 colours through its own dependency and TTY detection; we paint cells ourselves.
    style: { head: [], border: [], compact: true },
  });
  for (const row of data.rows) {
    // Narrowed columns are wrapped here (words, and a word longer than the column cut), never truncated.
    table.push(
      row.map((cell, i) => {
        if (widths === null || displayWidth(shownText(cell)) <= widths[i])
          return paintCell(cell, paint);
        const lines = wrapText(shownText(cell), widths[i]);
        const style = TONE_STYLES[cellTone(cell)];
        return lines.map((line) => (style === null ? line : paint(line, style))).join("\n");
      }),
    );
  }
  return table.toString();
}

/** Each row as its first cell (bold), then its other cells as "header value" facts packed into indented lines. */
function stackTable(data: TableData, paint: Paint, width: number): string {
  const blocks = data.rows.map((row) => {
    const [first, ...rest] = row;
    const facts = rest
      .map((cell, i) => `${data.head[i + 1]} ${shownText(cell)}`.trim())
      .join(" · ");
    return [
      paint(shownText(first ?? ""), "bold"),
      ...wrapFacts(facts, width - 2).map((line) => `  ${line}`),
    ].join("\n");
  });
  return blocks.join("\n");
}
