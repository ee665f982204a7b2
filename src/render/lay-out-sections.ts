/**
 * A Section (render/section.ts) laid out in each format: the terminal's (wrapped to its width,
 * control characters stripped), Markdown's (every string escaped) and an HTML page's card (every
 * string escaped by the template). Each page kind builds its sections once and lays them out here.
 */
import type { HtmlSection } from "./html/page.js";
import { html } from "./html/escape.js";
import { renderTableHtml } from "./html/table.js";
import { renderTable as renderMarkdownTable } from "./markdown.js";
import type { Section } from "./section.js";
import { renderTable, stripControls, type Paint } from "./terminal.js";
import { wrapText } from "./text-layout.js";
import { inertMarkdown } from "../text/inert.js";

export function sectionTerminal(section: Section, paint: Paint, width: number): string {
  const wrap = (line: string) => wrapText(stripControls(line), width).join("\n");
  const parts = [paint(section.title, "bold"), ...section.lines.map(wrap)];
  if (section.table !== null) parts.push(renderTable(section.table, paint, width));
  parts.push(...section.notes.map(wrap));
  return parts.join("\n");
}

export function sectionMarkdown(section: Section): string {
  const parts = [`### ${inertMarkdown(section.title)}`];
  if (section.lines.length > 0) parts.push(section.lines.map(inertMarkdown).join("<br>\n"));
  if (section.table !== null) parts.push(renderMarkdownTable(section.table));
  if (section.notes.length > 0) parts.push(section.notes.map(inertMarkdown).join("<br>\n"));
  return parts.join("\n\n");
}

/** The same lines, table and notes, as an HTML page's card. */
export function sectionHtml(s: Section, id: string, intro: string | null): HtmlSection {
  const body = html`${s.lines.map((line) => html`<p>${line}</p>`)}${s.table === null ? "" : renderTableHtml(s.table, `${id}-table`)}${s.notes.map((line) => html`<p class="muted">${line}</p>`)}`;
  return { id, title: s.title, intro, body };
}
