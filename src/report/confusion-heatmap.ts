/**
 * The data of the confusion heatmap: expected (acceptable label) × selected, over every scored
 * trial. Abstention, no-call and phantom columns are always present, so that declining, answering
 * in text and calling an invisible tool are never lost among the tools.
 */
import { labelAcceptable, NO_CALL_LABEL } from "../metrics/scored-trials.js";
import { ABSTAIN, CONTROL_NAMES } from "../types.js";
import type { Report } from "../types.js";
import type { CaseExplanation } from "../types/explain.js";
import { compareText } from "../text/compare-text.js";

/** The column of trials whose selection was not in their visible set. */
export const PHANTOM_COLUMN = "(phantom: not visible)";

export interface HeatCell {
  count: number;
  cases: string[];
  /** For the phantom column: the names called. */
  names: string[];
}

export interface HeatRow {
  label: string;
  total: number;
  wrong: number;
  cells: Map<string, HeatCell>;
}

export interface Heatmap {
  rows: HeatRow[];
  columns: { key: string; special: boolean }[];
}

interface Hit {
  label: string;
  column: string;
  count: number;
  caseId: string | null;
  name: string | null;
}

function hitsFromExplanations(explanations: CaseExplanation[]): Hit[] {
  return explanations.flatMap((x) =>
    x.trial_views
      .filter((v) => v.error === null)
      .map((v) => ({
        label: labelAcceptable(x.acceptable),
        column: v.phantom ? PHANTOM_COLUMN : (v.selected ?? NO_CALL_LABEL),
        count: 1,
        caseId: x.case_id,
        name: v.phantom ? v.selected : null,
      })),
  );
}

function isCorrect(label: string, column: string): boolean {
  return label.split("|").includes(column);
}

const SPECIAL_ORDER = [...CONTROL_NAMES, NO_CALL_LABEL, PHANTOM_COLUMN];

/** Whether the column is one of the row's acceptable tools (phantom never is: it was not visible). */
export function isAcceptableCell(label: string, column: string): boolean {
  return column !== PHANTOM_COLUMN && isCorrect(label, column);
}

/** Rows by wrong trials (desc) then label; columns: controls, no call and phantom, then tools by name. */
export function buildHeatmap(report: Report, explanations: CaseExplanation[] | null): Heatmap {
  const hits =
    explanations === null
      ? report.metrics.confusion_matrix.map((c) => ({
          label: c.acceptable,
          column: c.selected,
          count: c.count,
          caseId: null,
          name: null,
        }))
      : hitsFromExplanations(explanations);
  const rows = new Map<string, HeatRow>();
  for (const hit of hits) {
    const row = rows.get(hit.label) ?? {
      label: hit.label,
      total: 0,
      wrong: 0,
      cells: new Map<string, HeatCell>(),
    };
    rows.set(hit.label, row);
    const cell = row.cells.get(hit.column) ?? { count: 0, cases: [], names: [] };
    row.cells.set(hit.column, cell);
    cell.count += hit.count;
    if (hit.caseId !== null && !cell.cases.includes(hit.caseId)) cell.cases.push(hit.caseId);
    if (hit.name !== null && !cell.names.includes(hit.name)) cell.names.push(hit.name);
    row.total += hit.count;
    if (hit.column === PHANTOM_COLUMN || !isCorrect(hit.label, hit.column)) row.wrong += hit.count;
  }
  const used = new Set(hits.map((h) => h.column));
  const always =
    explanations === null ? [ABSTAIN, NO_CALL_LABEL] : [ABSTAIN, NO_CALL_LABEL, PHANTOM_COLUMN];
  const special = SPECIAL_ORDER.filter((key) => used.has(key) || always.includes(key));
  const tools = [...used].filter((key) => !SPECIAL_ORDER.includes(key)).sort(compareText);
  return {
    rows: [...rows.values()].sort((a, b) => b.wrong - a.wrong || compareText(a.label, b.label)),
    columns: [
      ...special.map((key) => ({ key, special: true })),
      ...tools.map((key) => ({ key, special: false })),
    ],
  };
}
