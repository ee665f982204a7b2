/**
 * The sweep page's charts: accuracy with its 95% band, mean input tokens and latency, each
 * against the true number of visible tools (size sweeps) or against k (k sweeps), on a log x
 * axis since sweep values usually double.
 */
import { formatCi, formatCount, formatPercent } from "../render/format.js";
import {
  renderLineChart,
  type ChartGuide,
  type ChartSeries,
  type ValueAxis,
} from "../render/html/chart.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { Rate } from "../types.js";
import { formatSize, SWEEP_KINDS_SHOWN } from "./sweep-kinds.js";
import { formatMs } from "../render/format.js";
import type { SweepPoint, SweepReport } from "../types/sweep.js";

const COLORS = {
  selection: "#c2362b",
  e2e: "#7b4fc9",
  recall: "#2a6fd6",
  tokens: "#d07a12",
  p50: "#1a7f4b",
  p95: "#2a6fd6",
};

/** A rate per point; `banded` draws its 95% interval (one or two bands per chart stay readable). */
function rateSeries(
  report: SweepReport,
  name: string,
  color: string,
  dashed: boolean,
  rate: (p: SweepPoint) => Rate,
  banded = true,
  of: SweepPoint[] = report.points,
): ChartSeries {
  const points = of
    .filter((p) => rate(p).value !== null)
    .map((p) => {
      const r = rate(p);
      const title = `${SWEEP_KINDS_SHOWN[report.kind].point(p)}: ${name} ${formatPercent(r.value)} ${formatCi(r.ci)} (${formatCount(r.numerator)}/${formatCount(r.denominator)})`;
      return {
        x: SWEEP_KINDS_SHOWN[report.kind].x(p),
        y: r.value ?? 0,
        band: banded ? r.ci : null,
        title,
      };
    });
  return { name, color, dashed, points };
}

function valueSeries(
  report: SweepReport,
  name: string,
  color: string,
  value: (p: SweepPoint) => number | null,
  show: (v: number) => string,
): ChartSeries {
  const points = report.points.flatMap((p) => {
    const v = value(p);
    return v === null
      ? []
      : [
          {
            x: SWEEP_KINDS_SHOWN[report.kind].x(p),
            y: v,
            band: null,
            title: `${SWEEP_KINDS_SHOWN[report.kind].point(p)}: ${name} ${show(v)}`,
          },
        ];
  });
  return { name, color, dashed: false, points };
}

/** 0 to a round number (1, 2 or 5 × 10^n) at or above the largest value; ticks with the decimals that span needs. */
export function niceAxis(values: number[]): ValueAxis {
  const top = Math.max(0, ...values);
  const power = top === 0 ? 1 : 10 ** Math.floor(Math.log10(top));
  const max = top === 0 ? 1 : ([1, 2, 5, 10].find((m) => m * power >= top) ?? 10) * power;
  const step = max / 4;
  const decimals =
    [0, 1, 2, 3, 4].find((d) => Math.abs(step * 10 ** d - Math.round(step * 10 ** d)) < 1e-6) ?? 4;
  return { max, format: (v) => (v === 0 ? "0" : v.toFixed(decimals)) };
}

function thresholdGuides(report: SweepReport): ChartGuide[] {
  if (report.thresholds === null) return [];
  const guides: ChartGuide[] = [
    { axis: "y", at: 0.9, label: "90%" },
    { axis: "y", at: 0.5, label: "50%" },
  ];
  for (const [name, t] of [
    ["N90", report.thresholds.n90],
    ["N50", report.thresholds.n50],
  ] as const) {
    if (t.size !== null)
      guides.push({ axis: "x", at: t.size, label: `${name} ≈ ${formatSize(t.size)}` });
  }
  return guides;
}

/** One colour per tool_search mode of a --tool-search-axis sweep. */
const SEARCH_COLORS = ["#c2362b", "#2a6fd6", "#1a7f4b"];

/** The points of each tool_search mode, in the axis's order. */
function searchSeries(
  report: SweepReport,
): { mode: string; points: SweepPoint[]; color: string }[] {
  return (report.settings.tool_search ?? []).map((mode, i) => ({
    mode,
    points: report.points.filter((p) => p.tool_search === mode),
    color: SEARCH_COLORS[i % SEARCH_COLORS.length],
  }));
}

