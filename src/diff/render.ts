/** One entry point for every diff format. */
import type { DiffFormat } from "../types/formats.js";
import type { Diff } from "../types/diff.js";
import { renderDiffHtml } from "./render-html.js";
import type { RunPages } from "./render-html-cases.js";
import { renderDiffJson } from "./render-json.js";
import { renderDiffJunit } from "./render-junit.js";
import { renderDiffMarkdown } from "./render-markdown.js";
import { renderDiffTerminal } from "./render-terminal.js";

export interface DiffRenderOptions {
  color: boolean;
  /** Terminal columns to fit. */
  width?: number;
  /** html: each run's report.html relative to the page, for drill-down links (default: none). */
  pages?: RunPages;
  /** terminal, markdown: list the unchanged metrics and the cases still failing too (default: what changed). */
  all?: boolean;
}

const RENDERERS: Record<DiffFormat, (diff: Diff, options: DiffRenderOptions) => string> = {
  terminal: (diff, o) =>
    renderDiffTerminal(diff, { color: o.color, width: o.width, all: o.all === true }),
  json: (diff) => renderDiffJson(diff),
  markdown: (diff, o) => renderDiffMarkdown(diff, { all: o.all === true }),
  junit: (diff) => renderDiffJunit(diff),
  html: (diff, o) => renderDiffHtml(diff, { pages: o.pages ?? { base: null, current: null } }),
};

export function renderDiff(diff: Diff, format: DiffFormat, options: DiffRenderOptions): string {
  return RENDERERS[format](diff, options);
}
