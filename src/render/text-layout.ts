/**
 * Plain-text layout for terminal explanations: word wrapping and two columns side by side.
 * Widths are display columns (string-width): a CJK character or an emoji takes two, a combining
 * mark none, so registry and model prose in any script keeps the columns straight.
 *
 * The greedy wrap is our own rather than wrap-ansi's: wrap-ansi's hard mode breaks an over-long
 * word (a long tool name) across the end of the current line, where this one starts it on a line
 * of its own and cuts it there — the layout every rendering and golden file is written in.
 */
import { lazy, lazyRequire } from "../text/lazy.js";

/** The columns `text` takes on a terminal. */
export function displayWidth(text: string): number {
  return NARROW.test(text) ? text.length : stringWidth()(text);
}

/**
 * Printable ASCII and the narrow signs route-eval's own renderings use (rules, arrows, the middle
 * dot, the ellipsis): none joins a neighbour into one grapheme, each takes one column, so a line
 * made only of them is as wide as it is long — string-width's answer, without loading it (its
 * Unicode tables and segmenter cost a start-up about 35 ms). test/text-layout.test.ts holds the set to string-width.
 */
export const NARROW = /^[\x20-\x7E─—→·…×−–≥≤✓✗↓↑±│▸≈]*$/;

// string-width is an ES module: loaded by require (Node ≥ 20.19) on first use, or where require
// cannot load ES modules, imported at start-up (the CLI waits for `widthReady`). No top-level
// await: a CommonJS project can require("route-eval").
type StringWidth = (text: string) => number;
let imported: StringWidth | null = null;
const canRequire = process.features.require_module === true;
/** Settles once string-width can measure (at once where require loads ES modules). */
export const widthReady: Promise<void> = canRequire
  ? Promise.resolve()
  : import("string-width").then((module) => {
      imported = module.default;
    });
const required = lazyRequire<{ default: StringWidth }>("string-width");
const stringWidth = (): StringWidth =>
  imported ?? (canRequire ? required().default : countCodePoints);

/** Until string-width is imported (older Node, before `widthReady`): one column per code point. */
function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** `text` padded with spaces to `width` display columns. */
export function padToWidth(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}

/** Words of `text` (whitespace collapsed) in lines of at most `width` columns; over-long words are cut. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  let used = 0;
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    for (const piece of chunk(word, width)) {
      const size = displayWidth(piece);
      if (line === "") [line, used] = [piece, size];
      else if (used + 1 + size <= width) [line, used] = [`${line} ${piece}`, used + 1 + size];
      else {
        lines.push(line);
        [line, used] = [piece, size];
      }
    }
  }
  if (line !== "" || lines.length === 0) lines.push(line);
  return lines;
}

/** A word in pieces of at most `width` columns (whole characters; a character wider than the line stands alone). */
function chunk(word: string, width: number): string[] {
  if (displayWidth(word) <= width) return [word];
  const pieces: string[] = [];
  let piece = "";
  let used = 0;
  for (const { segment } of graphemes().segment(word)) {
    const size = displayWidth(segment);
    if (piece !== "" && used + size > width) {
      pieces.push(piece);
      [piece, used] = ["", 0];
    }
    piece += segment;
    used += size;
  }
  if (piece !== "") pieces.push(piece);
  return pieces;
}

const graphemes = lazy(() => new Intl.Segmenter(undefined, { granularity: "grapheme" }));

/** Wrap, then indent every line; the first line may carry a label padded to the indent. */
export function indentWrap(text: string, width: number, indent: number, label = ""): string[] {
  const pad = " ".repeat(indent);
  return wrapText(text, width - indent).map(
    (line, i) => (i === 0 && label !== "" ? padToWidth(label, indent) : pad) + line,
  );
}

/** Paragraphs (split on newlines) wrapped to `width`. */
export function wrapParagraphs(text: string, width: number): string[] {
  return text.split("\n").flatMap((paragraph) => wrapText(paragraph, width));
}

/** Two blocks of lines as columns of `width` each, joined by " │ ". */
export function sideBySide(left: string[], right: string[], width: number): string[] {
  const rows = Math.max(left.length, right.length);
  return Array.from({ length: rows }, (_, i) =>
    `${padToWidth(left[i] ?? "", width)} │ ${right[i] ?? ""}`.trimEnd(),
  );
}

/** A " · "-separated line of facts in lines of at most `width`, breaking between facts (a fact wider than the line is word-wrapped). */
export function wrapFacts(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  const facts = text.split(" · ");
  for (const [i, fact] of facts.entries()) {
    // A line that breaks after this fact ends in " ·": room is kept for it.
    const tail = i === facts.length - 1 ? 0 : 2;
    if (line === "") line = fact;
    else if (displayWidth(line) + 3 + displayWidth(fact) + tail <= width) line += ` · ${fact}`;
    else {
      lines.push(`${line} ·`);
      line = fact;
    }
  }
  lines.push(line);
  return lines.flatMap((l) => (displayWidth(l) <= width ? [l] : wrapText(l, width)));
}

/** `text` on one line of at most `width` columns: cut with "…" when longer (wide characters counted as two). */
export function cutToWidth(text: string, width: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (displayWidth(line) <= width) return line;
  // Narrow characters are counted, not measured: measuring every longer prefix would be quadratic.
  let kept = "";
  let used = 0;
  for (const char of line) {
    used = NARROW.test(char) && used >= 0 ? used + 1 : -1;
    if ((used >= 0 ? used : displayWidth(kept + char)) > width - 1) break;
    kept += char;
  }
  return `${kept}…`;
}
