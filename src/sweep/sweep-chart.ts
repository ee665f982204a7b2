import { formatRate } from "../render/format.js";
import type { SweepPoint, SweepReport } from "../types/sweep.js";
import { SWEEP_KINDS_SHOWN, type Series } from "./sweep-kinds.js";

/** Columns of a bar: one per 2.5 percentage points. */
const WIDTH = 40;
/** Thresholds marked on every bar with ':' where the bar does not reach them. */
const MARKS = [0.5, 0.9];

function bar(value: number | null): string {
  const filled = value === null ? 0 : Math.round(value * WIDTH);
  const marks = new Set(MARKS.map((m) => Math.round(m * WIDTH) - 1));
  let out = "";
  for (let i = 0; i < WIDTH; i++) out += i < filled ? "#" : marks.has(i) ? ":" : " ";
  return out;
}

function axis(indent: number): string {
  const line = Array.from({ length: WIDTH + 1 }, () => " ");
  const put = (at: number, text: string) => text.split("").forEach((ch, i) => (line[at + i] = ch));
  put(0, "0%");
  put(Math.round(0.5 * WIDTH) - 2, "50%");
  put(Math.round(0.9 * WIDTH) - 2, "90%");
  return `${" ".repeat(indent)}${line.join("").trimEnd()}`;
}

/** Horizontal bars in plain ASCII, one row per point (and series), 0–100%. */
export function renderSweepChart(report: SweepReport): string[] {
  // Search on vs off: end-to-end (search moves failures between rungs), each row labelled by its mode.
  const axisModes = report.settings.tool_search !== undefined;
  const series = axisModes
    ? [{ label: "", rate: (p: SweepPoint) => p.end_to_end_accuracy }]
    : SWEEP_KINDS_SHOWN[report.kind].series;
  const labelOf = (p: SweepPoint, s: Series, first: boolean) =>
    `${first ? SWEEP_KINDS_SHOWN[report.kind].rowLabel(p) : ""}${s.label === "" ? "" : ` ${s.label}`}${axisModes ? ` ${p.tool_search ?? ""}` : ""}`;
  const labels = report.points.flatMap((p) => series.map((s, i) => labelOf(p, s, i === 0)));
  const width = Math.max(4, ...labels.map((l) => l.length));
  const rows = report.points.flatMap((p) =>
    series.map(
      (s, i) =>
        `${labelOf(p, s, i === 0).padStart(width)} |${bar(s.rate(p).value)}| ${formatRate(s.rate(p))}`,
    ),
  );
  const legend = `(${SWEEP_KINDS_SHOWN[report.kind].legend}':' marks 50% and 90%)`;
  return [
    axisModes
      ? "End-to-end accuracy against catalogue size, by tool_search mode"
      : SWEEP_KINDS_SHOWN[report.kind].chartTitle,
    legend,
    axis(width + 2),
    ...rows,
  ];
}
