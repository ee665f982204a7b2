/** counterfactual.json rendered for people (terminal, Markdown) and machines (JSON). */
import type { CounterfactualFormat } from "../types/formats.js";
import { formatCi, formatPercent, MISSING } from "../render/format.js";
import { renderTable as renderMarkdownTable } from "../render/markdown.js";
import type { TableData } from "../render/section.js";
import { stableStringify } from "../render/stable-json.js";
import { makePaint, renderTable as renderTerminalTable } from "../render/terminal.js";
import { wrapFacts, wrapText } from "../render/text-layout.js";
import { inertMarkdown } from "../text/inert.js";
import type { CounterfactualReport, StageHeadroom } from "../types/counterfactual.js";


/** Whole counts as they are, fractional sums (flip rates over repeats) to one decimal. */
export function formatTrials(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

function points(value: number | null): string {
  return value === null ? MISSING : `+${(value * 100).toFixed(1)} pts`;
}

function pointsCi(ci: [number, number] | null): string {
  return ci === null ? "" : `[${(ci[0] * 100).toFixed(1)}, ${(ci[1] * 100).toFixed(1)}]`;
}

export function describeCounterfactual(r: CounterfactualReport): string {
  const failed = r.scored - r.correct;
  const repeats = r.repeats === "as the run" ? "repeats as the run's trials" : `${r.repeats} repeat${r.repeats === 1 ? "" : "s"}`;
  return `route-eval counterfactual ${r.run_id} · ${r.endpoint}/${r.model} · ${failed} of ${r.scored} scored trials failed · ${r.calls} counterfactual call${r.calls === 1 ? "" : "s"} (${r.kinds.join(", ")}; ${repeats})`;
}

/** One line a stage's headroom reads as: "exposure: 9 failures, 7 binding → +2.8 pts end-to-end [1.1, 4.9]". */
export function describeStage(s: StageHeadroom): string {
  if (s.failures === 0) return `${s.stage}: no failures`;
  if (s.tested === 0) return `${s.stage}: ${s.failures} failures, none tested`;
  const tested = s.tested === s.failures ? "" : ` (${s.tested} tested)`;
  return `${s.stage}: ${s.failures} failures${tested}, ${formatTrials(s.binding)} binding → ${points(s.gain.value)} end-to-end ${pointsCi(s.gain.ci)}`;
}

function stageTable(r: CounterfactualReport): TableData {
  return {
    head: ["stage", "failures", "tested", "binding", "end-to-end if fixed", "gain"],
    align: ["left", "right", "right", "right", "right", "right"],
    rows: r.stages.map((s) => [
      s.stage,
      String(s.failures),
      String(s.tested),
      s.tested === 0 ? MISSING : formatTrials(s.binding),
      s.tested === 0 ? MISSING : `${formatPercent(s.if_fixed.value)} ${formatCi(s.if_fixed.ci)}`,
      s.tested === 0 ? MISSING : `${points(s.gain.value)} ${pointsCi(s.gain.ci)}`,
    ]),
  };
}

function pairTable(r: CounterfactualReport): TableData {
  return {
    head: ["expected", "rival removed", "failures", "recovered"],
    align: ["left", "left", "right", "right"],
    rows: r.rival_pairs.map((p) => [p.acceptable, p.rival, String(p.failures), formatTrials(p.recovered)]),
  };
}

function selectionLine(r: CounterfactualReport): string {
  const s = r.selection;
  if (s.tested === 0) return "selection: no failure was tested";
  return `selection: of ${s.tested} failures tested, removing the rival recovers ${formatTrials(s.by_rival)}, moving the acceptable tool first ${formatTrials(s.by_position)}; the pair alone still fails ${formatTrials(s.inseparable)} (inseparable from its rival as described); no change recovers ${s.unexplained}`;
}

const CAVEAT = "A counterfactual asks the model a different question than the run did: one run of it is evidence, not proof. Gains are case-clustered 95% intervals; binding counts are flip rates summed over the failed trials.";

function renderTerminal(r: CounterfactualReport, color: boolean, width: number): string {
  const paint = makePaint(color);
  const wrap = (text: string) => wrapText(text, width).join("\n");
  const blocks = [
    wrapFacts(describeCounterfactual(r), width).join("\n"),
    [paint("Headroom by stage", "bold"), renderTerminalTable(stageTable(r), paint, width)].join("\n"),
    r.stages.filter((s) => s.tested > 0).map((s) => wrap(describeStage(s))).join("\n"),
    wrap(selectionLine(r)),
    ...(r.rival_pairs.length === 0 ? [] : [[paint("Rival pairs whose removal recovers the most", "bold"), renderTerminalTable(pairTable(r), paint, width)].join("\n")]),
    ...(r.notes.length === 0 ? [] : [r.notes.map((n) => wrap(`note: ${n}`)).join("\n")]),
    wrap(CAVEAT),
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

function renderMarkdown(r: CounterfactualReport): string {
  const blocks = [
    "## route-eval counterfactual",
    inertMarkdown(describeCounterfactual(r)),
    "### Headroom by stage",
    renderMarkdownTable(stageTable(r)),
    r.stages.filter((s) => s.tested > 0).map((s) => inertMarkdown(describeStage(s))).join("<br>\n"),
    inertMarkdown(selectionLine(r)),
    ...(r.rival_pairs.length === 0 ? [] : ["### Rival pairs whose removal recovers the most", renderMarkdownTable(pairTable(r))]),
    ...r.notes.map((n) => inertMarkdown(`Note: ${n}`)),
    CAVEAT,
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

export function renderCounterfactual(r: CounterfactualReport, format: CounterfactualFormat, options: { color: boolean; width?: number }): string {
  if (format === "json") return `${stableStringify(r, 2)}\n`;
  if (format === "markdown") return renderMarkdown(r);
  return renderTerminal(r, options.color, options.width ?? 100);
}
