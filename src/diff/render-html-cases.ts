/**
 * The cases that flipped (with links into each run's own report.html drill-down, where it exists)
 * and the confusion cells that moved, as bars of BASE and CURRENT trial counts.
 */
import { maxOf } from "../text/extremes.js";
import { formatCounts, MISSING } from "../render/format.js";
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import type { CaseFlip, CaseSide, ConfusionMove } from "../types/diff.js";
import { flipBadge } from "./render-html-section.js";

/** Each run's report.html as an href relative to the diff page; null when there is none. */
export interface RunPages {
  base: string | null;
  current: string | null;
}

const MAX_MOVES = 200;

function correct(side: CaseSide | null): string {
  return side === null ? MISSING : `${side.correct}/${side.scored}`;
}

function drillLinks(caseId: string, pages: RunPages): SafeHtml {
  const link = (href: string | null, label: string) =>
    href === null ? "" : html`<a href="${href}#case=${encodeURIComponent(caseId)}">${label}</a> `;
  return html`${link(pages.base, "BASE")}${link(pages.current, "CURRENT")}`;
}

function flipRow(flip: CaseFlip, pages: RunPages): SafeHtml {
  return html`<tr id="flip-${flip.case_id}" data-case="${flip.case_id}" data-kind="${flip.kind}">
<td class="case-id">${flip.case_id}</td><td>${flipBadge(flip.kind)}</td><td>${flip.base?.stage ?? MISSING} → ${flip.current?.stage ?? MISSING}</td>
<td class="num" data-field="base-correct">${correct(flip.base)}</td><td class="num" data-field="current-correct">${correct(flip.current)}</td>
<td>${flip.base === null ? MISSING : formatCounts(flip.base.selections)}</td><td>${flip.current === null ? MISSING : formatCounts(flip.current.selections)}</td><td>${drillLinks(flip.case_id, pages)}</td></tr>`;
}

export function renderFlipsSection(flips: CaseFlip[], pages: RunPages): HtmlSection {
  const listed = flips.filter((f) => f.kind !== "still_passing");
  const passing = flips.filter((f) => f.kind === "still_passing").map((f) => f.case_id);
  const table =
    listed.length === 0
      ? html`<p>No case changed outcome.</p>`
      : html`<div class="table-wrap"><table id="flips"><thead><tr><th>case</th><th>flip</th><th>main stage BASE → CURRENT</th><th class="num">correct BASE</th><th class="num">correct CURRENT</th><th>selections BASE</th><th>selections CURRENT</th><th>drill-down</th></tr></thead><tbody>${listed.map((f) => flipRow(f, pages))}</tbody></table></div>`;
  const still =
    passing.length === 0
      ? ""
      : html`<details><summary>${passing.length} case${passing.length === 1 ? "" : "s"} still passing</summary><div class="chips">${passing.map((id) => html`<span class="chip">${id}</span>`)}</div></details>`;
  const hint =
    pages.base === null && pages.current === null
      ? " Write each run's report.html (route-eval report RUN --format html) to get drill-down links here."
      : "";
  const intro = `Every case that did not simply keep passing (a case passes when every scored trial of it is correct). Correct: correct over scored trials.${hint}`;
  return { id: "flips", title: "Case flips", intro, body: html`${table}${still}` };
}

function moveBars(move: ConfusionMove, max: number): SafeHtml {
  const w = (n: number) => (max === 0 ? 0 : (n / max) * 190).toFixed(1);
  const tone = move.correct ? "right" : move.delta > 0 ? "more" : "less";
  return html`<svg class="moves" viewBox="0 0 200 18" width="200" height="18" aria-hidden="true"><rect class="base" x="0" y="1" width="${w(move.base)}" height="7"></rect><rect class="${tone}" x="0" y="10" width="${w(move.current)}" height="7"></rect></svg>`;
}

export function renderConfusionSection(moves: ConfusionMove[]): HtmlSection {
  const title = "Confusion cells that moved";
  if (moves.length === 0)
    return {
      id: "confusions",
      title,
      intro: null,
      body: html`<p>No cell of the confusion matrix moved.</p>`,
    };
  const max = maxOf(
    moves.map((m) => Math.max(m.base, m.current)),
    -Infinity,
  );
  const rows = moves.slice(0, MAX_MOVES).map((m) => {
    const tone = m.correct ? (m.delta > 0 ? "good" : "bad") : m.delta > 0 ? "bad" : "good";
    return html`<tr data-expected="${m.acceptable}" data-selected="${m.selected}"><td>${m.acceptable}</td><td>${m.selected}</td><td class="${m.correct ? "good" : "bad"}">${m.correct ? "correct" : "confusion"}</td><td class="num" data-field="base">${m.base}</td><td class="num" data-field="current">${m.current}</td><td class="num ${tone}" data-field="delta">${m.delta > 0 ? `+${m.delta}` : `−${Math.abs(m.delta)}`}</td><td class="bar-pair">${moveBars(m, max)}</td></tr>`;
  });
  const more =
    moves.length > MAX_MOVES
      ? html`<p class="muted">… and ${moves.length - MAX_MOVES} more (all in diff.json).</p>`
      : "";
  const body = html`<div class="table-wrap"><table id="confusions-table"><thead><tr><th>expected</th><th>selected</th><th>cell</th><th class="num">BASE</th><th class="num">CURRENT</th><th class="num">Δ</th><th>BASE (grey) / CURRENT</th></tr></thead><tbody>${rows}</tbody></table></div>${more}`;
  const intro =
    "Trial counts of (expected → selected) cells that changed, largest move first. Confusion cells are wrong choices (red when they grew); correct cells are the diagonal (green when they grew).";
  return { id: "confusions", title, intro, body };
}
