/**
 * A small inline-SVG line chart with confidence bands: the pass^k / pass@k curves now, and the
 * shape a sweep page needs (a rate with its CI band against the number of visible tools).
 */
import { html, type SafeHtml } from "./render-html-escape.js";

export interface ChartPoint {
  x: number;
  /** 0–1. */
  y: number;
  /** Interval bounds (0–1), or null for none. */
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

export interface LineChart {
  label: string;
  xLabel: string;
  series: ChartSeries[];
}

const W = 560;
const H = 260;
const PAD = { left: 48, right: 16, top: 14, bottom: 40 };

function scales(xs: number[]): { sx: (x: number) => number; sy: (y: number) => number } {
  const min = Math.min(...xs);
  const max = Math.max(...xs);
  const span = max - min;
  const inner = W - PAD.left - PAD.right;
  return {
    sx: (x) => PAD.left + (span === 0 ? inner / 2 : ((x - min) / span) * inner),
    sy: (y) => PAD.top + (1 - y) * (H - PAD.top - PAD.bottom),
  };
}

const f = (n: number): string => n.toFixed(1);

function renderSeries(s: ChartSeries, sx: (x: number) => number, sy: (y: number) => number): SafeHtml {
  const banded = s.points.filter((p) => p.band !== null);
  const upper = banded.map((p) => `${f(sx(p.x))},${f(sy(p.band?.[1] ?? p.y))}`);
  const lower = banded.map((p) => `${f(sx(p.x))},${f(sy(p.band?.[0] ?? p.y))}`).reverse();
  const band = banded.length === 0 ? "" : html`<polygon points="${[...upper, ...lower].join(" ")}" fill="${s.color}" fill-opacity="0.12" stroke="none"></polygon>`;
  const line = s.points.map((p) => `${f(sx(p.x))},${f(sy(p.y))}`).join(" ");
  const dash = s.dashed ? "5 4" : "none";
  const dots = s.points.map((p) => html`<circle cx="${f(sx(p.x))}" cy="${f(sy(p.y))}" r="4" fill="${s.color}"><title>${p.title}</title></circle>`);
  return html`<g class="series" data-series="${s.name}">${band}<polyline points="${line}" fill="none" stroke="${s.color}" stroke-width="2" stroke-dasharray="${dash}"></polyline>${dots}</g>`;
}

function renderAxes(xs: number[], sx: (x: number) => number, sy: (y: number) => number, xLabel: string): SafeHtml {
  const yTicks = [0, 0.25, 0.5, 0.75, 1].map(
    (y) => html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(sy(y))}" y2="${f(sy(y))}"></line><text x="${PAD.left - 6}" y="${f(sy(y) + 4)}" text-anchor="end">${Math.round(y * 100)}%</text>`,
  );
  const xTicks = xs.map((x) => html`<text x="${f(sx(x))}" y="${H - PAD.bottom + 16}" text-anchor="middle">${x}</text>`);
  return html`${yTicks}<line class="axis" x1="${PAD.left}" x2="${W - PAD.right}" y1="${f(sy(0))}" y2="${f(sy(0))}"></line>${xTicks}<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - 6}" text-anchor="middle">${xLabel}</text>`;
}

export function renderLineChart(chart: LineChart): SafeHtml {
  const xs = [...new Set(chart.series.flatMap((s) => s.points.map((p) => p.x)))].sort((a, b) => a - b);
  if (xs.length === 0) return html`<p class="muted">no data</p>`;
  const { sx, sy } = scales(xs);
  const legend = chart.series.map((s) => html`<span><i style="background:${s.color}"></i>${s.name}</span>`);
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${chart.label}">${renderAxes(xs, sx, sy, chart.xLabel)}${chart.series.map((s) => renderSeries(s, sx, sy))}</svg><div class="legend">${legend}</div>`;
}
