/**
 * Shared formatting for every renderer: numbers, percentages, intervals, counts, and the labels
 * of the closed vocabularies (exhaustive maps, so a new stage cannot be forgotten).
 */
import type { CaseFlip, MetricDelta, MetricValue } from "../types/diff.js";
import type { CaseRow, Rate, SelectionError, Stage } from "../types.js";
import { STAGES } from "../types.js";
import { compareText } from "../text/compare-text.js";

/** Shown wherever a value is null (an empty population). */
export const MISSING = "—";

/** The CaseRow.stages key of trials that passed every rung. */
export const CORRECT = "correct";

/** A rate's population in trials and, when trials repeat a case, in cases too (the interval's unit). */
export function formatPopulation(rate: Rate): string {
  const cases = rate.cases;
  return cases === undefined || cases === rate.denominator
    ? String(rate.denominator)
    : `${rate.denominator} (${plural(cases, "case")})`;
}

/** What a failure at each rung means, for readers who do not know the ladder by heart. */
export const STAGE_MEANINGS: Record<Stage, string> = {
  coverage: "no acceptable tool in the registry",
  exposure: "acceptable tools hidden by the phase policy",
  discovery: "acceptable tools not retrieved",
  selection: "the model chose something else",
};

export const SELECTION_ERROR_LABELS: Record<SelectionError, string> = {
  wrong_tool: "another visible tool",
  phantom_tool: "a tool that was not visible",
  no_call: "text instead of a call",
  abstained: "no_applicable_tool when a tool applied",
  asked: "ask_user when nothing was missing",
  malformed: "arguments that do not parse",
  missed_call: "too few calls (an expected call missing)",
  wrong_order: "the expected calls out of order",
};

/** 0.72727 → "72.7%"; −0.12 → "−12.0%" (a difference's bound); null → "—". */
export function formatPercent(value: number | null): string {
  if (value === null) return MISSING;
  const text = (Math.abs(value) * 100).toFixed(1);
  return `${value < 0 && text !== "0.0" ? "−" : ""}${text}%`;
}

/** [0.434, 0.903] → "[43.4%, 90.3%]"; null → "—". */
export function formatCi(ci: [number, number] | null): string {
  return ci === null ? MISSING : `[${formatPercent(ci[0])}, ${formatPercent(ci[1])}]`;
}

/** Integers as they are; fractional counts (sums of per-case estimates) with two decimals. */
export function formatCount(count: number): string {
  return Number.isInteger(count) ? String(count) : count.toFixed(2);
}

/** "72.7% (8/11)", or "— (0/0)". */
export function formatRate(rate: Rate): string {
  return `${formatPercent(rate.value)} (${formatCount(rate.numerator)}/${formatCount(rate.denominator)})`;
}

/** A plain number with fixed decimals, or "—". */
export function formatNumber(value: number | null, digits = 1): string {
  return value === null ? MISSING : value.toFixed(digits);
}

/** "12.3" / "0.021" / "1204": milliseconds with sensible precision; "—" for null. */
export function formatMs(value: number | null): string {
  if (value === null) return MISSING;
  if (value < 1) return value.toFixed(3);
  return value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** At most three decimals, trailing zeros dropped: 0.8125 → "0.813", 0.9 → "0.9". */
export function formatDecimal(value: number): string {
  return String(Number(value.toFixed(3)));
}

const INTEGER_KEY = /^(0|[1-9]\d*)$/;

/**
 * Key order for artefacts: integer-like keys ascending by value (as JavaScript itself orders
 * them, so a parsed report re-serialises identically), then the others in code-unit order.
 */
export function compareKeys(a: string, b: string): number {
  const aInt = INTEGER_KEY.test(a);
  const bInt = INTEGER_KEY.test(b);
  if (aInt && bInt) return Number(a) - Number(b);
  if (aInt !== bInt) return aInt ? -1 : 1;
  return compareText(a, b);
}

/** Entries by count descending, then name. */
export function sortCounts(counts: Record<string, number>): [string, number][] {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || compareText(a, b));
}

/** { get_order: 2, search_orders: 1 } → "get_order ×2, search_orders ×1"; {} → "—". */
export function formatCounts(counts: Record<string, number>): string {
  const entries = sortCounts(counts).filter(([, count]) => count > 0);
  return entries.length === 0
    ? MISSING
    : entries.map(([name, count]) => `${name} ×${count}`).join(", ");
}

