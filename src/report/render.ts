import type { GateResult, Report } from "../types.js";
import { renderJson } from "./render-json.js";
import { renderJunit } from "./render-junit.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTerminal } from "./render-terminal.js";

export const FORMATS = ["terminal", "json", "markdown", "junit"] as const;
export type Format = (typeof FORMATS)[number];

export interface RenderOptions {
  color: boolean;
  gates: GateResult[];
}

const RENDERERS: Record<Format, (report: Report, options: RenderOptions) => string> = {
  terminal: (report, o) => renderTerminal(report, { color: o.color, gates: o.gates }),
  json: (report) => renderJson(report),
  markdown: (report, o) => renderMarkdown(report, { gates: o.gates }),
  junit: (report) => renderJunit(report),
};

export function renderReport(report: Report, format: Format, options: RenderOptions): string {
  return RENDERERS[format](report, options);
}

export function isFormat(value: string): value is Format {
  return (FORMATS as readonly string[]).includes(value);
}