/** Search on vs off: end-to-end accuracy per mode, each with its 95% band (search moves failures between rungs, so end-to-end compares them). */
function renderSearchAccuracyChart(report: SweepReport): SafeHtml {
  return renderLineChart({
    label: "end-to-end accuracy against the catalogue size, by tool_search mode",
    xLabel: "ordinary tools in the catalogue (true mean per case, log scale)",
    series: searchSeries(report).map((s) =>
      rateSeries(
        report,
        `end-to-end, search ${s.mode}`,
        s.color,
        false,
        (p) => p.end_to_end_accuracy,
        true,
        s.points,
      ),
    ),
    logX: true,
    guides: [
      { axis: "y", at: 0.9, label: "90%" },
      { axis: "y", at: 0.5, label: "50%" },
    ],
  });
}

/** Definition tokens per decision per mode, with their cluster-robust 95% bands. */
function renderDefinitionTokensChart(report: SweepReport): SafeHtml {
  const series = searchSeries(report).map((s): ChartSeries => ({
    name: `definition tokens, search ${s.mode}`,
    color: s.color,
    dashed: false,
    points: s.points.flatMap((p) => {
      const m = p.definition_tokens;
      if (m === undefined || m.mean === null) return [];
      const band = m.ci === null ? null : m.ci;
      return [
        {
          x: SWEEP_KINDS_SHOWN[report.kind].x(p),
          y: m.mean,
          band,
          title: `${SWEEP_KINDS_SHOWN[report.kind].point(p)}, search ${s.mode}: ${Math.round(m.mean)} definition tokens per decision${m.ci === null ? "" : ` [${Math.round(m.ci[0])}, ${Math.round(m.ci[1])}]`}`,
        },
      ];
    }),
  }));
  const tops = report.points.map(
    (p) => p.definition_tokens?.ci?.[1] ?? p.definition_tokens?.mean ?? 0,
  );
  return renderLineChart({
    label: "tool-definition tokens per decision, by tool_search mode",
    xLabel: "ordinary tools in the catalogue (true mean per case, log scale)",
    series,
    y: niceAxis(tops),
    logX: true,
  });
}

export function renderAccuracyChart(report: SweepReport): SafeHtml {
  if (report.settings.tool_search !== undefined) return renderSearchAccuracyChart(report);
  const selection = rateSeries(
    report,
    "selection accuracy",
    COLORS.selection,
    false,
    (p) => p.selection_accuracy,
  );
  const e2e = rateSeries(
    report,
    "end-to-end accuracy",
    COLORS.e2e,
    true,
    (p) => p.end_to_end_accuracy,
    false,
  );
  const recall = rateSeries(report, "discovery rate", COLORS.recall, false, (p) => p.tool_recall);
  return renderLineChart({
    label: SWEEP_KINDS_SHOWN[report.kind].chartLabel,
    xLabel: SWEEP_KINDS_SHOWN[report.kind].xLabel,
    series: SWEEP_KINDS_SHOWN[report.kind].drawsRecall
      ? [recall, selection, e2e]
      : [selection, e2e],
    logX: true,
    guides: thresholdGuides(report),
  });
}

export function renderCostCharts(report: SweepReport): SafeHtml {
  const tokens = (p: SweepPoint) => p.input_tokens.mean;
  const tokenText = (v: number) => String(Math.round(v));
  const tokenChart = renderLineChart({
    label: "mean input tokens per request",
    xLabel: SWEEP_KINDS_SHOWN[report.kind].xLabel,
    series: [valueSeries(report, "mean input tokens", COLORS.tokens, tokens, tokenText)],
    y: niceAxis(report.points.map((p) => tokens(p) ?? 0)),
    logX: true,
  });
  const latencies = report.points.flatMap((p) => [p.latency_ms.p50 ?? 0, p.latency_ms.p95 ?? 0]);
  const ms = (v: number) => `${formatMs(v)} ms`;
  const latencyChart = renderLineChart({
    label: "latency per request",
    xLabel: SWEEP_KINDS_SHOWN[report.kind].xLabel,
    series: [
      valueSeries(report, "p50 latency", COLORS.p50, (p) => p.latency_ms.p50, ms),
      valueSeries(report, "p95 latency", COLORS.p95, (p) => p.latency_ms.p95, ms),
    ],
    y: niceAxis(latencies),
    logX: true,
  });
  const definitions =
    report.settings.tool_search === undefined
      ? ""
      : html`<figure id="definition-tokens-chart"><figcaption>Tool-definition tokens per decision (route-eval's estimate)</figcaption>${renderDefinitionTokensChart(report)}</figure>`;
  return html`<div class="chart-pair">${definitions}<figure id="tokens-chart"><figcaption>Mean input tokens per request</figcaption>${tokenChart}</figure><figure id="latency-chart"><figcaption>Latency per request (ms)</figcaption>${latencyChart}</figure></div>`;
}
