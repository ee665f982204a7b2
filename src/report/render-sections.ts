/**
 * The content of a report summary, independent of presentation: titled sections of lines and
 * one table each. The terminal and Markdown renderers lay the same sections out differently.
 */
import { RATES, STAGE_RATES, OTHER_RATES } from "../types/rates.js";
import { POSITION_THIRDS, listedSelectionErrors, STAGES } from "../types.js";
import type { CostEstimate, GateResult, Metrics, Rate, Report } from "../types.js";
import { buildCallSetSection } from "./call-set-section.js";
import { buildHierarchySection } from "./hierarchy-section.js";
import { buildToolSearchSection } from "./tool-search-section.js";
import { buildAdaptiveSection, buildConversationSection } from "./run-shape-sections.js";
import {
  compareKeys,
  formatCount,
  formatCi,
  formatCounts,
  formatNumber,
  formatPercent,
  SELECTION_ERROR_LABELS,
  STAGE_MEANINGS,
  truncateLine,
  plural,
  formatRate,
} from "../render/format.js";
import { compareText } from "../text/compare-text.js";
import {
  RATE_ALIGN,
  rateRow,
  section,
  type Align,
  type Cell,
  type Section,
  type TableData,
} from "../render/section.js";

const MAX_CONFUSIONS = 10;
const MAX_UNSTABLE = 10;
const MAX_ERRORED = 5;
const RATE_HEAD = ["population", "passed", "rate", "95% CI"];

function countCell(count: number): Cell {
  return count > 0 ? { text: String(count), tone: "bad" } : String(count);
}

function moreNote(total: number, shown: number): string[] {
  return total > shown ? [`… and ${total - shown} more`] : [];
}

export function buildFunnelSection(metrics: Metrics, adaptive = false): Section {
  const rows = STAGES.map((stage) => rateRow(stage, metrics[STAGE_RATES[stage]]));
  rows.push(rateRow("end-to-end", metrics.end_to_end_accuracy));
  const lines = [
    `${plural(metrics.scored, "scored trial")} (${metrics.errored} errored, excluded); each rung is conditioned on the one before`,
    ...(adaptive
      ? [
          "adaptive run: these rates pool the trials asked, and a case's trials followed its outcomes (passing cases were asked more), so they lean toward the passing cases; the gates read each case once (case-weighted)",
        ]
      : []),
  ];
  return section("Routing ladder", lines, {
    head: ["stage", ...RATE_HEAD],
    align: RATE_ALIGN,
    rows,
  });
}

export function buildFailureSection(metrics: Metrics): Section {
  const failed = STAGES.reduce((sum, stage) => sum + metrics.failure_profile[stage], 0);
  const rows = STAGES.map((stage): Cell[] => {
    const count = metrics.failure_profile[stage];
    return [
      stage,
      countCell(count),
      formatPercent(failed === 0 ? null : count / failed),
      STAGE_MEANINGS[stage],
    ];
  });
  const lines = [`${failed} of ${plural(metrics.scored, "scored trial")} failed a rung`];
  const head = ["stage", "failed", "share of failures", "meaning"];
  return section("Failure profile", lines, {
    head,
    align: ["left", "right", "right", "left"],
    rows,
  });
}

export function buildSelectionErrorSection(metrics: Metrics): Section {
  const listed = listedSelectionErrors(metrics.selection_errors);
  const total = listed.reduce((sum, type) => sum + (metrics.selection_errors[type] ?? 0), 0);
  const rows = listed.map((type): Cell[] => {
    const count = metrics.selection_errors[type] ?? 0;
    return [
      type,
      countCell(count),
      formatPercent(total === 0 ? null : count / total),
      SELECTION_ERROR_LABELS[type],
    ];
  });
  const head = ["type", "count", "share", "the model chose"];
  return section("Selection failures by type", [], {
    head,
    align: ["left", "right", "right", "left"],
    rows,
  });
}

