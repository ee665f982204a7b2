/**
 * The sweep's table and threshold lines, independent of presentation: the terminal and Markdown
 * renderers lay out the same rows. Closed vocabularies map exhaustively, so a new sweep kind or
 * threshold status cannot be forgotten here.
 */
import {
  formatCi,
  formatMs,
  formatPercent,
  formatRate,
  MISSING,
  plural,
} from "../render/format.js";
import type { ThresholdBound } from "../types/sweep.js";
import { formatSize, SWEEP_KINDS_SHOWN } from "./sweep-kinds.js";
import type {
  SweepKind,
  SweepPoint,
  SweepReport,
  Threshold,
  ThresholdStatus,
} from "../types/sweep.js";

export interface SweepTable {
  head: string[];
  /** Right-aligned columns (numbers). */
  numeric: boolean[];
  rows: string[][];
}

interface Column {
  head: string;
  numeric: boolean;
  cell: (p: SweepPoint) => string;
}

/** Mean input tokens; "~" marks a mean that includes route-eval's estimates. */
export function formatTokens(p: SweepPoint): string {
  const { mean, estimated } = p.input_tokens;
  if (mean === null) return MISSING;
  return `${estimated > 0 ? "~" : ""}${Math.round(mean)}`;
}

function formatVisible(p: SweepPoint): string {
  const { mean, min, max } = p.visible;
  if (mean === null) return MISSING;
  return min === max ? String(min) : `${mean.toFixed(1)} (${min}–${max})`;
}

const PASS_HEAD = (report: SweepReport) => `pass^${report.settings.trials}`;

function commonTail(report: SweepReport): Column[] {
  return [
    {
      head: PASS_HEAD(report),
      numeric: true,
      cell: (p) =>
        p.pass_hat_k === null || p.pass_hat_k === undefined
          ? formatPercent(null)
          : formatRate(p.pass_hat_k.mean),
    },
    { head: "input tokens", numeric: true, cell: formatTokens },
    { head: "p50 ms", numeric: true, cell: (p) => formatMs(p.latency_ms.p50) },
    { head: "p95 ms", numeric: true, cell: (p) => formatMs(p.latency_ms.p95) },
  ];
}

const COLUMNS: Record<SweepKind, (report: SweepReport) => Column[]> = {
  size: (report) => [
    { head: "size", numeric: true, cell: (p) => String(p.value) },
    { head: "visible", numeric: true, cell: formatVisible },
    { head: "capped", numeric: true, cell: (p) => String(p.capped_cases.length) },
    { head: "trials", numeric: true, cell: (p) => String(p.scored) },
    { head: "selection accuracy", numeric: true, cell: (p) => formatRate(p.selection_accuracy) },
    { head: "95% CI", numeric: false, cell: (p) => formatCi(p.selection_accuracy.ci) },
    { head: "abstention", numeric: true, cell: (p) => formatRate(p.abstention_accuracy) },
    { head: "violations", numeric: true, cell: (p) => formatRate(p.violation_rate) },
    { head: "arg. validity", numeric: true, cell: (p) => formatRate(p.argument_validity) },
    ...commonTail(report),
  ],
  k: (report) => [
    { head: "k", numeric: true, cell: (p) => String(p.value) },
    { head: "visible", numeric: true, cell: formatVisible },
    { head: "trials", numeric: true, cell: (p) => String(p.scored) },
    { head: "discovery rate", numeric: true, cell: (p) => formatRate(p.tool_recall) },
    { head: "selection accuracy", numeric: true, cell: (p) => formatRate(p.selection_accuracy) },
    { head: "95% CI", numeric: false, cell: (p) => formatCi(p.selection_accuracy.ci) },
    { head: "end-to-end", numeric: true, cell: (p) => formatRate(p.end_to_end_accuracy) },
    { head: "retriever MRR", numeric: true, cell: (p) => formatRate(p.retrieval.mrr) },
    { head: "retriever nDCG@k", numeric: true, cell: (p) => formatRate(p.retrieval.ndcg_at_k) },
    ...commonTail(report),
  ],
};

/** With --tool-search-axis: the mode after the size, then end-to-end accuracy (search moves failures between rungs) and definition tokens. */
function withSearchColumns(report: SweepReport, columns: Column[]): Column[] {
  if (report.settings.tool_search === undefined) return columns;
  const search: Column = { head: "search", numeric: false, cell: (p) => p.tool_search ?? MISSING };
  const extra: Column[] = [
    { head: "end-to-end", numeric: true, cell: (p) => formatRate(p.end_to_end_accuracy) },
    {
      head: "search recall",
      numeric: true,
      cell: (p) => (p.search_recall === undefined ? MISSING : formatRate(p.search_recall)),
    },
    {
      head: "def. tokens",
      numeric: true,
      cell: (p) =>
        p.definition_tokens?.mean === null || p.definition_tokens === undefined
          ? MISSING
          : `~${Math.round(p.definition_tokens.mean ?? 0)}`,
    },
  ];
  const tail = columns.findIndex((c) => c.head === "abstention");
  return [columns[0], search, ...columns.slice(1, tail), ...extra, ...columns.slice(tail)];
}

