/**
 * A presentation-free DiffSection (lines, word-diff spans, one table with tones) as HTML, for the
 * diff page's sections that need nothing more; and the small parts the other sections share.
 */
import { renderTableHtml } from "../render/html/table.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import type { DiffSection, Line, Span } from "./diff-section.js";
import type { FlipKind } from "../types/diff.js";
import { FLIP_LABELS } from "./format-diff.js";
import { splitLead } from "./word-diff.js";

/** Removed words as <del>, added as <ins> (leading space outside), the rest as text; every piece escaped. */
export function renderSpans(spans: Span[]): SafeHtml {
  return html`${spans.map((span) => {
    if (span.mark === "same") return span.text;
    const [lead, rest] = splitLead(span.text);
    return span.mark === "removed"
      ? html`${lead}<del>${rest}</del>`
      : html`${lead}<ins>${rest}</ins>`;
  })}`;
}

function renderLine(line: Line, className: string): SafeHtml {
  return typeof line === "string"
    ? html`<p class="${className}">${line}</p>`
    : html`<p class="words">${renderSpans(line)}</p>`;
}

/** The section as built for the terminal and Markdown, laid out as HTML. */
export function renderPlainSection(
  id: string,
  s: DiffSection,
  intro: string | null = null,
): HtmlSection {
  const body = html`${s.lines.map((line) => renderLine(line, ""))}${s.table === null ? "" : renderTableHtml(s.table, `${id}-table`)}${s.notes.map((line) => renderLine(line, "muted"))}`;
  return { id, title: s.title, intro, body };
}

export function flipBadge(kind: FlipKind): SafeHtml {
  return html`<span class="badge fl-${kind}">${FLIP_LABELS[kind]}</span>`;
}

/** A fragment link to a case's row in the flips table (ids are arbitrary text, hence the encoding). */
export function flipHref(caseId: string): string {
  return `#flip-${encodeURIComponent(caseId)}`;
}