export function buildConfusionSection(metrics: Metrics): Section {
  const all = metrics.selection_confusions;
  if (all.length === 0) return section("Top selection confusions", ["none"], null);
  const shown = [...all]
    .sort(
      (a, b) =>
        b.count - a.count ||
        compareText(a.acceptable, b.acceptable) ||
        compareText(a.selected, b.selected),
    )
    .slice(0, MAX_CONFUSIONS);
  const rows = shown.map((c): Cell[] => [c.acceptable, "→", c.selected, String(c.count)]);
  const table: TableData = {
    head: ["expected", "", "selected", "count"],
    align: ["left", "left", "left", "right"],
    rows,
  };
  return section("Top selection confusions", [], table, moreNote(all.length, shown.length));
}

export function buildRatesSection(metrics: Metrics, cost?: CostEstimate): Section {
  const recall = Object.keys(metrics.tool_recall_at_k)
    .sort(compareKeys)
    .map((k) => rateRow(`discovery rate (k=${k})`, metrics.tool_recall_at_k[k]));
  const rows = [
    ...recall,
    ...OTHER_RATES.map((field) => rateRow(RATES[field].label, metrics[field])),
  ];
  const notes = [
    `mean visible set size: ${formatNumber(metrics.mean_visible)} ordinary tools per trial (controls apart)`,
    ...describeInputTokens(metrics),
    ...describeCost(cost),
  ];
  return section(
    "Other rates",
    [],
    { head: ["metric", ...RATE_HEAD], align: RATE_ALIGN, rows },
    notes,
  );
}

/** The cost line: an estimate from the configured prices, saying what it rests on. */
export function describeCost(cost: CostEstimate | undefined): string[] {
  if (cost === undefined) return [];
  const caveats = [
    ...(cost.batch_discount > 0
      ? [`batch discount ${Math.round(cost.batch_discount * 100)}% applied`]
      : []),
    ...(cost.input_estimated > 0
      ? [`input tokens of ${cost.input_estimated} trials are route-eval's estimate`]
      : []),
    ...(cost.output_missing > 0
      ? [`${cost.output_missing} trials reported no output tokens (counted as 0)`]
      : []),
  ];
  return [
    `estimated cost: $${cost.usd.toFixed(4)} for ${formatCount(cost.input_tokens)} input and ${formatCount(cost.output_tokens)} output tokens at the configured prices of ${cost.model}${caveats.length > 0 ? ` (${caveats.join("; ")})` : ""} — an estimate, not a bill`,
  ];
}

/** Says which counts are the endpoint's and which are route-eval's estimate; nothing when no trial has one. */
export function describeInputTokens(metrics: Metrics): string[] {
  const { mean, reported, estimated } = metrics.input_tokens;
  if (mean === null) return [];
  const source =
    estimated === 0
      ? `reported by the endpoint for all ${reported} trials`
      : `estimated as ceil(characters / 4) of the request for ${estimated} of ${reported + estimated} trials (the endpoint reported none)`;
  return [`mean input tokens: ${formatNumber(mean)} per trial, ${source}`];
}

/** recall@k, MRR and nDCG@k of the acceptable set; null when no trial had a scoring retriever. */
export function buildRetrievalSection(metrics: Metrics): Section | null {
  const { recall_at_k, mrr, ndcg_at_k } = metrics.retrieval;
  if (recall_at_k.denominator === 0) return null;
  const row = (label: string, mean: Rate): Cell[] => [
    label,
    String(mean.denominator),
    formatPercent(mean.value),
    formatCi(mean.ci),
  ];
  const rows = [
    row("retriever recall@k", recall_at_k),
    row("retriever MRR", mrr),
    row("retriever nDCG@k", ndcg_at_k),
  ];
  const lines = [
    `means over ${recall_at_k.denominator} trials with an acceptable ordinary tool among the candidates the retriever ranked`,
    "relevant = the acceptable tools that were exposed; k = the run's budget; intervals are Wilson's on the sum, as for pass^k",
  ];
  const table: TableData = {
    head: ["metric", "trials", "mean", "95% CI"],
    align: ["left", "right", "right", "left"],
    rows,
  };
  return section("Retrieval quality", lines, table);
}

