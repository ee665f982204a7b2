import { stringify } from "csv-stringify/sync";
import type { Rate } from "../types.js";
import type { SweepPoint, SweepReport } from "../types/sweep.js";

type CsvValue = string | number | null;

/** Rates as value plus the interval and counts, so a spreadsheet can redraw the CI. */
function rateColumns(
  name: string,
  pick: (p: SweepPoint) => Rate,
): [string, (p: SweepPoint) => CsvValue][] {
  return [
    [name, (p) => pick(p).value],
    [`${name}_low`, (p) => pick(p).ci?.[0] ?? null],
    [`${name}_high`, (p) => pick(p).ci?.[1] ?? null],
    [`${name}_n`, (p) => pick(p).numerator],
    [`${name}_of`, (p) => pick(p).denominator],
  ];
}

const COLUMNS: [string, (p: SweepPoint, r: SweepReport) => CsvValue][] = [
  ["kind", (_, r) => r.kind],
  ["value", (p) => p.value],
  ["run", (p) => p.run],
  ["visible_mean", (p) => p.visible.mean],
  ["visible_min", (p) => p.visible.min],
  ["visible_max", (p) => p.visible.max],
  ["capped_cases", (p) => p.capped_cases.length],
  ["cases", (p) => p.cases],
  ["trials", (p) => p.trials],
  ["scored", (p) => p.scored],
  ["errored", (p) => p.errored],
  ...rateColumns("selection_accuracy", (p) => p.selection_accuracy),
  ...rateColumns("end_to_end_accuracy", (p) => p.end_to_end_accuracy),
  ...rateColumns("tool_recall", (p) => p.tool_recall),
  ["abstention_accuracy", (p) => p.abstention_accuracy.value],
  ["violation_rate", (p) => p.violation_rate.value],
  ["argument_validity", (p) => p.argument_validity.value],
  ["pass_hat_k", (p) => p.pass_hat_k?.mean.value ?? null],
  ["pass_hat_k_k", (p) => p.pass_hat_k?.k ?? null],
  ["recall_at_k", (p) => p.retrieval.recall_at_k.value],
  ["mrr", (p) => p.retrieval.mrr.value],
  ["ndcg_at_k", (p) => p.retrieval.ndcg_at_k.value],
  ["input_tokens_mean", (p) => p.input_tokens.mean],
  ["input_tokens_reported_trials", (p) => p.input_tokens.reported],
  ["input_tokens_estimated_trials", (p) => p.input_tokens.estimated],
  ["latency_p50_ms", (p) => p.latency_ms.p50],
  ["latency_p95_ms", (p) => p.latency_ms.p95],
];

/** With --tool-search-axis: each point's mode, search recall and definition tokens (with their intervals). */
const SEARCH_COLUMNS: [string, (p: SweepPoint, r: SweepReport) => CsvValue][] = [
  ["tool_search", (p) => p.tool_search ?? null],
  ["search_recall", (p) => p.search_recall?.value ?? null],
  ["search_recall_n", (p) => p.search_recall?.numerator ?? null],
  ["search_recall_of", (p) => p.search_recall?.denominator ?? null],
  ["definition_tokens_mean", (p) => p.definition_tokens?.mean ?? null],
  ["definition_tokens_low", (p) => p.definition_tokens?.ci?.[0] ?? null],
  ["definition_tokens_high", (p) => p.definition_tokens?.ci?.[1] ?? null],
];

/** Numbers to six decimals (a spreadsheet needs no more); null is an empty cell. */
function cell(value: CsvValue): string | number | null {
  return typeof value === "number" && !Number.isInteger(value) ? Number(value.toFixed(6)) : value;
}

/** One row per point; empty cells where a metric has no population. RFC 4180 quoting (csv-stringify). */
export function renderSweepCsv(report: SweepReport): string {
  const columns =
    report.settings.tool_search === undefined ? COLUMNS : [...COLUMNS, ...SEARCH_COLUMNS];
  const rows = report.points.map((point) => columns.map(([, pick]) => cell(pick(point, report))));
  return stringify([columns.map(([name]) => name), ...rows], { record_delimiter: "unix" });
}
