/**
 * `--format html` for a sweep: one self-contained page (no script) with accuracy and its 95% band,
 * input tokens and latency against the true number of visible tools (or against k), N90/N50, the
 * sweep table, and links to each point's own report.html. Pure: the caller says which point pages
 * exist and how to reach them from where the page is written.
 */
import { formatRate, MISSING, plural } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import { renderHtmlPage, type HtmlSection } from "../render/html/page.js";
import { renderAccuracyChart, renderCostCharts } from "./render-sweep-html-charts.js";
import { formatSize, SWEEP_KINDS_SHOWN } from "./sweep-kinds.js";
import { buildSweepTable, describeFindings, describeSweep } from "./sweep-table.js";
import type { SweepPoint, SweepReport } from "../types/sweep.js";

export interface SweepHtmlOptions {
  /** Point run directory name (e.g. "size-05") → its report.html, relative to the page; absent when not written. */
  pointLinks: Record<string, string>;
  /** The sweep directory as the user named it, for the hint on how to write a missing point page. */
  sweepDir: string;
}

const SWEEP_STYLE = `
.chart-pair{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}.chart-pair figure{margin:0}
figcaption{font-size:13px;font-weight:600;margin:0 0 4px}
ul.findings{margin:4px 0 0;padding-left:18px;max-width:560px}ul.findings li{margin:0 0 6px}
table.sweep td[data-col]{white-space:nowrap}table.sweep td:last-child{white-space:nowrap}
table#capped{width:auto}
`;

function describeEnds(
  report: SweepReport,
  pick: (p: SweepPoint) => number | null,
  show: (p: SweepPoint) => string,
): string | null {
  const points = report.points.filter((p) => pick(p) !== null);
  const first = points[0];
  const last = points.at(-1);
  if (first === undefined || last === undefined || first === last) return null;
  const shown = SWEEP_KINDS_SHOWN[report.kind];
  const at = (p: SweepPoint) => shown.at(formatSize(shown.x(p)));
  return `${show(first)} at ${at(first)} → ${show(last)} at ${at(last)}`;
}

function renderAccuracySection(report: SweepReport): HtmlSection {
  const ends = describeEnds(
    report,
    (p) => p.selection_accuracy.value,
    (p) => formatRate(p.selection_accuracy),
  );
  const findings = describeFindings(report).map((line) => html`<li>${line}</li>`);
  const body = html`<div class="chart-pair"><figure id="accuracy-chart">${renderAccuracyChart(report)}</figure>${findings.length === 0 ? "" : html`<ul class="findings" id="findings">${findings}</ul>`}</div>`;
  const shown = SWEEP_KINDS_SHOWN[report.kind];
  const intro = `${shown.htmlIntro}; shaded: the 95% Wilson interval of ${shown.drawsRecall ? "recall and " : ""}selection accuracy. Selection accuracy: ${ends ?? "one point"}. Hover a point for its numbers.`;
  return {
    id: "accuracy",
    title: shown.htmlTitle,
    intro,
    body,
  };
}

function renderCostSection(report: SweepReport): HtmlSection {
  const tokens = describeEnds(
    report,
    (p) => p.input_tokens.mean,
    (p) => (p.input_tokens.mean === null ? MISSING : String(Math.round(p.input_tokens.mean))),
  );
  const estimated = report.points.some((p) => p.input_tokens.estimated > 0)
    ? " Estimated by route-eval as ceil(characters / 4) of each request where the endpoint reported no count."
    : "";
  const intro = `What each point costs: mean input tokens per request (${tokens ?? "one point"}) and the p50/p95 latency of the endpoint call.${estimated}`;
  return { id: "cost", title: "Tokens and latency", intro, body: renderCostCharts(report) };
}

function pointLink(point: SweepPoint, options: SweepHtmlOptions): SafeHtml {
  const href = options.pointLinks[point.run];
  if (href !== undefined)
    return html`<a href="${href}" data-field="report" title="${point.run}/report.html">report.html</a>`;
  return html`<span class="muted" data-field="report">not written</span>`;
}

