/**
 * tune.json rendered for people (terminal, Markdown, an HTML page) and machines (JSON): the
 * outcome on each split, every candidate with its evidence and verdict, each description's word
 * diff, and where the tuned snapshot went. Registry and proposer text is data: the terminal strips
 * its controls, Markdown escapes it, the page's template escapes it.
 */
import { join } from "node:path";
import type { TuneCandidate, TuneResult, SplitDelta } from "../types/tune.js";
import type { TuneFormat } from "../types/formats.js";
import { formatCi, formatP, formatPercent, plural } from "../render/format.js";
import { renderHtmlPage, type HtmlSection } from "../render/html/page.js";
import { html } from "../render/html/escape.js";
import { sectionHtml, sectionMarkdown, sectionTerminal } from "../render/lay-out-sections.js";
import { section, type Section, type TableData } from "../render/section.js";
import { makePaint, stripControls } from "../render/terminal.js";
import { wrapText } from "../render/text-layout.js";
import { stableStringify } from "../render/stable-json.js";
import { inertMarkdown } from "../text/inert.js";
import { diffWords, splitLead } from "../diff/word-diff.js";

const VERDICT: Record<TuneCandidate["verdict"], string> = {
  accepted: "accepted",
  passed: "passed (not kept)",
  rejected: "rejected",
};

export function describeTune(r: TuneResult): string {
  const revision =
    r.registry.tuned_revision === null
      ? `${r.registry.snapshot}@${r.registry.revision} (unchanged)`
      : `${r.registry.snapshot}@${r.registry.revision} → ${r.registry.tuned_revision}`;
  const proposer =
    r.proposer.kind === "command" ? `command ${r.proposer.command ?? ""}` : r.proposer.kind;
  return `route-eval tune ${r.tune_id} · ${r.endpoint} · proposer ${proposer} · ${revision} · ${r.split.tune.length} tune / ${r.split.held_out.length} held-out cases (seed ${r.settings.seed}, by family) × ${r.settings.trials} trials · ${plural(r.calls, "call")}`;
}

/** "47.1% (96/204) → 58.8% (120/204)". */
function beforeAfter(d: SplitDelta): string {
  const side = (r: SplitDelta["before"]) =>
    `${formatPercent(r.value)} (${r.numerator}/${r.denominator})`;
  return `${side(d.before)} → ${side(d.after)}`;
}

/** "+11.8 [3.9, 19.6]": a change in points with its paired interval. */
function change(d: SplitDelta): string {
  if (d.delta === null) return "—";
  const pts = (v: number) => (v * 100).toFixed(1).replace(/^-/, "−");
  const sign = d.delta >= 0 ? "+" : "";
  return `${sign}${pts(d.delta)}${d.interval === null ? "" : ` [${pts(d.interval[0])}, ${pts(d.interval[1])}]`}`;
}

function outcomeSection(r: TuneResult): Section {
  const row = (label: string, d: SplitDelta): string[] => [
    label,
    beforeAfter(d),
    change(d),
    `${d.up.length} / ${d.down.length}`,
  ];
  const { held_out: held, tune } = r.outcome;
  return section(
    "Outcome",
    [
      `end-to-end accuracy, original registry → tuned (${r.final_run ?? r.base_run}), over ${held.before.cases ?? 0} held-out cases (never shown to the proposer) and ${tune.before.cases ?? 0} tune cases`,
    ],
    {
      head: ["split", "before → after", "Δ pts [95% CI]", "↑ / ↓"],
      align: ["left", "right", "right", "right"],
      rows: [row("held-out", held), row("tune", tune)],
    },
    [
      `95% CI (case-clustered): held-out ${formatCi(held.before.ci)} → ${formatCi(held.after.ci)}, tune ${formatCi(tune.before.ci)} → ${formatCi(tune.after.ci)}; Δ paired over cases`,
      `stopped: ${r.stop.reason} — ${r.stop.detail}`,
    ],
  );
}

/** "r1-1" of "r1-1-update_shipping_address". */
function shortId(c: TuneCandidate): string {
  return /^r\d+-\d+/.exec(c.id)?.[0] ?? c.id;
}

function candidatesTable(r: TuneResult): TableData {
  return {
    head: ["#", "revises", "held-out Δ", "↑ / ↓", "Holm p", "verdict"],
    align: ["left", "left", "right", "right", "right", "left"],
    rows: r.rounds.flatMap((round) =>
      round.candidates.map((c) => [
        shortId(c),
        c.revision.tool,
        change({ ...c.evidence.held_out, interval: null }),
        `${c.evidence.test.up} / ${c.evidence.test.down}`,
        formatP(c.evidence.test.p_holm),
        c.verdict,
      ]),
    ),
  };
}

