/** One entry point for every diff format (the same four as a run's report). */
import type { Format } from "../report/render.js";
import type { Diff } from "./diff-types.js";
import { renderDiffJson } from "./render-json.js";
import { renderDiffJunit } from "./render-junit.js";
import { renderDiffMarkdown } from "./render-markdown.js";
import { renderDiffTerminal } from "./render-terminal.js";

const RENDERERS: Record<Format, (diff: Diff, color: boolean) => string> = {
  terminal: (diff, color) => renderDiffTerminal(diff, { color }),
  json: (diff) => renderDiffJson(diff),
  markdown: (diff) => renderDiffMarkdown(diff),
  junit: (diff) => renderDiffJunit(diff),
};

export function renderDiff(diff: Diff, format: Format, options: { color: boolean }): string {
  return RENDERERS[format](diff, options.color);
}
