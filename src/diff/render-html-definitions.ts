/**
 * Changed tool definitions side by side: BASE's description with the removed words marked, and
 * CURRENT's with the added words marked (the same word diff the terminal prints inline), the fields
 * that moved, and the blast radius — the cases that saw the tool and how they flipped.
 */
import { html, type SafeHtml } from "../render/html/escape.js";
import type { HtmlSection } from "../render/html/page.js";
import type { DefinitionChange, Diff, DiffRunInfo, WordSegment } from "../types/diff.js";
import { FLIP_KINDS } from "../types/diff.js";
import { DEFINITION_LABELS, FLIP_LABELS } from "./format-diff.js";
import { describeFields } from "./render-definitions.js";
import { flipBadge, flipHref } from "./render-html-section.js";
import { splitLead } from "./word-diff.js";

const BASIS: Record<DefinitionChange["blast_radius"]["basis"], string> = {
  visible_sets: "whose visible set contained it",
  case_rows:
    "naming it as acceptable or forbidden, or selecting it (no trial records: visible sets unknown)",
};

function revisions(info: DiffRunInfo): string {
  return info.registries
    .map(
      (r) =>
        `${r.snapshot}@${r.revision}${r.content === undefined ? "" : ` (content ${r.content})`}`,
    )
    .join(", ");
}

/** One side's text: the shared words plus this side's own ones, marked (their leading space left outside). */
function sideText(words: WordSegment[], own: "removed" | "added"): SafeHtml {
  const mark = (text: string): SafeHtml => {
    const [lead, rest] = splitLead(text);
    return own === "removed" ? html`${lead}<del>${rest}</del>` : html`${lead}<ins>${rest}</ins>`;
  };
  return html`<pre>${words.filter((w) => w.op === "same" || w.op === own).map((w) => (w.op === "same" ? w.text : mark(w.text)))}</pre>`;
}

function renderSides(change: DefinitionChange, diff: Diff): SafeHtml {
  const side = (
    label: string,
    info: DiffRunInfo,
    present: boolean,
    own: "removed" | "added",
    absent: string,
  ) =>
    html`<div class="side" data-side="${label.toLowerCase()}"><h4>${label} · ${revisions(info)}</h4>${present ? sideText(change.words, own) : html`<p class="absent">${absent}</p>`}</div>`;
  return html`<div class="sides">${side("BASE", diff.base, change.base !== null, "removed", "not in BASE's registry")}${side("CURRENT", diff.current, change.current !== null, "added", "not in CURRENT's registry")}</div>`;
}

function renderBlast(change: DefinitionChange): SafeHtml {
  const blast = change.blast_radius;
  const counts = FLIP_KINDS.filter((kind) => blast.counts[kind] > 0).map(
    (kind) => html`${flipBadge(kind)} ${blast.counts[kind]} `,
  );
  const moved = blast.cases.filter((c) => c.kind !== "still_passing" && c.kind !== "still_failing");
  const links = moved.map(
    (c) =>
      html`<span class="moved">${FLIP_LABELS[c.kind]}: <a href="${flipHref(c.case_id)}" data-kind="${c.kind}">${c.case_id}</a></span> `,
  );
  return html`<div class="blast" data-field="blast"><p><strong>Blast radius:</strong> ${blast.cases.length} case${blast.cases.length === 1 ? "" : "s"} ${BASIS[blast.basis]}; correct trials <span data-field="blast-trials">${blast.base.correct}/${blast.base.scored} → ${blast.current.correct}/${blast.current.scored}</span></p>
<p>${counts.length === 0 ? "no case" : counts}</p>${moved.length === 0 ? "" : html`<p>${links}</p>`}</div>`;
}

function renderChange(change: DefinitionChange, diff: Diff): SafeHtml {
  const fields = describeFields(change);
  const what =
    change.change === "changed"
      ? `${DEFINITION_LABELS.changed}: ${change.fields.join(", ")}`
      : DEFINITION_LABELS[change.change];
  return html`<article class="def" data-tool="${change.tool}" data-change="${change.change}"><h3><code>${change.tool}</code> — ${what}</h3>
${renderSides(change, diff)}${fields.length === 0 ? "" : html`<ul class="fields">${fields.map((line) => html`<li>${line}</li>`)}</ul>`}${renderBlast(change)}</article>`;
}

export function renderDefinitionsSection(diff: Diff): HtmlSection {
  const { base_recorded, current_recorded, changes } = diff.definitions;
  const title = "Changed definitions";
  if (!base_recorded || !current_recorded) {
    const missing = [
      ...(base_recorded ? [] : ["BASE"]),
      ...(current_recorded ? [] : ["CURRENT"]),
    ].join(" and ");
    return {
      id: "definitions",
      title,
      intro: null,
      body: html`<p>Not compared: ${missing} recorded no tool definitions (records without run.json).</p>`,
    };
  }
  if (changes.length === 0)
    return {
      id: "definitions",
      title,
      intro: null,
      body: html`<p>No tool definition changed.</p>`,
    };
  const intro = `${changes.length} tool${changes.length === 1 ? "" : "s"} whose model-facing definition changed between the runs. Left: BASE's text, removed words struck out; right: CURRENT's, added words highlighted.`;
  return {
    id: "definitions",
    title,
    intro,
    body: html`${changes.map((c) => renderChange(c, diff))}`,
  };
}