function candidatesSection(r: TuneResult): Section {
  const plans = r.rounds.map(
    (round) =>
      `round ${round.round}: ${plural(round.candidates.length, "candidate")} against ${round.base_run}, at most ${plural(round.planned_calls, "call")} planned${round.planned_tokens > 0 ? ` (~${round.planned_tokens} input tokens)` : ""}; kept: ${round.accepted ?? "none"}`,
  );
  const rule = `Kept only when held-out accuracy rises beyond noise (exact one-sided sign test over held-out cases, Holm across the round, < ${r.settings.alpha}), no held-out case falls beyond its trial noise (one-sided Fisher p < ${r.settings.guard_alpha}) and no other tool's cases fall (blast radius). Δ: end-to-end accuracy in points; ↑ / ↓: held-out cases whose share of correct trials rose / fell.`;
  return section("Candidates", [...plans, rule], candidatesTable(r), [
    ...r.rounds.flatMap((round) => round.notes.map((n) => `note (round ${round.round}): ${n}`)),
    ...r.notes.map((n) => `note: ${n}`),
  ]);
}

/** One candidate: what it changed (a word diff), why, and its evidence. */
function candidateLines(c: TuneCandidate): { facts: string[]; diff: string } {
  const e = c.evidence;
  const facts = [
    `${VERDICT[c.verdict]} · by ${c.revision.by} — ${c.revision.why === "" ? "(no reason given)" : c.revision.why}`,
    `held-out ${beforeAfter(e.held_out)}, Δ ${change(e.held_out)} pts${e.held_out.up.length > 0 ? `; up: ${e.held_out.up.join(", ")}` : ""}${e.held_out.down.length > 0 ? `; down: ${e.held_out.down.join(", ")}` : ""}`,
    `tune ${beforeAfter(e.tune)}, Δ ${change(e.tune)} pts${e.tune.up.length > 0 ? `; up: ${e.tune.up.join(", ")}` : ""}${e.tune.down.length > 0 ? `; down: ${e.tune.down.join(", ")}` : ""}`,
    ...c.reasons.map((reason) => `✗ ${reason}`),
    `definition ${c.hash_before} → ${c.hash_after} · run ${c.run} · ${plural(c.calls, "call")}`,
  ];
  return { facts, diff: c.word_diff };
}

function candidateSections(r: TuneResult): Section[] {
  return r.rounds.flatMap((round) =>
    round.candidates.map((c) => {
      const { facts, diff } = candidateLines(c);
      return section(`${c.id}: ${c.revision.tool}`, [...facts, ...diff.split("\n")], null);
    }),
  );
}

function footer(r: TuneResult, dir: string): string[] {
  const lines = [`tune.json and every run: ${dir}`];
  if (r.registry.written !== null && r.final_run !== null)
    lines.push(
      `tuned snapshot (revision ${r.registry.tuned_revision}): ${r.registry.written}`,
      `compare: route-eval diff ${join(dir, r.base_run)} ${join(dir, r.final_run)}`,
    );
  else lines.push("no revision was accepted: the registry is unchanged");
  return lines;
}

export function renderTune(
  r: TuneResult,
  dir: string,
  format: TuneFormat,
  options: { color: boolean; width: number },
): string {
  const sections = [outcomeSection(r), candidatesSection(r), ...candidateSections(r)];
  const end = footer(r, dir);
  switch (format) {
    case "json":
      return `${stableStringify(r, 2)}\n`;
    case "markdown":
      return `${["## route-eval tune", inertMarkdown(describeTune(r)), ...sections.map(sectionMarkdown), end.map(inertMarkdown).join("<br>\n")].join("\n\n")}\n`;
    case "html":
      return renderHtmlPage({
        title: "route-eval tune",
        subtitle: describeTune(r),
        facts: [
          ["held-out", beforeAfter(r.outcome.held_out)],
          ["tune", beforeAfter(r.outcome.tune)],
          ["calls", String(r.calls)],
        ],
        sections: [
          sectionHtml(sections[0], "tune-outcome", null),
          sectionHtml(sections[1], "tune-candidates", null),
          ...r.rounds.flatMap((round) => round.candidates.map(candidateHtml)),
        ],
        data: r,
        script: null,
        footer: end.join(" · "),
      });
    default: {
      const paint = makePaint(options.color);
      const wrap = (line: string) => wrapText(stripControls(line), options.width).join("\n");
      return `${[wrap(describeTune(r)), ...sections.map((s) => sectionTerminal(s, paint, options.width)), end.map(wrap).join("\n")].join("\n\n")}\n`;
    }
  }
}

/** A candidate's card: its facts, then its description with removed words struck and added ones marked. */
function candidateHtml(c: TuneCandidate): HtmlSection {
  const { facts } = candidateLines(c);
  const runs = diffWords(c.description_before, c.description_after).map((s) => {
    if (s.op === "same") return html`${s.text}`;
    const [lead, rest] = splitLead(s.text);
    return s.op === "removed" ? html`${lead}<del>${rest}</del>` : html`${lead}<ins>${rest}</ins>`;
  });
  const body = html`${facts.map((line) => html`<p>${line}</p>`)}<pre class="word-diff" style="white-space:pre-wrap">${runs}</pre>`;
  return { id: `candidate-${c.id}`, title: `${c.id}: ${c.revision.tool}`, intro: null, body };
}
