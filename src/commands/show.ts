import type { Command } from "commander";
import { explainOneCase, explainRun } from "../show/explain-run.js";
import { readRun } from "../run-files/read-run.js";
import { buildReport } from "../report/build-report.js";
import { renderCaseExplanation } from "../show/render-case.js";
import { renderFailingCases } from "../show/render-failing-cases.js";
import type { SetExit } from "./exit.js";
import type { Io } from "../context.js";
import { terminalWidth } from "../render/terminal.js";
import { readCaseCounterfactuals, renderCaseCounterfactuals } from "../counterfactual/case-counterfactuals.js";

interface ShowFlags {
  case?: string;
  json?: boolean;
}

export function registerShow(program: Command, io: Io, _setExit: SetExit): void {
  program
    .command("show")
    .argument("<run>", "a run directory (reports/<run-id>), its records.jsonl or its report.json")
    .description("Explain a run from its records: the failing cases by stage, or with --case the whole ladder of one case.")
    .option("--case <id>", "explain one case: what existed, was exposed, retrieved, chosen, and why it failed")
    .option("--json", "print the explanation(s) as JSON instead of text")
    .addHelpText("after", SHOW_HELP)
    .action((run: string, flags: ShowFlags) => {
      const { runDir, meta, records } = readRun(run);
      const report = buildReport(meta, records);
      if (flags.case !== undefined) {
        const explanation = explainOneCase(report, records, flags.case, run);
        const counterfactuals = readCaseCounterfactuals(runDir, explanation.case_id);
        if (flags.json === true) {
          io.stdout(`${JSON.stringify(counterfactuals.length === 0 ? explanation : { ...explanation, counterfactuals }, null, 2)}\n`);
          return;
        }
        const text = renderCaseExplanation(explanation, { color: io.color, width: terminalWidth(io) });
        io.stdout(counterfactuals.length === 0 ? text : `${text}\n${renderCaseCounterfactuals(counterfactuals).join("\n")}\n`);
        return;
      }
      const explanations = explainRun(report, records);
      const failing = explanations.filter((x) => x.stage !== null || x.scored === 0);
      io.stdout(flags.json === true ? `${JSON.stringify(failing, null, 2)}\n` : renderFailingCases(report, explanations, { color: io.color, source: run, width: terminalWidth(io) }));
    });
}

const SHOW_HELP = `
Nothing is re-run and nothing is written: show reads run.json and records.jsonl (and, with
--case, the case's counterfactuals when route-eval counterfactual has run on it).
Exit codes: 0 shown · 2 bad input (no such run, unknown case id).

Examples:
  route-eval show reports/20261130-101500-baseline
  route-eval show reports/20261130-101500-baseline --case order-status-free-text
`;
