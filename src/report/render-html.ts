/**
 * `--format html`: the report as one self-contained page — funnel, failure profile, confusion
 * heatmap, pass^k curves, family breakdown, rates and gates, and the filterable case table whose
 * rows expand into the same explanation as `route-eval show --case`.
 */
import type { GateResult, Report } from "../types.js";
import type { CaseExplanation } from "../types/explain.js";
import { renderBreakdownSection } from "./render-html-breakdown.js";
import { renderCasesSection } from "./render-html-cases.js";
import { renderFailureSection } from "./render-html-failures.js";
import { renderFunnelSection } from "./render-html-funnel.js";
import { renderHeatmapSection } from "./render-html-heatmap.js";
import { renderHtmlPage, type HtmlSection } from "../render/html/page.js";
import {
  renderGatesSection,
  renderProblemsSection,
  renderRatesSection,
} from "./render-html-rates.js";
import { renderReliabilitySection } from "./render-html-reliability.js";
import { readFileSync } from "node:fs";
import { lazy } from "../text/lazy.js";
import { describeRegistries, describeRun, describeTrials } from "../render/run-header.js";
import type { CounterfactualReport } from "../types/counterfactual.js";
import { renderHeadroomSection } from "../counterfactual/render-headroom-html.js";
import { HIDING_LABELS, NO_DESCRIPTION, STATUS_MARKS } from "../show/render-case.js";
import { renderConversationSection } from "./render-html-conversations.js";
import { buildAdaptiveSection } from "./run-shape-sections.js";
import { buildCallSetSection } from "./call-set-section.js";
import { buildHierarchySection } from "./hierarchy-section.js";
import { buildToolSearchSection } from "./tool-search-section.js";
import { sectionHtml } from "../render/lay-out-sections.js";

export interface HtmlOptions {
  gates: GateResult[];
  /** One per case (from the run's records) for the drill-down; null renders the table without it. */
  explanations: CaseExplanation[] | null;
  /** counterfactual.json of the run, when route-eval counterfactual has run on it. */
  headroom?: CounterfactualReport | null;
}

function runFacts(report: Report): [string, string][] {
  const { run } = report;
  const facts: [string, string][] = [
    ["endpoint", `${run.endpoint} / ${run.model}`],
    ["registry", describeRegistries(run.registries)],
    ["cases", `${report.cases.length} × ${describeTrials(report)}`],
    [
      "discovery",
      run.config.discovery.retriever === "none"
        ? "no retriever"
        : `${run.config.discovery.retriever}, k=${run.config.discovery.k ?? "?"}`,
    ],
    ["started", run.started_at || "—"],
    ["finished", run.finished_at ?? "—"],
  ];
  return facts;
}

/** The data the page script reads: the explanations and the labels of closed vocabularies. */
function pageData(options: HtmlOptions): unknown {
  return {
    schema: "route-eval-html/1",
    labels: { hiding: HIDING_LABELS, marks: STATUS_MARKS, noDescription: NO_DESCRIPTION },
    cases: options.explanations ?? [],
  };
}

export function renderHtml(report: Report, options: HtmlOptions): string {
  const gates = renderGatesSection(options.gates);
  const problems = renderProblemsSection(report);
  const sections: HtmlSection[] = [
    renderFunnelSection(report.metrics),
    ...(gates === null ? [] : [gates]),
    renderFailureSection(report.metrics),
    ...(report.metrics.conversations === undefined
      ? []
      : [renderConversationSection(report.metrics.conversations)]),
    ...(report.metrics.tool_search === undefined
      ? []
      : [
          sectionHtml(
            buildToolSearchSection(report.metrics.tool_search, report.run.config.tool_search),
            "tool-search",
            "The exposed ordinary tools were deferred behind a search the model drove; discovery fails when no search loaded an acceptable tool.",
          ),
        ]),
    ...(report.metrics.call_sets === undefined
      ? []
      : [
          sectionHtml(
            buildCallSetSection(report.metrics.call_sets),
            "call-sets",
            "Decisions whose case expected several calls: each expected call climbs the ladder; selection passes when the calls made match them exactly.",
          ),
        ]),
    ...(report.metrics.hierarchy === undefined
      ? []
      : [
          sectionHtml(
            buildHierarchySection(report.metrics.hierarchy),
            "routing-targets",
            "Decisions whose case named a target and a tool inside it: a wrong choice is scored at the first level that failed.",
          ),
        ]),
    ...(options.headroom === undefined || options.headroom === null
      ? []
      : [renderHeadroomSection(options.headroom)]),
    renderHeatmapSection(report, options.explanations),
    ...(report.adaptive === undefined
      ? []
      : [
          sectionHtml(
            buildAdaptiveSection(report.adaptive),
            "adaptive",
            "Each case sampled until an anytime-valid test decided it against the target, or the cap.",
          ),
        ]),
    renderReliabilitySection(report.metrics),
    renderBreakdownSection(report),
    renderCasesSection(report, options.explanations),
    renderRatesSection(report),
    ...(problems === null ? [] : [problems]),
  ];
  return renderHtmlPage({
    title: `route-eval report · ${report.run.run_id}`,
    subtitle: describeRun(report),
    facts: runFacts(report),
    sections,
    data: pageData(options),
    script: pageScript(),
    footer: `route-eval ${report.run.tool_version} · report schema ${report.schema_version} · self-contained: no network, works offline`,
  });
}

/** The page's script, a real source file beside the kit (src/render/html/browser/, and dist/ likewise). */
const pageScript = lazy(() =>
  readFileSync(new URL("../render/html/browser/report-page.js", import.meta.url), "utf8"),
);
