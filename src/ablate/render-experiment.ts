/**
 * An experiment rendered for people (terminal, Markdown) and machines (JSON = experiment.json,
 * JUnit: one suite per variant). Metrics are rows and variants columns; the terminal keeps the
 * headline metrics and wraps the variants into blocks so no line is wider than the terminal.
 */
import { EXPERIMENT_KINDS } from "../types/ablate.js";
import type { ExperimentFormat } from "../types/formats.js";
import { pIs, plural } from "../render/format.js";
import { formatCount, formatMs, formatNumber, formatPercent, MISSING } from "../render/format.js";
import { renderTable as renderMarkdownTable } from "../render/markdown.js";
import type { TableData } from "../render/section.js";
import { stableStringify } from "../render/stable-json.js";
import { Table, makePaint, stripControls, type Paint } from "../render/terminal.js";
import { displayWidth, wrapFacts, wrapText } from "../render/text-layout.js";
import { renderGateSuite, renderJunitSuite, wrapSuites } from "../report/render-junit.js";
import { inertMarkdown } from "../text/inert.js";
import { STAGES, type Report } from "../types.js";
import type { Comparison, Experiment, MetricRow, VariantValue } from "../types/ablate.js";
import { renderExperimentHtml } from "./render-experiment-html.js";
import { deltaOf, methodNote } from "./compare-variants.js";

export interface ExperimentRenderOptions {
  color: boolean;
  /** Terminal width (default 100). */
  width?: number;
  /** Each variant's report, in the order of experiment.variants (JUnit's suites). */
  reports: Report[];
}

/** The rows the terminal shows (every row is in Markdown, JSON and HTML). */
const HEADLINE = [
  "capability_coverage",
  "exposure_recall",
  "discovery_recall",
  "selection_accuracy",
  "end_to_end_accuracy",
  "call_accuracy",
  "abstention_accuracy",
  "violation_rate",
  "pass_hat_k.1",
  "consistency",
  "mean_visible",
  "input_tokens",
  "latency_ms",
];

/** One line: id, endpoint, cases × trials, variants (and skipped rungs). */
export function describeExperiment(e: Experiment): string {
  const endpoints = [
    ...new Set(e.variants.map((v) => `${v.endpoint}${v.model === "" ? "" : `/${v.model}`}`)),
  ].join(", ");
  const { member: noun, title } = EXPERIMENT_KINDS[e.kind];
  return `route-eval ${title} ${e.experiment_id} · ${endpoints} · ${plural(e.cases, "case")} × ${plural(e.trials, "trial")} · ${e.variants.length} ${noun}s`;
}

function isProportion(row: MetricRow): boolean {
  return !["mean_visible", "input_tokens", "latency_ms"].includes(row.metric);
}

/** "66.7% 40/60"; "85.0%"; "7.0"; "—". */
function formatValue(row: MetricRow, v: VariantValue): string {
  if (v.value === null) return MISSING;
  if (!isProportion(row))
    return row.metric === "latency_ms" ? formatMs(v.value) : formatNumber(v.value);
  if (v.numerator === null || v.denominator === null) return formatPercent(v.value);
  return `${formatPercent(v.value)} ${formatCount(Math.round(v.numerator * 100) / 100)}/${v.denominator}`;
}

/** "[55.1–76.5]" in percent; "" without an interval. */
function formatShortCi(ci: [number, number] | null): string {
  return ci === null ? "" : `[${(ci[0] * 100).toFixed(1)}–${(ci[1] * 100).toFixed(1)}]`;
}

/** Rows that have a value somewhere (a run without a retriever measures no recall@k). */
function shownRows(e: Experiment, headline: boolean): MetricRow[] {
  const lastPassHat = e.metrics.filter((r) => r.metric.startsWith("pass_hat_k.")).pop()?.metric;
  const wanted = headline
    ? new Set([...HEADLINE, ...(lastPassHat === undefined ? [] : [lastPassHat])])
    : null;
  return e.metrics.filter(
    (row) =>
      (wanted === null || wanted.has(row.metric)) && row.values.some((v) => v.value !== null),
  );
}

function profileRows(e: Experiment): { label: string; cells: string[] }[] {
  const rows = STAGES.map((stage) => ({
    label: `${stage} failures`,
    cells: e.profiles.map((p) => String(p.stages[stage])),
  }));
  rows.push({ label: "correct", cells: e.profiles.map((p) => String(p.correct)) });
  if (e.profiles.some((p) => p.errored > 0))
    rows.push({ label: "errored", cells: e.profiles.map((p) => String(p.errored)) });
  return rows;
}

// ── terminal ────────────────────────────────────────────────────────────────────────────────

function terminalTable(head: string[], rows: string[][], paint: Paint): string {
  const table = new (Table())({
    head: head.map((h) => paint(stripControls(h), "bold")),
    colAligns: ["left", ...head.slice(1).map(() => "right" as const)],
    style: { head: [], border: [], compact: true },
  });
  for (const row of rows)
    table.push(row.map((cell) => cell.split("\n").map(stripControls).join("\n")));
  return table.toString();
}

