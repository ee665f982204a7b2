/** One entry point for every diff format. */
import type { Diff } from "./diff-types.js";
import { renderDiffJson } from "./render-json.js";
import { renderDiffJunit } from "./render-junit.js";
import { renderDiffMarkdown } from "./render-markdown.js";
import { renderDiffTerminal } from "./render-terminal.js";

export const DIFF_FORMATS = ["terminal", "json", "markdown", "junit"] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

const RENDERERS: Record<DiffFormat, (diff: Diff, color: boolean) => string> = {
  terminal: (diff, color) => renderDiffTerminal(diff, { color }),
  json: (diff) => renderDiffJson(diff),
  markdown: (diff) => renderDiffMarkdown(diff),
  junit: (diff) => renderDiffJunit(diff),
};

export function renderDiff(diff: Diff, format: DiffFormat, options: { color: boolean }): string {
  return RENDERERS[format](diff, options.color);
}
