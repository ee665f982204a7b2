/**
 * A small inline-SVG line chart with confidence bands: the pass^k / pass@k curves, and the sweep
 * pages (a rate with its CI band against the number of visible tools, tokens and latency).
 */
import { html, type SafeHtml } from "./escape.js";

export interface ChartPoint {
  x: number;
  /** 0–1 on the default axis; 0–y.max in the chart's unit otherwise. */
  y: number;
  /** Interval bounds (same scale as y), or null for none. */
  band: [number, number] | null;
  /** Tooltip text. */
  title: string;
}

export interface ChartSeries {
  name: string;
  /** CSS colour of the line, the points and the band. */
  color: string;
  dashed: boolean;
  points: ChartPoint[];
}

/** A value axis other than 0–100%: 0 to `max`, ticks labelled by `format`. */
export interface ValueAxis {
  max: number;
  format: (value: number) => string;
}

/** A dotted reference line across the plot: at a y value (e.g. 90%) or at an x value (e.g. N90). */
export interface ChartGuide {
  axis: "x" | "y";
  at: number;
  label: string;
}

export interface LineChart {
  label: string;
  xLabel: string;
  series: ChartSeries[];
  /** Default: 0–1 shown as percentages. */
  y?: ValueAxis;
  /** Logarithmic x (sizes and budgets that double); ignored when an x is not positive. */
  logX?: boolean;
  guides?: ChartGuide[];
}

const W = 560;
const H = 260;
const PAD = { left: 52, right: 16, top: 14, bottom: 40 };
const PERCENT_AXIS: ValueAxis = { max: 1, format: (y) => `${Math.round(y * 100)}%` };

type Scale = (value: number) => number;

function scales(xs: number[], yMax: number, logX: boolean): { sx: Scale; sy: Scale } {
  const log = logX && xs.every((x) => x > 0);
  const t = (x: number) => (log ? Math.log(x) : x);
  const min = t(Math.min(...xs));
  const span = t(Math.max(...xs)) - min;
  const inner = W - PAD.left - PAD.right;
  const max = yMax > 0 ? yMax : 1;
  return {
    sx: (x) => PAD.left + (span === 0 ? inner / 2 : ((t(x) - min) / span) * inner),
    sy: (y) => PAD.top + (1 - Math.max(0, Math.min(y, max)) / max) * (H - PAD.top - PAD.bottom),
  };
}

const f = (n: number): string => n.toFixed(1);

function renderSeries(s: ChartSeries, sx: Scale, sy: Scale): SafeHtml {
  const banded = s.points.filter((p) => p.band !== null);
  const upper = banded.map((p) => `${f(sx(p.x))},${f(sy(p.band?.[1] ?? p.y))}`);
  const lower = banded.map((p) => `${f(sx(p.x))},${f(sy(p.band?.[0] ?? p.y))}`).reverse();
  const band =
    banded.length === 0
      ? ""
      : html`<polygon points="${[...upper, ...lower].join(" ")}" fill="${s.color}" fill-opacity="0.12" stroke="none"></polygon>`;
  const line = s.points.map((p) => `${f(sx(p.x))},${f(sy(p.y))}`).join(" ");
  const dash = s.dashed ? "5 4" : "none";
  const dots = s.points.map(
    (p) =>
      html`<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="4" fill="${s.color}"><title>${p.title}</title></circle>`,
  );
  return html`<g class="series" data-series="${s.name}">${band}<polyline points="${line}" fill="none" stroke="${s.color}" stroke-width="2" stroke-dasharray="${dash}"></polyline>${dots}</g>`;
}

function renderAxes(
  xs: number[],
  sx: Scale,
  sy: Scale,
  chart: LineChart,
  axis: ValueAxis,
): SafeHtml {
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map((share) => {
    const y = share * axis.max;
    return html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(sy(y))}" y2="${f(sy(y))}"></line><text x="${PAD.left - 6}" y="${f(sy(y) + 4)}" text-anchor="end">${axis.format(y)}</text>`;
  });
  const xTicks = xs.map(
    (x) => html`<text x="${f(sx(x))}" y="${H - PAD.bottom + 16}" text-anchor="middle">${x}</text>`,
  );
  return html`${yTicks}<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(sy(0))}" y2="${f(sy(0))}"></line>${xTicks}<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle">${chart.xLabel}</text>`;
}

function renderGuide(guide: ChartGuide, sx: Scale, sy: Scale): SafeHtml {
  if (guide.axis === "y") {
    const y = f(sy(guide.at));
    return html`<g class="guide"><line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y}" y2="${y}"></line><text x="${W - PAD.right - 2}" y="${f(sy(guide.at) - 4)}" text-anchor="end">${guide.label}</text></g>`;
  }
  const x = f(sx(guide.at));
  return html`<g class="guide"><line x1="${x}" x2="${x}" y1="${PAD.top}" y2="${f(sy(0))}"></line><text x="${f(sx(guide.at) + 4)}" y="${PAD.top + 10}">${guide.label}</text></g>`;
}

export function renderLineChart(chart: LineChart): SafeHtml {
  const xs = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort(
    (a, b) => a - b,
  );
  if (xs.length === 0) return html`<p class="muted">no data</p>`;
  const axis = chart.y ?? PERCENT_AXIS;
  const { sx, sy } = scales(xs, axis.max, chart.logX === true);
  const legend = chart.series.map(
    (s) => html`<span><i style="background:${s.color}"></i>${s.name}</span>`,
  );
  const guides = (chart.guides ?? []).map((g) => renderGuide(g, sx, sy));
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${chart.label}">${renderAxes(xs, sx, sy, chart, axis)}${guides}${chart.series.map((s) => renderSeries(s, sx, sy))}</svg><div class="legend">${legend}</div>`;
}