export function buildSweepTable(report: SweepReport): SweepTable {
  const columns = withSearchColumns(report, COLUMNS[report.kind](report));
  return {
    head: columns.map((c) => c.head),
    numeric: columns.map((c) => c.numeric),
    rows: report.points.map((p) => columns.map((c) => c.cell(p))),
  };
}

/** One line: sweep id, kind and its settings, endpoint/model, cases × trials. */
export function describeSweep(report: SweepReport): string {
  const s = report.settings;
  const shown = SWEEP_KINDS_SHOWN[report.kind];
  const how = shown.how(s);
  const cases = report.points[0]?.cases ?? 0;
  return `route-eval sweep ${report.sweep_id} · ${shown.title}, ${how} · ${report.endpoint}/${report.model} · ${plural(report.points.length, "point")} × ${plural(cases, "case")} × ${plural(s.trials, "trial")}`;
}

const percent = (t: Threshold) => `${Math.round(t.threshold * 100)}%`;

const STATUS_TEXT: Record<ThresholdStatus, (t: Threshold, report: SweepReport) => string> = {
  interpolated: (t) => `${formatSize(t.size ?? 0)} visible tools (interpolated)`,
  not_reached: (t, report) =>
    `not reached — at or above ${percent(t)} up to ${visibleAt(report, -1)} visible tools`,
  below_at_smallest: (t, report) =>
    `below ${percent(t)} already at the smallest size (${visibleAt(report, 0)} visible tools)`,
};

/** "; 95% interval [12.3, 31.0] over 1000 case resamples (38 not reached)". */
function describeInterval(t: Threshold, report: SweepReport): string {
  if (t.ci === undefined || t.ci === null || t.resamples === undefined) return "";
  const [low, high] = t.ci;
  const bound = (value: ThresholdBound) =>
    value === "below"
      ? `< ${visibleAt(report, 0)}`
      : value === "above"
        ? `> ${visibleAt(report, -1)}`
        : formatSize(value);
  const r = t.resamples;
  const ends = [
    r.not_reached > 0 ? `${r.not_reached} not reached` : "",
    r.below_at_smallest > 0 ? `${r.below_at_smallest} below at the smallest size` : "",
  ].filter((x) => x !== "");
  return `; 95% interval [${bound(low)}, ${bound(high)}] over ${r.count} case resamples${ends.length === 0 ? "" : ` (${ends.join(", ")})`}`;
}

/** The true mean visible size of the point at `index` (negative counts from the end). */
function visibleAt(report: SweepReport, index: number): string {
  const point = report.points.at(index);
  return point === undefined ? MISSING : formatSize(point.visible.mean ?? point.value);
}

/** The one visible size every point of the first series showed (a sweep that could not vary), or null. */
function sameVisible(report: SweepReport): number | null {
  const first = report.points[0]?.tool_search;
  const points = report.points.filter((p) => p.tool_search === first);
  const sizes = new Set(points.map((p) => p.visible.mean));
  const [size] = sizes;
  return points.length > 1 && sizes.size === 1 && size !== null && size !== undefined ? size : null;
}

/** N90 / N50 lines (size sweeps) and the notes a reader needs to read the table. */
export function describeFindings(report: SweepReport): string[] {
  const lines: string[] = [];
  const same = sameVisible(report);
  if (same !== null)
    lines.push(
      `every point showed the same ${formatSize(same)} ordinary tools: the points measure one size, not ${report.points.length} (${SWEEP_KINDS_SHOWN[report.kind].cannotVary})`,
    );
  if (report.thresholds !== null) {
    const { n90, n50 } = report.thresholds;
    lines.push(
      `N90 (selection accuracy falls below 90%): ${STATUS_TEXT[n90.status](n90, report)}${describeInterval(n90, report)}`,
    );
    lines.push(
      `N50 (selection accuracy falls below 50%): ${STATUS_TEXT[n50.status](n50, report)}${describeInterval(n50, report)}`,
    );
  }
  const capped = report.points.filter((p) => p.capped_cases.length > 0);
  if (capped.length > 0) lines.push(SWEEP_KINDS_SHOWN[report.kind].cappedNote);
  if (report.settings.tool_search !== undefined) {
    lines.push(
      `search = tool_search mode of the point; N90/N50 are of the ${report.settings.tool_search[0]} points; visible = the catalogue (with search: the deferred and always-loaded tools); ~def. tokens = route-eval's estimate of the tool definitions a decision sent, ceil(characters / 4), over its calls`,
    );
  }
  if (report.points.some((p) => p.input_tokens.estimated > 0)) {
    lines.push(
      "~ input tokens estimated by route-eval as ceil(characters / 4) of the request (the endpoint reported none)",
    );
  }
  return lines;
}
