/**
 * `route-eval show RUN` without --case: the failing cases grouped by the first rung they failed
 * (in ladder order, so the earliest fix comes first), worst case first within each group.
 */
import { plural } from "../render/format.js";
import { maxOf } from "../text/extremes.js";
import { STAGES } from "../types.js";
import type { Report, Stage } from "../types.js";
import { bestAcceptable } from "./explain-ladder.js";
import { FIX_ACTIONS } from "./explain-fix.js";
import type { CaseExplanation } from "../types/explain.js";
import { compareText } from "../text/compare-text.js";
import { describeRun } from "../render/run-header.js";
import { makePaint, stripControls, type Paint } from "../render/terminal.js";
import { displayWidth, padToWidth, wrapFacts, wrapText } from "../render/text-layout.js";
import { SHOW_WIDTH } from "./render-case.js";

/** One line per case: why it sits in its group, in the words of its rung. */
const WHY: Record<Stage, (x: CaseExplanation) => string> = {
  coverage: (x) => `missing: ${x.acceptable.join(", ")}`,
  exposure: (x) => {
    const hidden = x.exposure.hidden_acceptable.map(
      (t) => `${t.name} (${t.rules.join(" + ") || "?"})`,
    );
    return `phase ${x.phase ?? "?"} hides ${hidden.join(", ") || "every acceptable tool"}`;
  },
  discovery: (x) => {
    const best = x.discovery.ranking === null ? null : bestAcceptable(x.discovery.ranking);
    return best === null
      ? "acceptable tools not retrieved"
      : `${best.name} ranked #${best.rank}, k=${x.discovery.k ?? "?"}`;
  },
  selection: (x) =>
    x.rival === null
      ? x.outcome
      : `${x.acceptable.join("|")} → ${x.rival.rival.name} ×${x.rival.count}`,
};

/** Worst first: lowest share correct, then most violations, then case id. */
function compareWorst(a: CaseExplanation, b: CaseExplanation): number {
  const share = (x: CaseExplanation): number => (x.scored === 0 ? 1 : x.correct / x.scored);
  return share(a) - share(b) || b.violated - a.violated || compareText(a.case_id, b.case_id);
}

function renderGroup(
  stage: Stage,
  cases: CaseExplanation[],
  width: number,
  paint: Paint,
  columns: number,
): string[] {
  const trials = cases.reduce(
    (sum, x) => sum + x.trial_views.filter((v) => v.failed_stage === stage).length,
    0,
  );
  if (cases.length === 0)
    return [paint(`${stage} → ${FIX_ACTIONS[stage]} · no failing cases`, "dim")];
  const title = `${stage} → ${FIX_ACTIONS[stage]} · ${cases.length} case${cases.length === 1 ? "" : "s"}, ${plural(trials, "failed trial")}`;
  const rows = [...cases].sort(compareWorst).map((x) => {
    const id = padToWidth(stripControls(x.case_id), width);
    const correct = `${x.correct}/${x.scored}`.padStart(5);
    const why = `${stripControls(WHY[stage](x))}${x.violated > 0 ? ` ! ${x.violated} forbidden` : ""}`;
    // The reason wraps under itself; a narrow terminal puts it on the next line instead.
    const indent = 2 + displayWidth(id) + 2 + correct.length + 2;
    const room = columns - indent;
    const lines =
      room >= 24
        ? wrapText(why, room).map((line, i) =>
            i === 0 ? `  ${id}  ${correct}  ${line}` : `${" ".repeat(indent)}${line}`,
          )
        : [`  ${id}  ${correct}`, ...wrapText(why, columns - 6).map((line) => `      ${line}`)];
    return lines
      .map((line) =>
        x.violated > 0 ? line.replace(/ ! (\d+) forbidden$/, (m) => paint(m, "red")) : line,
      )
      .join("\n");
  });
  return [paint(wrapText(title, columns).join("\n"), "bold"), ...rows];
}

export function renderFailingCases(
  report: Report,
  explanations: CaseExplanation[],
  options: { color: boolean; source: string; width?: number },
): string {
  const paint = makePaint(options.color);
  const columns = options.width ?? SHOW_WIDTH;
  const wrap = (text: string) => wrapText(text, columns).join("\n");
  const failing = explanations.filter((x) => x.stage !== null);
  const allErrored = explanations.filter((x) => x.scored === 0);
  const failedTrials = failing.reduce((sum, x) => sum + x.scored - x.correct, 0);
  const head = [
    paint(wrapFacts(stripControls(describeRun(report)), columns).join("\n"), "bold"),
    wrap(
      `${failing.length} of ${explanations.length} cases failed at least one trial (${failedTrials} of ${report.metrics.scored} scored trials); grouped by the first rung that failed, worst first`,
    ),
  ];
  const width = Math.min(
    40,
    maxOf(
      failing.map((x) => displayWidth(stripControls(x.case_id))),
      0,
    ),
  );
  const groups = STAGES.map((stage) =>
    renderGroup(
      stage,
      failing.filter((x) => x.stage === stage),
      width,
      paint,
      columns,
    ),
  );
  const errored =
    allErrored.length === 0
      ? []
      : [
          [
            paint(`errored · ${allErrored.length} cases with every trial errored`, "bold"),
            ...allErrored.map((x) => `  ${stripControls(x.case_id)}`),
          ],
        ];
  const command = `route-eval show ${options.source} --case <id>`;
  // A command is not wrapped (it is copied whole): it gets a line of its own when it does not fit beside the label.
  const foot =
    `Explain one case: ${command}`.length <= columns
      ? [`Explain one case: ${command}`]
      : ["Explain one case:", `  ${command}`];
  return `${[head, ...groups, ...errored, foot].map((lines) => lines.join("\n")).join("\n\n")}\n`;
}
