/**
 * The terminal rendering of a diff: header, comparability, outcome, metrics, flips, reliability,
 * confusion moves, changed definitions with a git-style word diff ([-removed-] {+added+}), power,
 * gates. Pure; without colour the output has no ANSI codes.
 */
import { makePaint, renderTable, stripControls, type Paint } from "../render/terminal.js";
import { displayWidth, wrapFacts, wrapText } from "../render/text-layout.js";
import type { Diff } from "../types/diff.js";
import { describeDiff } from "./format-diff.js";
import type { DiffSection, Line, Span } from "./diff-section.js";
import { buildGateSection } from "./render-definitions.js";
import { buildDiffSections } from "./render-sections.js";

const MARKERS: Record<Exclude<Span["mark"], "same">, [string, string]> = {
  removed: ["[-", "-]"],
  added: ["{+", "+}"],
};
const MARK_STYLES = { removed: "red", added: "green" } as const;

/** A word of a word diff: its mark, and whether a space comes before it. */
interface Token {
  text: string;
  mark: Span["mark"];
  spaced: boolean;
}

/** The spans as lines of tokens (a span's own line breaks kept), control characters removed. */
function tokenize(spans: Span[]): Token[][] {
  const lines: Token[][] = [[]];
  let spaced = false;
  for (const span of spans) {
    span.text.split("\n").forEach((piece, i) => {
      if (i > 0) {
        lines.push([]);
        spaced = false;
      }
      for (const part of stripControls(piece).split(/([ \t]+)/)) {
        if (part === "") continue;
        if (/^[ \t]+$/.test(part)) spaced = true;
        else {
          lines[lines.length - 1].push({ text: part, mark: span.mark, spaced });
          spaced = false;
        }
      }
    });
  }
  return lines;
}

/** One screen line of tokens, a marked run opened and closed within it (git's [-removed-] {+added+}). */
function drawTokens(tokens: Token[], paint: Paint): string {
  let text = "";
  tokens.forEach((token, i) => {
    if (i > 0 && token.spaced) text += " ";
    if (token.mark === "same") {
      text += token.text;
      return;
    }
    const [open, close] = MARKERS[token.mark];
    const first = i === 0 || tokens[i - 1].mark !== token.mark;
    const last = i === tokens.length - 1 || tokens[i + 1].mark !== token.mark;
    // Painted per token, so a wrap never leaves colour open.
    text += paint(`${first ? open : ""}${token.text}${last ? close : ""}`, MARK_STYLES[token.mark]);
  });
  return text;
}

/** A token wider than a line (a URL, text without spaces such as CJK) in pieces that fit. */
function cutWide(token: Token, room: number): Token[] {
  if (displayWidth(token.text) <= room) return [token];
  const pieces: Token[] = [];
  let piece = "";
  for (const char of token.text) {
    if (displayWidth(piece + char) > room) {
      pieces.push({ ...token, text: piece, spaced: pieces.length === 0 ? token.spaced : true });
      piece = "";
    }
    piece += char;
  }
  pieces.push({ ...token, text: piece, spaced: pieces.length === 0 ? token.spaced : true });
  return pieces;
}

/** A word diff, indented and wrapped to the width between words; a run cut by the wrap closes and reopens its markers. */
function renderWordDiff(spans: Span[], paint: Paint, width: number): string {
  const plain = makePaint(false);
  const room = Math.max(20, width - 2);
  const out: string[] = [];
  for (const tokens of tokenize(spans).map((line) =>
    line.flatMap((token) => cutWide(token, room - 4)),
  )) {
    let line: Token[] = [];
    for (const token of tokens) {
      // Tokens with no space between them (a word and its punctuation) stay on one line.
      const candidate = [...line, token];
      if (line.length > 0 && token.spaced && displayWidth(drawTokens(candidate, plain)) > room) {
        out.push(drawTokens(line, paint));
        line = [{ ...token, spaced: false }];
      } else line = candidate;
    }
    out.push(drawTokens(line, paint));
  }
  return out.map((line) => `  ${line}`.trimEnd()).join("\n");
}

function renderSection(s: DiffSection, paint: Paint, width: number): string {
  // Plain lines wrap to the width; word-diff lines (spans) keep their own layout.
  const line = (l: Line) =>
    typeof l === "string"
      ? wrapText(stripControls(l), width).join("\n")
      : renderWordDiff(l, paint, width);
  const parts = [paint(s.title, "bold"), ...s.lines.map(line)];
  if (s.table !== null) parts.push(renderTable(s.table, paint, width));
  parts.push(...s.notes.map(line));
  return parts.join("\n");
}

export function renderDiffTerminal(
  diff: Diff,
  options: { color: boolean; width?: number; all: boolean },
): string {
  const paint = makePaint(options.color);
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const sections = [...buildDiffSections(diff, { all: options.all }), buildGateSection(diff)];
  const header = wrapFacts(stripControls(describeDiff(diff)), width)
    .map((l) => paint(l, "bold"))
    .join("\n");
  const blocks = [header, ...sections.map((s) => renderSection(s, paint, width))];
  return `${blocks.join("\n\n")}\n`;
}
