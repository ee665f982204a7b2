/** One case's counterfactuals, for `show --case`: each failed trial, each change, what came back. */
import { formatCounts } from "../render/format.js";
import { stripControls } from "../render/terminal.js";
import { wrapText } from "../render/text-layout.js";
import { SHOW_WIDTH } from "../show/render-case.js";
import {
  COUNTERFACTUAL_KINDS,
  type CounterfactualKind,
  type Placement,
} from "../types/counterfactual.js";
import type { TrialRecord } from "../types.js";

export interface CaseCounterfactual {
  trial: number;
  kind: CounterfactualKind;
  changed: string[];
  placement: Placement;
  repeats: number;
  correct: number;
  selections: Record<string, number>;
}

/** The case's counterfactual outcomes, from the run's counterfactual records (RUN/counterfactual/records.jsonl). */
export function gatherCaseCounterfactuals(
  records: TrialRecord[],
  caseId: string,
): CaseCounterfactual[] {
  const groups = new Map<string, CaseCounterfactual>();
  for (const record of records) {
    const info = record.counterfactual;
    if (info === undefined || info.of.case_id !== caseId || record.error !== null) continue;
    const key = `${info.of.trial}\u0000${info.kind}`;
    const group = groups.get(key) ?? {
      trial: info.of.trial,
      kind: info.kind,
      changed: info.changed,
      placement: info.placement,
      repeats: 0,
      correct: 0,
      selections: {},
    };
    group.repeats += 1;
    if (record.failed_stage === null) group.correct += 1;
    const picked = record.selected ?? "(no call)";
    group.selections[picked] = (group.selections[picked] ?? 0) + 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort(
    (a, b) =>
      a.trial - b.trial ||
      COUNTERFACTUAL_KINDS.indexOf(a.kind) - COUNTERFACTUAL_KINDS.indexOf(b.kind),
  );
}

const CHANGES: Record<CounterfactualKind, (c: CaseCounterfactual) => string> = {
  placebo: () => "re-asked unchanged",
  inject: (c) =>
    `${c.changed.join(", ")} ${c.placement === "retriever ran" ? "exposed, then retrieved again" : `added (${c.placement})`}`,
  "inject-visible": (c) =>
    `${c.changed.join(", ")} added past exposure and retrieval (${c.placement})`,
  "remove-rival": (c) => `${c.changed.join(", ")} removed`,
  first: (c) => `${c.changed.join(", ")} moved first`,
  pair: (c) => `only the acceptable tool, the rival and the controls (${c.changed.length} removed)`,
  load: (c) => `${c.changed.join(", ")} loaded up front, no search needed`,
};

export function renderCaseCounterfactuals(list: CaseCounterfactual[]): string[] {
  const lines = [
    "Counterfactuals (route-eval counterfactual: the failed trial re-asked with one change, and unchanged as a placebo)",
  ];
  for (const c of list) {
    const verdict =
      c.kind === "placebo"
        ? "(chance)"
        : c.correct === c.repeats
          ? "✓ fixes it"
          : c.correct === 0
            ? "✗ does not fix it"
            : "~ sometimes";
    const text = stripControls(
      `#${c.trial} ${c.kind}: ${CHANGES[c.kind](c)} → ${c.correct} of ${c.repeats} correct ${verdict}; picked ${formatCounts(c.selections)}`,
    );
    lines.push(
      ...wrapText(text, SHOW_WIDTH - 6).map((line, i) => (i === 0 ? `  ${line}` : `      ${line}`)),
    );
  }
  return lines;
}
