/**
 * GitHub-flavoured Markdown of a diff for PR comments and GITHUB_STEP_SUMMARY: gates first, then
 * the shared sections; removed words as <del>, added as <ins>. Every string is escaped.
 */
import { renderTable } from "../render/markdown.js";
import { inertMarkdown } from "../text/inert.js";
import type { Diff } from "../types/diff.js";
import type { DiffSection, Line, Span } from "./diff-section.js";
import { describeDiff } from "./format-diff.js";
import { buildGateSection } from "./render-definitions.js";
import { buildDiffSections, type DiffListing } from "./render-sections.js";
import { splitLead } from "./word-diff.js";

const TAGS: Record<Span["mark"], [string, string]> = {
  same: ["", ""],
  removed: ["<del>", "</del>"],
  added: ["<ins>", "</ins>"],
};

function renderSpan(span: Span): string {
  const [open, close] = TAGS[span.mark];
  const [lead, rest] = span.mark === "same" ? ["", span.text] : splitLead(span.text);
  return `${inertMarkdown(lead)}${open}${inertMarkdown(rest)}${close}`;
}

/** A word diff is quoted, so it stands apart from the lines around it. */
function renderLine(line: Line): string {
  return typeof line === "string" ? inertMarkdown(line) : `> ${line.map(renderSpan).join("")}`;
}

/** Plain lines form one paragraph (joined by <br>); a quoted word diff is a block of its own. */
function renderLines(lines: Line[]): string[] {
  const blocks: string[] = [];
  let paragraph: string[] = [];
  for (const line of lines) {
    if (typeof line === "string") {
      paragraph.push(inertMarkdown(line));
      continue;
    }
    if (paragraph.length > 0) blocks.push(paragraph.join("<br>\n"));
    paragraph = [];
    blocks.push(renderLine(line));
  }
  if (paragraph.length > 0) blocks.push(paragraph.join("<br>\n"));
  return blocks;
}

function renderSection(s: DiffSection): string {
  const parts = [`### ${inertMarkdown(s.title)}`, ...renderLines(s.lines)];
  if (s.table !== null) parts.push(renderTable(s.table));
  parts.push(...renderLines(s.notes));
  return parts.join("\n\n");
}

/** The whole Markdown document, ending with a newline. */
export function renderDiffMarkdown(diff: Diff, listing: DiffListing): string {
  const vacuous = diff.gates.some((g) => g.not_evaluable !== undefined);
  const verdict =
    diff.verdict === "fail"
      ? "**verdict: FAIL** (exit 1)"
      : vacuous
        ? "**verdict: pass, a gate not evaluable** (exit 0; it could not have failed)"
        : "**verdict: pass**";
  const header = `## route-eval diff\n\n${inertMarkdown(describeDiff(diff))}<br>\n${verdict}`;
  const sections = [buildGateSection(diff), ...buildDiffSections(diff, listing)];
  return `${[header, ...sections.map(renderSection)].join("\n\n")}\n`;
}