export function buildReliabilitySection(metrics: Metrics): Section {
  const ks = [
    ...new Set([...Object.keys(metrics.pass_hat_k), ...Object.keys(metrics.pass_at_k)]),
  ].sort(compareKeys);
  if (ks.length === 0) return section("Reliability over trials", ["no scored trials"], null);
  // k as rows (a table one column per k would be hundreds of characters wide at 100 trials); when
  // there are many, a chosen few: 1, 2, 3, 5, 10, 20, 50 and the largest.
  const shown =
    ks.length <= SHOWN_K.length + 1
      ? ks
      : ks.filter((k) => SHOWN_K.includes(Number(k)) || k === ks[ks.length - 1]);
  // Each a mean of per-case estimates: its sum over the cases, and its interval, beside it.
  const mean = (rate: Rate | undefined) =>
    rate === undefined ? MISSING_CELL : `${formatRate(rate)} ${formatCi(rate.ci)}`;
  const rows = shown.map((k): Cell[] => [
    `k=${k}`,
    String(metrics.pass_hat_k[k]?.denominator ?? 0),
    mean(metrics.pass_hat_k[k]),
    mean(metrics.pass_at_k[k]),
  ]);
  const align: Align[] = ["left", "right", "right", "right"];
  const cases = metrics.pass_hat_k["1"]?.denominator ?? 0;
  const short = metrics.pass_k_short_cases ?? [];
  const lines = [`over the same ${cases} case${cases === 1 ? "" : "s"} at every k`];
  if (short.length > 0) {
    const named = short
      .slice(0, MAX_SHORT)
      .map((c) => `${c.case_id} (${c.scored})`)
      .join(", ");
    const more = short.length > MAX_SHORT ? ` and ${short.length - MAX_SHORT} more` : "";
    lines.push(
      `k stops at ${ks.length}: ${short.length} case${short.length === 1 ? " has" : "s have"} fewer scored trials (errored trials do not count): ${named}${more}`,
    );
  }
  if (shown.length < ks.length)
    lines.push(
      `k = ${shown.map((k) => k).join(", ")} of 1..${ks[ks.length - 1]} (every k: report.json)`,
    );
  return section("Reliability over trials", lines, {
    head: ["k", "cases", "pass^k (all k succeed)", "pass@k (any of k succeeds)"],
    align,
    rows,
  });
}

const SHOWN_K = [1, 2, 3, 5, 10, 20, 50];
const MISSING_CELL = "—";

const MAX_SHORT = 5;

/** "consistency 85.0% (17/20) [78.1%, 90.2%] over 20 cases with ≥ 2 scored trials (…)", or why it is "—". */
export function describeConsistency(metrics: Metrics): string {
  const c = metrics.consistency_rate;
  // A report written before consistency had its interval carries the value alone.
  if (c === undefined && metrics.consistency !== null)
    return `consistency ${formatPercent(metrics.consistency)} (mean share of each case's most frequent selection)`;
  if (c === null || c === undefined)
    return "consistency — (it needs at least 2 scored trials of a case; every case has 1)";
  return `consistency ${formatPercent(c.value)} (${formatCount(c.numerator)}/${c.denominator}) ${formatCi(c.ci)} over ${c.denominator} cases with ≥ 2 scored trials (mean share of each case's most frequent selection)`;
}

export function buildConsistencySection(metrics: Metrics): Section {
  const all = metrics.unstable_cases;
  const lines = [
    describeConsistency(metrics),
    `${all.length} unstable case${all.length === 1 ? "" : "s"}`,
  ];
  if (all.length === 0) return section("Consistency", lines, null);
  const shown = [...all]
    .sort((a, b) => a.modal_count / a.n - b.modal_count / b.n || compareText(a.case_id, b.case_id))
    .slice(0, MAX_UNSTABLE);
  const rows = shown.map((u): Cell[] => [
    u.case_id,
    u.modal,
    `${u.modal_count}/${u.n}`,
    formatCounts(u.selections),
  ]);
  const table: TableData = {
    head: ["case", "modal", "share", "selections"],
    align: ["left", "left", "right", "left"],
    rows,
  };
  return section("Consistency", lines, table, moreNote(all.length, shown.length));
}

