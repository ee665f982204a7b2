/**
 * The terminal rendering of a diff: header, comparability, outcome, metrics, flips, reliability,
 * confusion moves, changed definitions with a git-style word diff ([-removed-] {+added+}), power,
 * gates. Pure; without colour the output has no ANSI codes.
 */
import { makePaint, renderTable, stripControls, type Paint } from "../render/terminal.js";
import { wrapFacts, wrapText } from "../render/text-layout.js";
import type { Diff } from "../types/diff.js";
import { describeDiff } from "./format-diff.js";
import type { DiffSection, Line, Span } from "./diff-section.js";
import { buildGateSection } from "./render-definitions.js";
import { buildDiffSections } from "./render-sections.js";
import { splitLead } from "./word-diff.js";

const MARKERS: Record<Exclude<Span["mark"], "same">, [string, string]> = { removed: ["[-", "-]"], added: ["{+", "+}"] };
const MARK_STYLES = { removed: "red", added: "green" } as const;

/** Leading whitespace stays outside the markers; each line of a span is cleaned and painted apart. */
function renderSpan(span: Span, paint: Paint): string {
  if (span.mark === "same") return span.text.split("\n").map(stripControls).join("\n");
  const [open, close] = MARKERS[span.mark];
  const [lead, rest] = splitLead(span.text);
  const pieces = rest.split("\n").map(stripControls);
  const marked = pieces.map((piece, i) => `${i === 0 ? open : ""}${piece}${i === pieces.length - 1 ? close : ""}`);
  const style = MARK_STYLES[span.mark];
  return lead.replace(/[ \t]+/g, " ") + marked.map((piece) => paint(piece, style)).join("\n");
}

/** A word diff is shown indented, line by line. */
function renderLine(line: Line, paint: Paint): string {
  if (typeof line === "string") return stripControls(line);
  const text = line.map((span) => renderSpan(span, paint)).join("");
  return text.split("\n").map((piece) => `  ${piece}`).join("\n");
}

function renderSection(s: DiffSection, paint: Paint, width: number): string {
  // Plain lines wrap to the width; word-diff lines (spans) keep their own layout.
  const line = (l: Line) => (typeof l === "string" ? wrapText(stripControls(l), width).join("\n") : renderLine(l, paint));
  const parts = [paint(s.title, "bold"), ...s.lines.map(line)];
  if (s.table !== null) parts.push(renderTable(s.table, paint, width));
  parts.push(...s.notes.map(line));
  return parts.join("\n");
}

export function renderDiffTerminal(diff: Diff, options: { color: boolean; width?: number }): string {
  const paint = makePaint(options.color);
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const sections = [...buildDiffSections(diff), buildGateSection(diff)];
  const header = wrapFacts(stripControls(describeDiff(diff)), width).map((l) => paint(l, "bold")).join("\n");
  const blocks = [header, ...sections.map((s) => renderSection(s, paint, width))];
  return `${blocks.join("\n\n")}\n`;
}
