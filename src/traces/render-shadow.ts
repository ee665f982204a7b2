/** A shadow replay's report in every format: the same sections laid out for the terminal, Markdown and HTML, or the JSON itself. */
import { formatCi, formatNumber, formatPercent, formatRate, plural } from "../render/format.js";
import { renderHtmlPage } from "../render/html/page.js";
import { sectionHtml, sectionMarkdown, sectionTerminal } from "../render/lay-out-sections.js";
import { section, type Cell, type Section } from "../render/section.js";
import { makePaint, stripControls } from "../render/terminal.js";
import { wrapText } from "../render/text-layout.js";
import { stableStringify } from "../render/stable-json.js";
import { inertMarkdown } from "../text/inert.js";
import type { ShadowReport } from "../types.js";
import type { ShadowFormat } from "../types/formats.js";

export function buildShadowSections(r: ShadowReport): Section[] {
  const skipped = Object.entries(r.turns.skipped).map(([why, n]) => `${n} ${why}`);
  const summary = section(
    "Shadow replay",
    [
      `${plural(r.turns.asked, "production turn")} asked again against ${describeCandidate(r)}${r.candidate.trials > 1 ? `, ${r.candidate.trials} trials each` : ""}: ${plural(r.decisions, "decision")}${r.errored > 0 ? ` (${r.errored} errored, in no count)` : ""}`,
      `moved: ${formatPercent(r.moved.value)} (${r.moved.numerator}/${r.moved.denominator}) ${formatCi(r.moved.ci)} — a decision moved when the candidate's choice is not production's; the turn is the unit of the interval`,
      ...(skipped.length === 0
        ? []
        : [`not asked: ${skipped.join(", ")} (of ${r.turns.read} read)`]),
      ...(r.turns.no_system === 0
        ? []
        : [
            `${plural(r.turns.no_system, "turn")} traced no system prompt: asked without one, as production was (if production had one the trace did not keep, these decisions are not comparable)`,
          ]),
    ],
    null,
  );
  const moved = r.cells.filter((cell) => cell.moved);
  const same = r.cells.filter((cell) => !cell.moved);
  const rows: Cell[][] = moved.map((cell) => [
    cell.from,
    { text: cell.to, tone: "bad" },
    String(cell.count),
  ]);
  const kept = same.reduce((sum, cell) => sum + cell.count, 0);
  const moves = section(
    "Moves (production → candidate)",
    moved.length === 0 ? ["no decision moved"] : [],
    rows.length === 0
      ? null
      : { head: ["production", "candidate", "decisions"], align: ["left", "left", "right"], rows },
    [
      `unchanged: ${plural(kept, "decision")}${same.length === 0 ? "" : ` — ${same.map((cell) => `${cell.from} ${cell.count}`).join(", ")}`}`,
      `from a tool call to a question: ${r.became.question} · to an abstention: ${r.became.abstention} · to no call: ${r.became.no_call}`,
      ...(moved.length === 0
        ? []
        : [
            "turns behind each move (route-eval show RUN --case TURN):",
            ...moved.map((cell) => `  ${cell.from} → ${cell.to}: ${describeTurns(cell)}`),
          ]),
    ],
  );
  const sizes = section(
    "Candidate set",
    [
      `ordinary tools offered per turn: production ${formatNumber(r.set_size.production, 2)}, candidate ${formatNumber(r.set_size.candidate, 2)} (after its exposure; controls apart)`,
      `turns shown fewer tools: ${r.set_size.fewer} · more: ${r.set_size.more}`,
      `calls per decision: production ${formatNumber(r.calls.production.mean, 2)}, candidate ${formatNumber(r.calls.candidate.mean, 2)} · several calls in one reply: production ${formatRate(r.calls.parallel.production)}, candidate ${formatRate(r.calls.parallel.candidate)}`,
    ],
    null,
  );
  return [summary, moves, sizes];
}

/** The turns of a cell, and how many more there are when the report names only the first. */
function describeTurns(cell: ShadowReport["cells"][number]): string {
  return `${cell.turns.join(", ")}${cell.count > cell.turns.length ? ` (+${cell.count - cell.turns.length} decisions)` : ""}`;
}

function describeCandidate(r: ShadowReport): string {
  const c = r.candidate;
  return [
    `${c.endpoint}:${c.model}`,
    c.registry === null ? "the traced tool definitions" : `registry ${c.registry}`,
    ...(c.phase === null ? [] : [`phase ${c.phase}`]),
    ...(c.config === null ? [] : [`config ${c.config}`]),
  ].join(", ");
}

export function renderShadow(
  r: ShadowReport,
  format: ShadowFormat,
  options: { color: boolean; width: number },
): string {
  const sections = buildShadowSections(r);
  const footer = `records and report: ${r.run_dir}`;
  switch (format) {
    case "json":
      return `${stableStringify(r, 2)}\n`;
    case "markdown":
      return `${[`## Shadow replay`, ...sections.map(sectionMarkdown), inertMarkdown(footer)].join("\n\n")}\n`;
    case "html":
      return renderHtmlPage({
        title: "route-eval shadow",
        subtitle: `production turns asked again against ${describeCandidate(r)}`,
        facts: [
          ["turns", String(r.turns.asked)],
          ["decisions", String(r.decisions)],
          [
            "moved",
            `${formatPercent(r.moved.value)} (${r.moved.numerator}/${r.moved.denominator})`,
          ],
        ],
        sections: sections.map((s, i) => sectionHtml(s, `shadow-${i}`, null)),
        data: r,
        script: null,
        footer,
      });
    default: {
      const paint = makePaint(options.color);
      return `${[...sections.map((s) => sectionTerminal(s, paint, options.width)), wrapText(stripControls(footer), options.width).join("\n")].join("\n\n")}\n`;
    }
  }
}