export function buildErroredSection(report: Report): Section {
  const { errored, trials } = report.metrics;
  const lines = [
    `${errored} of ${plural(trials, "trial")} errored (counted, excluded from every rate)`,
  ];
  if (report.errored.length === 0) return section("Errored trials", lines, null);
  const shown = report.errored.slice(0, MAX_ERRORED);
  const rows = shown.map((e): Cell[] => [e.case_id, String(e.trial), truncateLine(e.error, 100)]);
  const table: TableData = {
    head: ["case", "trial", "error"],
    align: ["left", "right", "left"],
    rows,
  };
  return section("Errored trials", lines, table, moreNote(report.errored.length, shown.length));
}

/** Selection accuracy by the third of the shown list holding the acceptable tool; null for reports without it. */
export function buildPositionSection(report: Report): Section | null {
  const byPosition = report.metrics.selection_by_position;
  if (byPosition === undefined) return null;
  const rows = POSITION_THIRDS.map((third) => rateRow(`${third} third`, byPosition[third]));
  const order =
    report.run.config.shuffle_tools === true
      ? "tools shuffled per trial (seeded), so position is independent of the tool"
      : "tools in registry order, so position and tool are confounded (use --shuffle-tools to separate them)";
  const lines = [`where the first acceptable tool stood in the list shown; ${order}`];
  return section("Selection by tool position", lines, {
    head: ["position", ...RATE_HEAD],
    align: RATE_ALIGN,
    rows,
  });
}

/** Null when every exposure assertion held. */
export function buildExposureSection(report: Report): Section | null {
  const failing = report.exposure_assertions.filter((a) => a.failures.length > 0);
  if (failing.length === 0) return null;
  const rows = failing.map((a): Cell[] => [
    a.case_id,
    { text: a.failures.join("; "), tone: "bad" },
  ]);
  const lines = [
    `${failing.length} case${failing.length === 1 ? "" : "s"} failed must_see / must_not_see`,
  ];
  return section("Failing exposure assertions", lines, {
    head: ["case", "failures"],
    align: ["left", "left"],
    rows,
  });
}

export function buildGateSection(gates: GateResult[]): Section {
  const passed = gates.filter((g) => g.passed).length;
  const rows = gates.map((g): Cell[] => [
    g.passed ? { text: "✓", tone: "good" } : { text: "✗", tone: "bad" },
    `${g.name} ${g.threshold}`,
    g.reason,
  ]);
  const lines = [`${passed} of ${gates.length} gate${gates.length === 1 ? "" : "s"} passed`];
  return section("Gates", lines, {
    head: ["", "gate", "reason"],
    align: ["left", "left", "left"],
    rows,
  });
}

/** Every summary section in reading order, gates excluded (each renderer places them). */
export function buildSummarySections(report: Report): Section[] {
  const { metrics } = report;
  const exposure = buildExposureSection(report);
  const retrieval = buildRetrievalSection(metrics);
  const position = buildPositionSection(report);
  return [
    buildFunnelSection(metrics, report.adaptive !== undefined),
    buildFailureSection(metrics),
    ...(metrics.conversations === undefined
      ? []
      : [buildConversationSection(metrics.conversations)]),
    ...(metrics.tool_search === undefined
      ? []
      : [buildToolSearchSection(metrics.tool_search, report.run.config.tool_search)]),
    ...(metrics.call_sets === undefined ? [] : [buildCallSetSection(metrics.call_sets)]),
    ...(metrics.hierarchy === undefined ? [] : [buildHierarchySection(metrics.hierarchy)]),
    buildSelectionErrorSection(metrics),
    buildConfusionSection(metrics),
    buildRatesSection(metrics, report.cost),
    ...(retrieval === null ? [] : [retrieval]),
    ...(position === null ? [] : [position]),
    ...(report.adaptive === undefined ? [] : [buildAdaptiveSection(report.adaptive)]),
    buildReliabilitySection(metrics),
    buildConsistencySection(metrics),
    buildErroredSection(report),
    ...(exposure === null ? [] : [exposure]),
  ];
}
