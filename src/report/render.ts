import type { Format } from "../types/formats.js";
import type { GateResult, Report } from "../types.js";
import type { CaseExplanation } from "../types/explain.js";
import type { CounterfactualReport } from "../types/counterfactual.js";
import { renderHtml } from "./render-html.js";
import { renderJson } from "../render/stable-json.js";
import { renderJunit } from "./render-junit.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderTerminal } from "./render-terminal.js";

export interface RenderOptions {
  color: boolean;
  gates: GateResult[];
  /** Per-case explanations for the HTML drill-down (null or absent: none). */
  explanations?: CaseExplanation[] | null;
  /** Terminal columns to fit. */
  width?: number;
  /** The run's counterfactual.json, for the HTML headroom section. */
  headroom?: CounterfactualReport | null;
}

const RENDERERS: Record<Format, (report: Report, options: RenderOptions) => string> = {
  terminal: (report, o) =>
    renderTerminal(report, { color: o.color, gates: o.gates, width: o.width }),
  json: (report) => renderJson(report),
  markdown: (report, o) => renderMarkdown(report, { gates: o.gates }),
  junit: (report) => renderJunit(report),
  html: (report, o) =>
    renderHtml(report, {
      gates: o.gates,
      explanations: o.explanations ?? null,
      headroom: o.headroom ?? null,
    }),
};

export function renderReport(report: Report, format: Format, options: RenderOptions): string {
  return RENDERERS[format](report, options);
}