/** Splits the variant columns into blocks that fit `width` beside the label column. */
function blocksOf(
  labels: string[],
  columns: { head: string; cells: string[] }[],
  width: number,
): number[][] {
  const widthOf = (texts: string[]) =>
    Math.max(...texts.flatMap((t) => t.split("\n").map((line) => line.length)));
  const label = widthOf(labels) + 3;
  const blocks: number[][] = [[]];
  let used = label + 1;
  columns.forEach((column, index) => {
    const own = widthOf([column.head, ...column.cells]) + 3;
    const block = blocks[blocks.length - 1];
    if (block.length > 0 && used + own > width) {
      blocks.push([index]);
      used = label + 1 + own;
    } else {
      block.push(index);
      used += own;
    }
  });
  return blocks;
}

function renderBlocks(
  title: string,
  labels: string[],
  columns: { head: string; cells: string[] }[],
  width: number,
  paint: Paint,
): string {
  const blocks = blocksOf(labels, columns, width);
  return blocks
    .map((indexes) =>
      terminalTable(
        [title, ...indexes.map((i) => columns[i].head)],
        labels.map((label, r) => [label, ...indexes.map((i) => columns[i].cells[r])]),
        paint,
      ),
    )
    .join("\n");
}

function verdictStyle(c: Comparison, paint: Paint): string {
  if (c.verdict === "helped") return paint(c.verdict, "green");
  if (c.verdict === "hurt") return paint(c.verdict, "red");
  return c.verdict;
}

function listCases(label: string, ids: string[], max = 8): string {
  if (ids.length === 0) return `${label}: none`;
  const shown = ids.slice(0, max).join(", ");
  return `${label} (${ids.length}): ${shown}${ids.length > max ? `, … and ${ids.length - max} more` : ""}`;
}

function comparisonLines(c: Comparison, width: number, paint: Paint): string[] {
  const trials = c.outcome.trials;
  const variant = stripControls(c.variant);
  const reference = stripControls(c.reference);
  const plainHead = `${variant} vs ${reference}: ${c.verdict}`;
  const head =
    displayWidth(plainHead) <= width
      ? `${paint(variant, "bold")} vs ${reference}: ${verdictStyle(c, paint)}`
      : wrapText(plainHead, width).join("\n");
  const wrap = (text: string) =>
    wrapText(stripControls(text), width - 2).map((line) => `  ${line}`);
  return [
    head,
    ...wrap(
      `end-to-end ${deltaOf(c, "end_to_end_accuracy")} · selection ${deltaOf(c, "selection_accuracy")} · ${c.because}`,
    ),
    ...wrap(c.movement),
    ...wrap(
      `${listCases("cases fixed", c.fixed)} · ${listCases("broken", c.broken)} · ${listCases("regressed beyond trial noise", c.regressed_beyond_noise ?? [])}`,
    ),
    ...(trials === null
      ? []
      : wrap(
          `trial pairs: ${trials.up} fixed vs ${trials.down} broken of ${trials.pairs}, exact McNemar ${pIs(trials.p_value)}`,
        )),
  ];
}

