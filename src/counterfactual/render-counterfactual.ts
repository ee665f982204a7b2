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
import type { Rate } from "../types.js";

/** Whole counts as they are, fractional sums (flip rates over repeats) to one decimal. */
export function formatTrials(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Signed points: "+20.0 pts", "−1.5 pts". */
export function points(value: number | null): string {
  if (value === null) return MISSING;
  const text = `${(Math.abs(value) * 100).toFixed(1)} pts`;
  return value < 0 && Math.abs(value) >= 0.0005 ? `−${text}` : `+${text}`;
}

/** "[−2.4, 20.0]": a gain's interval in points. */
function pointsCi(ci: [number, number] | null): string {
  return ci === null
    ? ""
    : `[${formatPercent(ci[0]).slice(0, -1)}, ${formatPercent(ci[1]).slice(0, -1)}]`;
}

/** "+66.7% (4/6) [13.1%, 90.3%]": a difference per failure, with its net count. */
function percentCi(rate: Rate): string {
  if (rate.value === null) return MISSING;
  return `${points(rate.value).replace(" pts", "%")} (${formatTrials(rate.numerator)}/${rate.denominator}) ${formatCi(rate.ci)}`;
}

export function describeCounterfactual(r: CounterfactualReport): string {
  const failed = r.scored - r.correct;
  const repeats =
    r.repeats === "as the run"
      ? "repeats as the run's trials"
      : `${r.repeats} repeat${r.repeats === 1 ? "" : "s"}`;
  return `route-eval counterfactual ${r.run_id} · ${r.endpoint}/${r.model} · ${failed} of ${r.scored} scored trials failed · ${r.calls} counterfactual call${r.calls === 1 ? "" : "s"} (placebo + ${r.kinds.join(", ")}; ${repeats})`;
}

function verdict(withinNoise: boolean): string {
  return withinNoise ? "within noise" : "beyond chance";
}

/** "exposure: 9 failures; inject recovers 7.0, the placebo 0.0 → 7.0 binding, +2.8 pts end-to-end [1.1, 4.9] (beyond chance)". */
export function describeStage(s: StageHeadroom): string {
  if (s.failures === 0) return `${s.stage}: no failures`;
  if (s.tested === 0 || s.kind === null) return `${s.stage}: ${s.failures} failures, none tested`;
  const tested = s.tested === s.failures ? "" : ` (${s.tested} tested)`;
  return `${s.stage}: ${s.failures} failures${tested}; ${s.kind} recovers ${formatTrials(s.fix)}, the placebo ${formatTrials(s.placebo)} → ${formatTrials(s.binding)} binding, ${points(s.gain.value)} end-to-end ${pointsCi(s.gain.ci)} (${s.within_noise ? "within the placebo's noise" : "beyond chance"})`;
}

function stageTable(r: CounterfactualReport): TableData {
  return {
    head: ["stage", "failures", "tested", "change", "binding", "gain", "if fixed"],
    align: ["left", "right", "right", "left", "right", "right", "right"],
    rows: r.stages.map((s) => {
      const none = s.tested === 0 || s.kind === null;
      return [
        s.stage,
        String(s.failures),
        String(s.tested),
        none ? MISSING : (s.kind ?? MISSING),
        none ? MISSING : formatTrials(s.binding),
        none ? MISSING : `${points(s.gain.value)} ${pointsCi(s.gain.ci)}`,
        none
          ? MISSING
          : `${formatPercent(s.if_fixed.value)} (${formatTrials(s.if_fixed.numerator)}/${s.if_fixed.denominator}) ${formatCi(s.if_fixed.ci)}`,
      ];
    }),
  };
}

/** Every change against the placebo: the share of the failed trials it recovers beyond chance. */
function armTable(r: CounterfactualReport): TableData {
  return {
    head: ["stage", "change", "tested", "recovered", "placebo", "headroom per failure", "verdict"],
    align: ["left", "left", "right", "right", "right", "right", "left"],
    rows: r.stages.flatMap((s) =>
      s.arms.map((a) => [
        s.stage,
        a.kind,
        String(a.tested),
        formatTrials(a.fix),
        formatTrials(a.placebo),
        percentCi(a.headroom),
        verdict(a.within_noise),
      ]),
    ),
  };
}

function pairTable(r: CounterfactualReport): TableData {
  return {
    head: ["expected", "rival removed", "failures", "recovered", "placebo"],
    align: ["left", "left", "right", "right", "right"],
    rows: r.rival_pairs.map((p) => [
      p.acceptable,
      p.rival,
      String(p.failures),
      formatTrials(p.recovered),
      formatTrials(p.placebo),
    ]),
  };
}

export function selectionLine(r: CounterfactualReport): string {
  const s = r.selection;
  if (s.tested === 0) return "selection: no failure was tested";
  const credited =
    s.beyond_noise.length === 0
      ? "no change recovered failures beyond the placebo's noise, so none is credited with any"
      : `credited only to the changes that recovered failures beyond the placebo's noise: ${s.beyond_noise.join(", ")}`;
  return `selection: the ${s.tested} failures tested, each counted once under the first that holds — the rival (removing it recovers more repeats than the placebo) ${s.rival}, position (moving the acceptable tool first does) ${s.position}, crowding (only the pair does) ${s.crowding}, chance (re-asking unchanged recovers it as often) ${s.chance}, inseparable (the pair alone still fails) ${s.inseparable}, unexplained ${s.unexplained}; ${credited}`;
}

const CAVEAT =
  "Every change is read against a placebo: the same failed trial re-asked unchanged, with the same fresh seeds, so what chance recovers is not counted as headroom. Binding = flip rates summed over the failed trials, minus the placebo's. Every 95% interval here is case-clustered (the two arms' intervals combined). Each stage shows the change whose interval's lower bound is highest; every change is listed below it.";

function renderTerminal(r: CounterfactualReport, color: boolean, width: number): string {
  const paint = makePaint(color);
  const wrap = (text: string) => wrapText(text, width).join("\n");
  const blocks = [
    wrapFacts(describeCounterfactual(r), width).join("\n"),
    [paint("Headroom by stage", "bold"), renderTerminalTable(stageTable(r), paint, width)].join(
      "\n",
    ),
    r.stages
      .filter((s) => s.tested > 0)
      .map((s) => wrap(describeStage(s)))
      .join("\n"),
    ...(armTable(r).rows.length === 0
      ? []
      : [
          [
            paint("Every change against the placebo", "bold"),
            renderTerminalTable(armTable(r), paint, width),
          ].join("\n"),
        ]),
    wrap(selectionLine(r)),
    ...(r.rival_pairs.length === 0
      ? []
      : [
          [
            paint("Rival pairs whose removal recovers the most", "bold"),
            renderTerminalTable(pairTable(r), paint, width),
          ].join("\n"),
        ]),
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
    r.stages
      .filter((s) => s.tested > 0)
      .map((s) => inertMarkdown(describeStage(s)))
      .join("<br>\n"),
    ...(armTable(r).rows.length === 0
      ? []
      : ["### Every change against the placebo", renderMarkdownTable(armTable(r))]),
    inertMarkdown(selectionLine(r)),
    ...(r.rival_pairs.length === 0
      ? []
      : ["### Rival pairs whose removal recovers the most", renderMarkdownTable(pairTable(r))]),
    ...r.notes.map((n) => inertMarkdown(`Note: ${n}`)),
    CAVEAT,
  ];
  return `${blocks.filter((b) => b !== "").join("\n\n")}\n`;
}

export function renderCounterfactual(
  r: CounterfactualReport,
  format: CounterfactualFormat,
  options: { color: boolean; width?: number },
): string {
  if (format === "json") return `${stableStringify(r, 2)}\n`;
  if (format === "markdown") return renderMarkdown(r);
  return renderTerminal(r, options.color, options.width ?? 100);
}
