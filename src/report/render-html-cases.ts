/**
 * The per-case table: filter by text and stage, expand a row into the same drill-down as
 * `route-eval show --case` (built in the browser from the embedded explanations, as text nodes).
 */
import { STAGES } from "../types.js";
import type { CaseRow, Report } from "../types.js";
import type { CaseExplanation } from "../types/explain.js";
import { describeCaseOutcome, isAllErrored } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import { stageBadge, type StageLabel } from "./render-html-parts.js";

/** The first rung any scored trial of the case failed; passed or errored otherwise. */
export function caseStage(row: CaseRow): StageLabel {
  if (isAllErrored(row)) return "errored";
  return STAGES.find((stage) => (row.stages[stage] ?? 0) > 0) ?? "passed";
}

const FILTERS: [string, string][] = [
  ["all", "all cases"],
  ["failing", "failing (any rung)"],
  ["passed", "passed"],
  ...STAGES.map((stage): [string, string] => [stage, `failed at ${stage}`]),
  ["violated", "selected a forbidden tool"],
  ["unstable", "unstable across trials"],
  ["errored", "every trial errored"],
];

function renderRow(
  row: CaseRow,
  index: number,
  x: CaseExplanation | undefined,
  unstable: ReadonlySet<string>,
): SafeHtml {
  const stage = caseStage(row);
  const goal = x?.goal ?? "";
  const haystack = [
    row.case_id,
    goal,
    row.family ?? "",
    row.phase ?? "",
    ...row.acceptable,
    ...Object.keys(row.selections),
    ...row.tags,
  ]
    .join(" ")
    .toLowerCase();
  const scored = row.trials - row.errored;
  const expand =
    x === undefined
      ? html`<td></td>`
      : html`<td><button type="button" class="expand" aria-expanded="false" aria-label="explain ${row.case_id}" title="explain this case">▸</button></td>`;
  return html`<tr class="case-row" id="case-row-${index}" data-index="${x === undefined ? -1 : index}" data-case-id="${row.case_id}" data-stage="${stage}" data-violated="${row.violated > 0 ? 1 : 0}" data-unstable="${unstable.has(row.case_id) ? 1 : 0}" data-search="${haystack}">
${expand}<td class="mono case-id" title="${row.case_id}">${row.case_id}</td><td>${stageBadge(stage)}</td><td class="num">${row.correct}/${scored}</td><td class="goal" title="${goal}">${goal}</td><td class="family">${row.family ?? "—"}<br><span class="muted">phase ${row.phase ?? "—"}</span></td><td class="mono">${row.acceptable.join(", ")}</td><td class="outcome">${describeCaseOutcome(row)}</td></tr>`;
}

export function renderCasesSection(
  report: Report,
  explanations: CaseExplanation[] | null,
): HtmlSection {
  const byId = new Map((explanations ?? []).map((x) => [x.case_id, x]));
  const unstable = new Set(report.metrics.unstable_cases.map((u) => u.case_id));
  const rows = report.cases.map((row, index) =>
    renderRow(row, index, byId.get(row.case_id), unstable),
  );
  const options = FILTERS.map(([value, label]) => html`<option value="${value}">${label}</option>`);
  const body = html`<div class="filters">
<input type="search" id="case-search" placeholder="filter by case, goal, family, tool…" aria-label="filter cases">
<select id="case-stage" aria-label="filter by outcome">${options}</select>
<span id="case-count" class="muted">${report.cases.length} cases</span>
</div>
<div class="table-wrap"><table class="cases" id="case-table"><colgroup><col style="width:42px"><col style="width:17%"><col style="width:112px"><col style="width:60px"><col><col style="width:15%"><col style="width:15%"><col style="width:18%"></colgroup><thead><tr><th></th><th>case</th><th>first failed rung</th><th class="num">correct</th><th>goal</th><th>family · phase</th><th>acceptable</th><th>trials</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  const drill =
    explanations === null
      ? " (the drill-down needs the run's records: render with `route-eval report RUN --format html`)"
      : "; ▸ opens its whole ladder, as `route-eval show --case` prints it";
  return {
    id: "cases",
    title: "Cases",
    intro: `One row per case${drill}. Link to a case with #case=<id>.`,
    body,
  };
}
