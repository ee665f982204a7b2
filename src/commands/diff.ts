/** `route-eval diff`: its flags, then app/diff.ts. */
import { describeCommand } from "./catalogue.js";
import { Option, type Command } from "commander";
import {
  collectDrop,
  DEFAULT_QUARANTINE,
  DEFAULT_QUARANTINE_THRESHOLD,
  diffCommand,
  type DiffFlags,
} from "../app/diff.js";
import { parseAlpha, parseMinorityShare, positiveInt } from "../app/cli-options.js";
import { formatOption, outputOption } from "./options.js";

import type { Io } from "../context.js";
import { DIFF_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerDiff(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("diff")
    .argument(
      "<base>",
      "the baseline: a run directory (reports/<run-id>), its records.jsonl, or a report.json",
    )
    .argument("<current>", "the run to judge against it, in the same forms")
    .description(describeCommand("diff"))
    .option(
      "--force",
      "compare even when cases, trials, endpoint/model, temperature or retriever differ (over the shared cases)",
    )
    .addOption(formatOption(DIFF_FORMATS, "rendering on stdout (html: written to ./diff.html)"))
    .addOption(
      outputOption(
        'write the rendering to a file instead of stdout (html: instead of ./diff.html; "-": stdout)',
      ),
    )
    .addOption(
      new Option(
        "--max-drop <[metric=]tolerance>",
        "exit 1 when the metric (default selection_accuracy) gets worse by more than the tolerance (0.02 = 2 points); repeatable",
      )
        .argParser(collectDrop)
        .default([], "none"),
    )
    .option(
      "--fail-on-regressed-case",
      "exit 1 when a case's success rate dropped beyond its own trial noise (exact test per case, Holm across cases; quarantined cases apart)",
    )
    .option(
      "--quarantine <file>",
      `cases reported but never gated (default: ./${DEFAULT_QUARANTINE} when present)`,
    )
    .option(
      "--update-quarantine",
      "add the cases flaky beyond --quarantine-threshold to the quarantine file (existing entries kept)",
    )
    .option(
      "--quarantine-threshold <share>",
      "--update-quarantine admits a case when its minority outcome is at least this share of its trials in both runs",
      parseMinorityShare,
      DEFAULT_QUARANTINE_THRESHOLD,
    )
    .addOption(
      new Option(
        "--remeasure-base <n>",
        "ask BASE's cases N more trials each (through the store) to measure its noise; needs BASE's inputs (-c)",
      ).argParser(positiveInt),
    )
    .option(
      "-c, --config <file>",
      "--remeasure-base: the config BASE was run with (default: ./route-eval.yaml when present)",
    )
    .option("--no-progress", "--remeasure-base: no progress line on stderr")
    .option("--alpha <p>", "significance level of the paired tests", parseAlpha, 0.05)
    .option(
      "--significant-only",
      "--max-drop fails only when the drop is also significant at --alpha",
    )
    .option(
      "--all",
      "terminal, markdown: also list the unchanged metrics and the cases still failing (default: what changed)",
    )
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .addHelpText("after", helpAfter(DIFF_HELP, io))
    .action(async (base: string, current: string, flags: DiffFlags) =>
      setExit(exitOf(await diffCommand(io, base, current, flags))),
    );
}

const DIFF_HELP = `
BASE and CURRENT must share cases, trials per case, endpoint and model, temperature and
retriever/k; otherwise diff names each difference and exits 2 (unless --force).

A case regresses only when its success rate dropped beyond its own trial noise: a one-sided
Fisher exact test on its trials in the two runs, Holm-adjusted across the cases scored in both.
Cases whose own trials disagree are listed as flaky; --update-quarantine adds those whose
minority outcome is at least --quarantine-threshold (0.2) of their trials in both runs to the
quarantine file, whose cases are reported but never gated (one that collapses is named loudly). With few trials no case can reach
significance (the diff says so): run more trials, or --remeasure-base N.

Exit codes: 0 no gate failed · 1 a --max-drop or --fail-on-regressed-case gate failed ·
            2 bad input, usage, or runs that do not compare · 4 internal error (a bug)

Examples:
  route-eval diff reports/baselines/main reports/pr-123
  route-eval diff reports/baselines/main reports/pr-123 --max-drop 0.02 --max-drop violation_rate=0 --fail-on-regressed-case
  route-eval diff reports/baselines/main reports/pr-123 --fail-on-regressed-case --remeasure-base 5
  route-eval diff base/report.json current/report.json --format markdown --output diff.md
  route-eval diff reports/baselines/main reports/pr-123 --format html      # writes ./diff.html
`;
