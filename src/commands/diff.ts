import { writeOutput } from "../app/write-output.js";
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import { parseDropRule, type DropRule } from "../diff/gating.js";
import { inertLine } from "../text/inert.js";
import { DIFF_FORMATS, renderDiff, type DiffFormat } from "../diff/render.js";
import { renderDiffMarkdown } from "../diff/render-markdown.js";
import { diffRuns } from "../app/diff.js";
import type { RunPages } from "../diff/render-html-cases.js";
import { EXIT, type SetExit } from "./exit.js";
import { terminalWidth } from "../render/terminal.js";
import type { Io } from "../context.js";
import { relativeHref } from "../render/relative-href.js";
import { appendStepSummary } from "../app/step-summary.js";

interface DiffFlags {
  format: DiffFormat;
  output?: string;
  force?: boolean;
  maxDrop: DropRule[];
  failOnRegressedCase?: boolean;
  alpha: number;
  significantOnly?: boolean;
  stepSummary: boolean;
}

function collectDrop(value: string, previous: DropRule[]): DropRule[] {
  return [...previous, parseDropRule(value)];
}

function parseAlpha(value: string): number {
  const alpha = Number(value);
  if (!Number.isFinite(alpha) || alpha <= 0 || alpha >= 1) throw new InvalidArgumentError("expected a significance level between 0 and 1 (e.g. 0.05).");
  return alpha;
}

export function registerDiff(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("diff")
    .argument("<base>", "the baseline: a run directory (reports/<run-id>), its records.jsonl, or a report.json")
    .argument("<current>", "the run to judge against it, in the same forms")
    .description("Compare two runs: metric deltas with paired tests, case flips, moved confusions, changed tool definitions.")
    .option("--force", "compare even when cases, trials, endpoint/model, temperature or retriever differ (over the shared cases)")
    .addOption(new Option("-f, --format <format>", "rendering on stdout (html: written to ./diff.html)").choices(DIFF_FORMATS).default("terminal"))
    .option("-o, --output <file>", "write the rendering to a file instead of stdout (html: instead of ./diff.html; \"-\": stdout)")
    .addOption(
      new Option("--max-drop <[metric=]tolerance>", "exit 1 when the metric (default selection_accuracy) gets worse by more than the tolerance (0.02 = 2 points); repeatable")
        .argParser(collectDrop)
        .default([], "none"),
    )
    .option("--fail-on-regressed-case", "exit 1 when any case that passed in BASE fails in CURRENT")
    .option("--alpha <p>", "significance level of the paired tests", parseAlpha, 0.05)
    .option("--significant-only", "--max-drop fails only when the drop is also significant at --alpha")
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .addHelpText("after", DIFF_HELP)
    .action((base: string, current: string, flags: DiffFlags) => setExit(runDiff(io, base, current, flags)));
}

/** Compares, renders, appends the step summary, reports failed gates; returns the exit code. */
function runDiff(io: Io, base: string, current: string, flags: DiffFlags): number {
  const diff = diffRuns(base, current, {
    force: flags.force === true,
    alpha: flags.alpha,
    maxDrops: flags.maxDrop,
    failOnRegressedCase: flags.failOnRegressedCase === true,
    significantOnly: flags.significantOnly === true,
  });
  if (!diff.comparability.comparable) {
    const reasons = diff.comparability.differences.map((d) => d.message).join("; ");
    io.stderr(`route-eval: --force: comparing the ${diff.scope.shared_cases} shared cases despite: ${reasons}\n`);
  }
  const output = flags.output ?? (flags.format === "html" ? join(io.cwd, "diff.html") : undefined);
  const pages = flags.format === "html" ? findRunPages(io, base, current, output) : undefined;
  const text = renderDiff(diff, flags.format, { color: io.color && output === undefined, pages, width: terminalWidth(io) });
  writeOutput(io, text, output);
  appendStepSummary(io, renderDiffMarkdown(diff), flags.stepSummary);
  for (const gate of diff.gates.filter((g) => !g.passed)) io.stderr(`route-eval: gate failed: ${gate.rule}: ${inertLine(gate.reason)}\n`);
  return diff.verdict === "fail" ? EXIT.gate : EXIT.ok;
}

/** Each side's own report.html (beside its records or report.json), linked from the page where it exists. */
function findRunPages(io: Io, base: string, current: string, output: string | undefined): RunPages {
  const from = output === undefined || output === "-" ? io.cwd : dirname(resolve(io.cwd, output));
  const page = (target: string): string | null => {
    const path = resolve(io.cwd, target);
    const file = join(statSync(path).isDirectory() ? path : dirname(path), "report.html");
    return existsSync(file) ? relativeHref(from, file) : null;
  };
  return { base: page(base), current: page(current) };
}

const DIFF_HELP = `
BASE and CURRENT must share cases, trials per case, endpoint and model, temperature and
retriever/k; otherwise diff names each difference and exits 2 (unless --force).

Exit codes: 0 no gate failed · 1 a --max-drop or --fail-on-regressed-case gate failed ·
            2 bad input, usage, or runs that do not compare · 4 internal error (a bug)

Examples:
  route-eval diff reports/baselines/main reports/pr-123
  route-eval diff reports/baselines/main reports/pr-123 --max-drop 0.02 --max-drop violation_rate=0 --fail-on-regressed-case
  route-eval diff base/report.json current/report.json --format markdown --output diff.md
  route-eval diff reports/baselines/main reports/pr-123 --format html      # writes ./diff.html
`;