function renderTerminal(e: Experiment, options: ExperimentRenderOptions): string {
  const width = options.width ?? 100;
  const paint = makePaint(options.color);
  const rows = shownRows(e, true);
  const columns = e.variants.map((v, i) => ({
    head: v.name,
    cells: rows.map((row) =>
      [formatValue(row, row.values[i]), formatShortCi(row.values[i].ci)]
        .filter((t) => t !== "")
        .join("\n"),
    ),
  }));
  const profiles = profileRows(e);
  const blocks = [
    wrapFacts(stripControls(describeExperiment(e)), width).join("\n"),
    ...(e.skipped.length === 0
      ? []
      : [
          wrapText(
            stripControls(`skipped: ${e.skipped.map((s) => `${s.name} (${s.reason})`).join("; ")}`),
            width,
          ).join("\n"),
        ]),
    renderBlocks(
      "metric",
      rows.map((r) => r.label.replace(/\s*\((?!ms\)).*\)$/, "")),
      columns,
      width,
      paint,
    ),
    renderBlocks(
      "trials ended at",
      profiles.map((r) => r.label),
      e.variants.map((v, i) => ({ head: v.name, cells: profiles.map((r) => r.cells[i]) })),
      width,
      paint,
    ),
    e.comparisons.map((c) => comparisonLines(c, width, paint).join("\n")).join("\n\n"),
    ...(e.gates.length === 0 ? [] : [gateLines(e, paint).join("\n")]),
    ...(e.notes.length === 0
      ? []
      : [e.notes.flatMap((note) => wrapText(`note: ${note}`, width)).join("\n")]),
    wrapText(methodNote(e), width).join("\n"),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

function gateLines(e: Experiment, paint: Paint): string[] {
  const failed = e.gates.filter((g) => !g.passed).length;
  const title =
    failed === 0
      ? `gates: ${e.gates.length} passed`
      : `gates: ${failed} of ${e.gates.length} failed`;
  return [
    title,
    ...e.gates.map(
      (g) =>
        `  ${g.passed ? paint("pass", "green") : paint("FAIL", "red")} ${stripControls(g.rule)} — ${stripControls(g.reason)}`,
    ),
  ];
}

// ── Markdown ────────────────────────────────────────────────────────────────────────────────

function renderMarkdown(e: Experiment): string {
  const rows = shownRows(e, false);
  const metrics: TableData = {
    head: ["metric", ...e.variants.map((v) => v.name)],
    align: ["left", ...e.variants.map(() => "right" as const)],
    rows: rows.map((row) => [
      row.label,
      ...row.values.map((v) =>
        [formatValue(row, v), formatShortCi(v.ci)].filter((t) => t !== "").join(" "),
      ),
    ]),
  };
  const profiles = profileRows(e);
  const profile: TableData = {
    head: ["trials ended at", ...e.variants.map((v) => v.name)],
    align: ["left", ...e.variants.map(() => "right" as const)],
    rows: profiles.map((r) => [r.label, ...r.cells]),
  };
  const pairs: TableData = {
    head: [
      EXPERIMENT_KINDS[e.kind].member,
      "against",
      "verdict",
      "Δ end-to-end",
      "Δ selection",
      "fixed",
      "broken",
      "what moved",
    ],
    align: ["left", "left", "left", "right", "right", "right", "right", "left"],
    rows: e.comparisons.map((c) => [
      c.variant,
      c.reference,
      c.verdict,
      deltaOf(c, "end_to_end_accuracy"),
      deltaOf(c, "selection_accuracy"),
      String(c.fixed.length),
      String(c.broken.length),
      c.movement,
    ]),
  };
  const tests: TableData = {
    head: ["pair", "metric", "Δ", "cases (sign test)", "trials (McNemar)"],
    align: ["left", "left", "right", "left", "left"],
    rows: e.comparisons.flatMap((c) =>
      c.metrics
        .filter((m) => m.delta !== null && Math.abs(m.delta) > 1e-9)
        .map((m) => [
          `${c.variant} vs ${c.reference}`,
          m.label,
          deltaOf(c, m.metric),
          testText(m.cases),
          testText(m.trials),
        ]),
    ),
  };
  const blocks = [
    `## route-eval ${EXPERIMENT_KINDS[e.kind].title}`,
    inertMarkdown(describeExperiment(e)),
    ...(e.skipped.length === 0
      ? []
      : [inertMarkdown(`Skipped: ${e.skipped.map((s) => `${s.name} (${s.reason})`).join("; ")}`)]),
    renderMarkdownTable(metrics),
    renderMarkdownTable(profile),
    ...(e.comparisons.length === 0
      ? []
      : [
          "### Each against its reference",
          renderMarkdownTable(pairs),
          e.comparisons.map((c) => inertMarkdown(`${c.variant}: ${c.because}`)).join("<br>\n"),
        ]),
    ...(tests.rows.length === 0
      ? []
      : [
          "<details><summary>Paired tests of every metric that moved</summary>",
          "",
          renderMarkdownTable(tests),
          "",
          "These p-values are each test's own, not adjusted for the number of tests: read them as descriptions; the verdicts above are the corrected claims.",
          "",
          "</details>",
        ]),
    ...(e.gates.length === 0
      ? []
      : [
          "### Gates",
          e.gates
            .map((g) => inertMarkdown(`${g.passed ? "✅" : "❌"} ${g.rule} — ${g.reason}`))
            .join("<br>\n"),
        ]),
    ...e.notes.map((note) => inertMarkdown(`Note: ${note}`)),
    methodNote(e),
    "Intervals: 95%, case-clustered. Verdicts: exact sign test over cases of end-to-end accuracy, p < 0.05.",
  ];
  return `${blocks.join("\n\n")}\n`;
}

function testText(test: Comparison["outcome"]["trials"]): string {
  return test === null
    ? MISSING
    : `${test.up}↑ ${test.down}↓ of ${test.pairs}, ${pIs(test.p_value)}`;
}

// ── JUnit ───────────────────────────────────────────────────────────────────────────────────

/** One suite per variant (its cases), then the experiment's gates as a suite of their own. */
function renderJunit(e: Experiment, options: ExperimentRenderOptions): string {
  const suites = e.variants.map((v, i) =>
    renderJunitSuite(options.reports[i], `route-eval: ${v.name}`, { gates: false }),
  );
  if (e.gates.length > 0)
    suites.push(renderGateSuite("route-eval: experiment gates", "variant gates", e.gates));
  return wrapSuites(suites);
}

const RENDERERS: Record<
  ExperimentFormat,
  (e: Experiment, options: ExperimentRenderOptions) => string
> = {
  terminal: renderTerminal,
  markdown: renderMarkdown,
  json: (e) => `${stableStringify(e, 2)}\n`,
  junit: renderJunit,
  html: (e) => renderExperimentHtml(e),
};

export function renderExperiment(
  e: Experiment,
  format: ExperimentFormat,
  options: ExperimentRenderOptions,
): string {
  return RENDERERS[format](e, options);
}