/** One line, whitespace collapsed, cut to `max` characters with an ellipsis. */
export function truncateLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/** Whether any scored trial of the case failed a rung. */
export function hasFailedTrial(row: CaseRow): boolean {
  return Object.entries(row.stages).some(([stage, count]) => stage !== CORRECT && count > 0);
}

/** Whether the case has trials and every one of them errored. */
export function isAllErrored(row: CaseRow): boolean {
  return row.trials > 0 && row.errored === row.trials;
}

function describeWrongSelections(row: CaseRow): string {
  const wrong = Object.fromEntries(
    Object.entries(row.selections).filter(([name]) => !row.acceptable.includes(name)),
  );
  const entries = sortCounts(wrong);
  if (entries.length === 0) return "";
  if (entries.length === 1) return ` (selected ${entries[0][0]})`;
  return ` (selected ${entries.map(([name, count]) => `${name} ×${count}`).join(", ")})`;
}

/** A case's trials in ladder order: "selection ×2, correct ×1, errored ×1". */
export function describeStages(row: CaseRow): string {
  const labels = [...STAGES, CORRECT].filter((label) => (row.stages[label] ?? 0) > 0);
  const parts = labels.map((label) => `${label} ×${row.stages[label]}`);
  if (row.errored > 0) parts.push(`errored ×${row.errored}`);
  return parts.length === 0 ? "no trials" : parts.join(", ");
}

/**
 * A case's trials in ladder order with the selections that were not acceptable, e.g.
 * "selection ×2 (selected search_orders), correct ×1"; errored and violating trials are added.
 */
export function describeCaseOutcome(row: CaseRow): string {
  const failed = STAGES.filter((stage) => (row.stages[stage] ?? 0) > 0).map(
    (stage) => `${stage} ×${row.stages[stage]}`,
  );
  const parts = failed.length === 0 ? [] : [`${failed.join(", ")}${describeWrongSelections(row)}`];
  if ((row.stages[CORRECT] ?? 0) > 0) parts.push(`${CORRECT} ×${row.stages[CORRECT]}`);
  if (row.errored > 0) parts.push(`errored ×${row.errored}`);
  if (row.violated > 0) parts.push(`violated ×${row.violated}`);
  return parts.length === 0 ? "no trials" : parts.join(", ");
}

/** Metrics that are not proportions are shown as plain numbers. */
export function isProportion(row: MetricDelta): boolean {
  return row.metric !== "mean_visible";
}

/** Sums of per-case estimates that are whole up to float error print as whole numbers. */
function tidy(count: number): number {
  const whole = Math.round(count);
  return Math.abs(count - whole) < 1e-9 ? whole : count;
}

/** A p-value in three significant digits, "< 0.0001" below that. */
export function formatP(p: number): string {
  return p < 0.0001 ? "< 0.0001" : String(Number(p.toPrecision(3)));
}

/** "1 trial", "3 trials". */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** "p = 0.0313", "p < 0.0001". */
export function pIs(p: number): string {
  const text = formatP(p);
  return text.startsWith("<") ? `p ${text}` : `p = ${text}`;
}

/** "66.7% (4/6)", "85.0%" (consistency), "7.0" (mean visible), or "—". */
export function formatValue(row: MetricDelta, value: MetricValue): string {
  if (!isProportion(row)) return formatNumber(value.value);
  if (value.numerator === null || value.denominator === null) return formatPercent(value.value);
  return `${formatPercent(value.value)} (${formatCount(tidy(value.numerator))}/${formatCount(value.denominator)})`;
}

/** "refund (10/10 → 2/10, Holm p = 0.00143)", ", quarantined" when it is; the bare id without a test. */
export function describeCaseTest(flip: CaseFlip | undefined, id: string): string {
  const t = flip?.test;
  if (t === null || t === undefined) return id;
  const quarantined = flip?.quarantined === true ? ", quarantined" : "";
  return `${id} (${t.base.correct}/${t.base.scored} → ${t.current.correct}/${t.current.scored}, Holm ${pIs(t.p_holm)}${quarantined})`;
}