function describeMissing(report: SweepReport, options: SweepHtmlOptions): SafeHtml {
  const missing = report.points.filter((p) => options.pointLinks[p.run] === undefined);
  if (missing.length === 0) return html``;
  const example = `route-eval report ${options.sweepDir}/${missing[0].run} --format html`;
  return html`<p class="muted">${missing.length} point page${missing.length === 1 ? " is" : "s are"} not there; <code>${example}</code> writes one from the point's records.</p>`;
}

function renderTableSection(report: SweepReport, options: SweepHtmlOptions): HtmlSection {
  const table = buildSweepTable(report);
  const head = table.head.map(
    (h, i) => html`<th class="${table.numeric[i] ? "num" : ""}">${h}</th>`,
  );
  const rows = report.points.map((point, r) => {
    const cells = table.rows[r].map(
      (text, i) =>
        html`<td class="${table.numeric[i] ? "num" : "ci"}" data-col="${table.head[i]}">${text}</td>`,
    );
    return html`<tr data-point="${point.run}" data-value="${point.value}">${cells}<td>${pointLink(point, options)}</td></tr>`;
  });
  const body = html`<div class="table-wrap"><table class="sweep" id="sweep-table"><thead><tr>${head}<th>point report</th></tr></thead><tbody>${rows}</tbody></table></div>${describeMissing(report, options)}`;
  const linked = Object.keys(options.pointLinks).length;
  const intro = `One full run per point (records.jsonl, run.json, report.json in its own directory). ${linked} of ${report.points.length} point pages are linked; each holds the funnel, confusion heatmap and per-case drill-down of that point.`;
  return { id: "table", title: "Sweep table", intro, body };
}

function renderCappedSection(report: SweepReport): HtmlSection | null {
  const capped = report.points.filter((p) => p.capped_cases.length > 0);
  if (capped.length === 0) return null;
  const rows = capped.map(
    (p) =>
      html`<tr><td class="num">${p.value}</td><td class="num">${p.capped_cases.length}</td><td><div class="chips">${p.capped_cases.map((id) => html`<span class="chip">${id}</span>`)}</div></td></tr>`,
  );
  const body = html`<table id="capped"><thead><tr><th class="num">${report.kind}</th><th class="num">cases</th><th>capped cases</th></tr></thead><tbody>${rows}</tbody></table>`;
  const intro =
    "Cases shown fewer ordinary tools than asked for, because their phase exposed fewer. Their true count is what the x axis uses.";
  return { id: "capped", title: "Capped cases", intro, body };
}

function sweepFacts(report: SweepReport): [string, string][] {
  const s = report.settings;
  const how = SWEEP_KINDS_SHOWN[report.kind].fact(s);
  return [
    ["endpoint", `${report.endpoint} / ${report.model}`],
    ["sweep", `${report.kind}: ${s.values.join(", ")}`],
    how,
    [
      "cases",
      `${report.points[0]?.cases ?? 0} × ${plural(s.trials, "trial")} per point (${s.cases.join(", ") || MISSING})`,
    ],
    ["started", report.started_at],
    ["finished", report.finished_at],
  ];
}

export function renderSweepHtml(report: SweepReport, options: SweepHtmlOptions): string {
  const capped = renderCappedSection(report);
  const sections = [
    renderAccuracySection(report),
    renderCostSection(report),
    renderTableSection(report, options),
    ...(capped === null ? [] : [capped]),
  ];
  return renderHtmlPage({
    title: `route-eval sweep · ${report.sweep_id}`,
    subtitle: describeSweep(report),
    facts: sweepFacts(report),
    sections,
    data: { schema: "route-eval-sweep-html/1", sweep: report },
    script: null,
    footer: `route-eval ${report.tool_version} · sweep schema ${report.schema_version} · self-contained: no network, works offline`,
    style: SWEEP_STYLE,
  });
}
