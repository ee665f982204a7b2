/**
 * `route-eval show RUN [--case ID]` composition root: read the run, build its report, explain the
 * failing cases (or one case's whole ladder, with its counterfactuals when they were asked).
 * Nothing is re-run and nothing is written.
 */
import { resolveRunTarget } from "../run-files/locate-run.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Io } from "../context.js";
import {
  gatherCaseCounterfactuals,
  renderCaseCounterfactuals,
} from "../counterfactual/case-counterfactuals.js";
import { terminalWidth } from "../render/terminal-width.js";
import { buildReport } from "../report/build-report.js";
import { readRun } from "../run-files/read-run.js";
import { readRecords } from "../run-files/records-io.js";
import { explainOneCase, explainRun } from "../show/explain-run.js";
import { renderCaseExplanation } from "../show/render-case.js";
import { renderFailingCases } from "../show/render-failing-cases.js";
import { buildTimeline, renderTimeline } from "../show/conversation-timeline.js";
import { COUNTERFACTUAL_DIR } from "../trial/counterfactual.js";
import type { Outcome } from "../types.js";

export interface ShowFlags {
  case?: string;
  json?: boolean;
}

export function showCommand(io: Io, run: string, flags: ShowFlags): Outcome {
  const { runDir, meta, records } = readRun(resolveRunTarget(io.cwd, run));
  const report = buildReport(meta, records);
  // A conversation's id: its timeline, turn by turn (each turn is a case of its own: <id>@<turn>).
  const timeline =
    flags.case === undefined || report.cases.some((c) => c.case_id === flags.case)
      ? null
      : buildTimeline(records, flags.case);
  if (timeline !== null) {
    io.stdout(
      flags.json === true
        ? `${JSON.stringify(timeline, null, 2)}\n`
        : renderTimeline(timeline, run, terminalWidth(io)),
    );
    return "ok";
  }
  if (flags.case !== undefined) {
    const explanation = explainOneCase(report, records, flags.case, run);
    const counterfactualFile = join(runDir, COUNTERFACTUAL_DIR, "records.jsonl");
    const counterfactuals = existsSync(counterfactualFile)
      ? gatherCaseCounterfactuals(readRecords(counterfactualFile), explanation.case_id)
      : [];
    if (flags.json === true) {
      io.stdout(
        `${JSON.stringify(counterfactuals.length === 0 ? explanation : { ...explanation, counterfactuals }, null, 2)}\n`,
      );
      return "ok";
    }
    const text = renderCaseExplanation(explanation, { color: io.color, width: terminalWidth(io) });
    io.stdout(
      counterfactuals.length === 0
        ? text
        : `${text}\n${renderCaseCounterfactuals(counterfactuals).join("\n")}\n`,
    );
    return "ok";
  }
  const explanations = explainRun(report, records);
  const failing = explanations.filter((x) => x.stage !== null || x.scored === 0);
  io.stdout(
    flags.json === true
      ? `${JSON.stringify(failing, null, 2)}\n`
      : renderFailingCases(report, explanations, {
          color: io.color,
          source: run,
          width: terminalWidth(io),
        }),
  );
  return "ok";
}
