/**
 * GitHub-flavoured Markdown for PR comments and GITHUB_STEP_SUMMARY: gates first, then the same
 * sections as the terminal, the failing cases and per-family / per-phase breakdowns. Every
 * string is escaped, since registry, case and model text is not ours.
 */
import type { CaseRow, GateResult, Metrics, Report } from "../types.js";
import {
  describeStages,
  formatCounts,
  formatRate,
  hasFailedTrial,
  isAllErrored,
  MISSING,
} from "../render/format.js";
import { compareText } from "../text/compare-text.js";
import { sectionMarkdown } from "../render/lay-out-sections.js";
import { inertMarkdown } from "../text/inert.js";
import type { Cell, Section, TableData } from "../render/section.js";
import { describeRun } from "../render/run-header.js";
import { buildGateSection, buildSummarySections } from "./render-sections.js";

export interface MarkdownOptions {
  gates?: GateResult[];
}

const MAX_FAILING_CASES = 50;

function failingCaseRow(row: CaseRow): Cell[] {
  return [
    row.case_id,
    row.family ?? MISSING,
    row.acceptable.join(", "),
    formatCounts(row.selections),
    describeStages(row),
  ];
}

/** Cases with a failed or all-errored trial set, in report order. */
export function buildFailingCasesSection(report: Report): Section {
  const failing = report.cases.filter((row) => hasFailedTrial(row) || isAllErrored(row));
  const title = "Failing cases";
  if (failing.length === 0) return { title, lines: ["none"], table: null, notes: [] };
  const shown = failing.slice(0, MAX_FAILING_CASES);
  const table: TableData = {
    head: ["case", "family", "acceptable", "selections seen", "stages"],
    align: ["left", "left", "left", "left", "left"],
    rows: shown.map(failingCaseRow),
  };
  const lines = [`${failing.length} of ${report.cases.length} cases had a failing trial`];
  const notes =
    failing.length > shown.length ? [`… and ${failing.length - shown.length} more`] : [];
  return { title, lines, table, notes };
}

/** Selection accuracy and end-to-end accuracy per slice, with each slice's scored trials. */
export function buildBreakdownSection(label: string, slices: Record<string, Metrics>): Section {
  const title = `By ${label}`;
  const keys = Object.keys(slices).sort(compareText);
  if (keys.length === 0) return { title, lines: ["none"], table: null, notes: [] };
  const rows = keys.map((key): Cell[] => {
    const m = slices[key];
    return [
      key,
      String(m.scored),
      formatRate(m.selection_accuracy),
      formatRate(m.end_to_end_accuracy),
    ];
  });
  const table: TableData = {
    head: [label, "n (scored trials)", "selection accuracy", "end-to-end"],
    align: ["left", "right", "right", "right"],
    rows,
  };
  return { title, lines: [], table, notes: [] };
}

/** The whole Markdown document, ending with a newline. */
export function renderMarkdown(report: Report, opts: MarkdownOptions = {}): string {
  const gates = opts.gates ?? [];
  const sections = [
    ...(gates.length > 0 ? [buildGateSection(gates)] : []),
    ...buildSummarySections(report),
    buildFailingCasesSection(report),
    buildBreakdownSection("family", report.breakdowns.family),
    buildBreakdownSection("phase", report.breakdowns.phase),
  ];
  const header = `## route-eval report\n\n${inertMarkdown(describeRun(report))}`;
  return `${[header, ...sections.map(sectionMarkdown)].join("\n\n")}\n`;
}
