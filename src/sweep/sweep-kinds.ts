/**
 * How each kind of sweep is named and drawn — a size sweep (the visible ordinary tools) or a k
 * sweep (the retriever's budget): one row a kind, read by the terminal, Markdown and HTML
 * renderers, so a new kind is one row the compiler asks every field of.
 */
import { MISSING } from "../render/format.js";
import type { SweepKind, SweepPoint, SweepReport } from "../types/sweep.js";
import type { Rate } from "../types/metrics.js";

/** A terminal chart's series: its row label and value per point. */
export interface Series {
  label: string;
  /** The rate a bar shows (its count beside it). */
  rate: (p: SweepPoint) => Rate;
}

export interface SweepKindView {
  /** "size sweep": in the one-line description. */
  title: string;
  /** The terminal chart's title, its series, each point's row label and its legend's first words. */
  chartTitle: string;
  series: Series[];
  rowLabel: (p: SweepPoint) => string;
  legend: string;
  /** The HTML accuracy chart: its section title, intro, chart label, x axis, and whether recall is drawn. */
  htmlTitle: string;
  htmlIntro: string;
  chartLabel: string;
  xLabel: string;
  drawsRecall: boolean;
  /** Where a point sits on x (its true mean visible size, one decimal, or its k), and how a point or a place on x is named. */
  x: (p: SweepPoint) => number;
  point: (p: SweepPoint) => string;
  at: (x: string) => string;
  /** What a capped case means at this kind of point. */
  cappedNote: string;
  /** Why every point can show the same tools, and what to do about it. */
  cannotVary: string;
  /** What the sweep held its points by: the description's words, and the HTML facts' row. */
  how: (s: SweepReport["settings"]) => string;
  fact: (s: SweepReport["settings"]) => [string, string];
}

/** 40 → "40", 29.94 → "29.9". */
export function formatSize(size: number): string {
  return Number.isInteger(size) ? String(size) : size.toFixed(1);
}

const padding = (s: SweepReport["settings"], join: (name: string) => string) =>
  s.distractor_registry === null
    ? ""
    : join(`${s.distractor_registry.snapshot}@${s.distractor_registry.revision}`);

export const SWEEP_KINDS_SHOWN: Record<SweepKind, SweepKindView> = {
  size: {
    title: "size sweep",
    chartTitle: "Selection accuracy against visible tools",
    series: [{ label: "", rate: (p) => p.selection_accuracy }],
    rowLabel: (p) => `${p.value}`,
    legend: "rows: requested size; ",
    htmlTitle: "Accuracy against visible tools",
    htmlIntro:
      "Selection and end-to-end accuracy against the true number of ordinary tools each case saw (controls excluded)",
    chartLabel: "accuracy against the number of visible tools",
    xLabel: "visible ordinary tools (true mean per case, log scale)",
    drawsRecall: false,
    x: (p) => Math.round((p.visible.mean ?? p.value) * 10) / 10,
    point: (p) => `size ${p.value} (${formatSize(p.visible.mean ?? p.value)} visible)`,
    at: (x) => `${x} visible tools`,
    cappedNote:
      "visible = true count of ordinary tools shown (mean, min–max); capped = cases with fewer exposed tools than asked",
    cannotVary:
      "the cases' phases expose no more tools than the smallest size asked: pad them with --distractor-registry, or sweep smaller sizes",
    how: (s) =>
      `${s.distractors ?? "random"} distractors${padding(s, (name) => ` (+ ${name})`)}, seed ${s.seed}`,
    fact: (s) => [
      "distractors",
      `${s.distractors ?? MISSING}${padding(s, (name) => ` + ${name}`)}, seed ${s.seed}`,
    ],
  },
  k: {
    title: "k sweep",
    chartTitle: "Recall@k and selection accuracy against k",
    series: [
      { label: "recall", rate: (p) => p.tool_recall },
      { label: "selection", rate: (p) => p.selection_accuracy },
    ],
    rowLabel: (p) => `k=${p.value}`,
    legend: "",
    htmlTitle: "Recall and accuracy against k",
    htmlIntro:
      "Recall@k, selection accuracy and end-to-end accuracy against the retriever's budget k",
    chartLabel: "discovery rate and accuracy against k",
    xLabel: "k, the retriever's budget (log scale)",
    drawsRecall: true,
    x: (p) => p.value,
    point: (p) => `k=${p.value}`,
    at: (x) => `k = ${x}`,
    cappedNote:
      "visible = true count of ordinary tools kept (mean, min–max): fewer than k when fewer tools were exposed",
    cannotVary:
      "the cases' phases expose no more tools than the smallest k asked: sweep smaller k, or widen the phases",
    how: (s) => `retriever ${s.retriever ?? MISSING}`,
    fact: (s) => ["retriever", s.retriever ?? MISSING],
  },
};
