/**
 * `route-eval diff` composition root: read both runs (run directories with their trial records,
 * or bare report.json files), refuse incomparable runs unless forced, compare.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  applyDiffGates,
  parseDropRule,
  type DropRule,
  type GateOptions,
} from "../gates/regression-gates.js";
import { renderDiff } from "../diff/render.js";
import { renderDiffMarkdown } from "../diff/render-markdown.js";
import type { RunPages } from "../diff/render-html-cases.js";
import { writeOutput } from "./write-output.js";
import { appendStepSummary } from "./step-summary.js";
import { terminalWidth } from "../render/terminal-width.js";
import { relativeHref } from "../render/relative-href.js";
import { inertLine } from "../text/inert.js";
import type { Io } from "../context.js";
import type { DiffFormat } from "../types/formats.js";
import type { Outcome } from "../types.js";
import { checkComparability, splitCaseIds } from "../diff/comparability.js";
import { compareRuns, type CompareOptions, type DiffInput } from "../diff/compare-runs.js";
import type { Diff, DiffReport } from "../types/diff.js";
import { InputError } from "../errors.js";
import { findMeta } from "../run-files/read-run.js";
import { locateRun, RUN_TARGET, resolveRunTarget } from "../run-files/locate-run.js";
import { buildCaseRows } from "../metrics/case-rows.js";
import { computeMetrics } from "../metrics/compute-metrics.js";
import { readReportFile } from "../run-files/read-report.js";
import { readRecords } from "../run-files/records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";
import { readHeadroom } from "../run-files/read-headroom.js";
import {
  DEFAULT_QUARANTINE,
  DEFAULT_QUARANTINE_THRESHOLD,
  readQuarantine,
  updateQuarantine,
} from "../diff/quarantine.js";
export { DEFAULT_QUARANTINE, DEFAULT_QUARANTINE_THRESHOLD };
import { remeasureBase, type RemeasureTallies } from "../trial/remeasure.js";
import { readRun } from "../run-files/read-run.js";
import { configRoot, loadConfig } from "../config/load-config.js";
import { pinnedOverrides } from "../run-files/resume-check.js";
import { createProgressPrinter } from "../render/progress.js";

/**
 * One side of the diff. A run directory (or its records.jsonl) is rebuilt from its trial records,
 * with run.json or report.json supplying the metadata; a .json file is read as a report alone.
 */
export function loadDiffInput(shown: string, cwd: string): DiffInput {
  const target = resolveRunTarget(cwd, shown);
  const files = locateRun(target);
  const reportNamed = files.report === target && !target.endsWith(".jsonl");
  if (reportNamed) return { label: shown, report: readReportFile(target), records: null };
  if (files.records === null) {
    if (files.report !== null)
      return { label: shown, report: readReportFile(files.report), records: null };
    throw new InputError(`${shown}: holds neither records.jsonl nor report.json (${RUN_TARGET})`);
  }
  const records = readRecords(files.records);
  if (records.length === 0)
    throw new InputError(`${files.records}: no trial records (the run recorded nothing yet)`);
  return { label: shown, report: summariseRun(findMeta(files, records), records), records };
}

/** The parts of a report a diff reads, from records (the per-slice breakdowns are skipped). */
function summariseRun(run: RunMeta, records: TrialRecord[]): DiffReport {
  const success = run.config.success ?? "selection";
  return { run, metrics: computeMetrics(records, success), cases: buildCaseRows(records, success) };
}

/** Compare BASE with CURRENT; InputError (exit 2) naming every difference when they do not compare. */
/** BASE and CURRENT as given (relative to `cwd`) compared, gated, with their counterfactual headroom when both have it. */
export function diffRuns(
  basePath: string,
  currentPath: string,
  cwd: string,
  options: CompareOptions & GateOptions,
): Diff {
  const base = loadDiffInput(basePath, cwd);
  const current = loadDiffInput(currentPath, cwd);
  const { comparable, differences } = checkComparability(
    base.report,
    current.report,
    options.force,
  );
  if (!comparable && !options.force) {
    const shared = splitCaseIds(base.report, current.report).shared.length;
    const reasons = differences.map((d) => d.message).join("; ");
    const hint = `pass --force to compare the ${shared} shared case${shared === 1 ? "" : "s"} anyway`;
    throw new InputError(`cannot compare ${basePath} with ${currentPath}: ${reasons}; ${hint}`);
  }
  const diff = applyDiffGates(compareRuns(base, current, options), options);
  const before = readHeadroom(locateRun(resolveRunTarget(cwd, basePath)).runDir);
  const after = readHeadroom(locateRun(resolveRunTarget(cwd, currentPath)).runDir);
  if (before !== null && after !== null) {
    diff.headroom = before.stages.map((stage, i) => {
      const other = after.stages[i];
      const side = (s: typeof stage) => ({
        failures: s.failures,
        binding: s.binding,
        gain: s.tested === 0 ? null : s.gain.value,
      });
      return { stage: stage.stage, base: side(stage), current: side(other) };
    });
  }
  return diff;
}

export interface DiffFlags {
  format: DiffFormat;
  output?: string;
  force?: boolean;
  maxDrop: DropRule[];
  failOnRegressedCase?: boolean;
  alpha: number;
  significantOnly?: boolean;
  stepSummary: boolean;
  all?: boolean;
  quarantine?: string;
  updateQuarantine?: boolean;
  /** The least minority share a case's trials need, in both runs, to be quarantined. */
  quarantineThreshold?: number;
  remeasureBase?: number;
  config?: string;
  progress?: boolean;
}

/** --max-drop, repeatable: each rule added to those before. */
export function collectDrop(value: string, previous: DropRule[]): DropRule[] {
  return [...previous, parseDropRule(value)];
}

/** `route-eval diff BASE CURRENT`: compares, renders, appends the step summary, reports failed gates. */
export async function diffCommand(
  io: Io,
  base: string,
  current: string,
  flags: DiffFlags,
): Promise<Outcome> {
  const quarantine = readQuarantine(flags.quarantine, io.cwd);
  const remeasure =
    flags.remeasureBase === undefined
      ? null
      : { perCase: flags.remeasureBase, tallies: await remeasureSide(io, base, flags) };
  const diff = diffRuns(base, current, io.cwd, {
    force: flags.force === true,
    alpha: flags.alpha,
    maxDrops: flags.maxDrop,
    failOnRegressedCase: flags.failOnRegressedCase === true,
    significantOnly: flags.significantOnly === true,
    quarantine,
    remeasure,
  });
  if (flags.updateQuarantine === true) {
    const threshold = flags.quarantineThreshold ?? DEFAULT_QUARANTINE_THRESHOLD;
    const added = updateQuarantine(
      diff,
      quarantine,
      flags.quarantine,
      io.cwd,
      io.now().toISOString().slice(0, 10),
      threshold,
    );
    io.stderr(
      `route-eval: quarantine ${flags.quarantine ?? DEFAULT_QUARANTINE}: ${added.length === 0 ? "no case flaky enough to add" : `added ${added.length} case${added.length === 1 ? "" : "s"}`} (a case's minority outcome is at least ${Math.round(threshold * 100)}% of its trials in both runs)${added.length === 0 ? "" : `: ${added.join(", ")}`}\n`,
    );
  }
  // A quarantined case that collapsed beyond its noise is not gated, and is never quiet.
  const collapsed = diff.flips.filter(
    (f) => f.quarantined === true && f.test?.beyond_noise === true,
  );
  for (const flip of collapsed)
    io.stderr(
      `route-eval: warning: quarantined case ${inertLine(flip.case_id)} collapsed beyond its trial noise (${flip.test?.base.correct}/${flip.test?.base.scored} → ${flip.test?.current.correct}/${flip.test?.current.scored}); it is not gated while quarantined — look at it, and release it from the quarantine\n`,
    );
  if (!diff.comparability.comparable) {
    const reasons = diff.comparability.differences.map((d) => d.message).join("; ");
    io.stderr(
      `route-eval: --force: comparing the ${diff.scope.shared_cases} shared cases despite: ${reasons}\n`,
    );
  }
  const output = flags.output ?? (flags.format === "html" ? join(io.cwd, "diff.html") : undefined);
  const pages = flags.format === "html" ? findRunPages(io, base, current, output) : undefined;
  const all = flags.all === true;
  const text = renderDiff(diff, flags.format, {
    color: io.color && output === undefined,
    pages,
    width: terminalWidth(io),
    all,
  });
  writeOutput(io, text, output);
  appendStepSummary(io, () => renderDiffMarkdown(diff, { all }), flags.stepSummary);
  for (const gate of diff.gates.filter((g) => !g.passed))
    io.stderr(`route-eval: gate failed: ${gate.rule}: ${inertLine(gate.reason)}\n`);
  return diff.verdict === "fail" ? "failed" : "ok";
}

/** --remeasure-base N: the base run's cases asked N more trials each, with the config it was run with. */
async function remeasureSide(io: Io, base: string, flags: DiffFlags): Promise<RemeasureTallies> {
  const runDir = locateRun(resolveRunTarget(io.cwd, base)).runDir;
  const { meta } = readRun(runDir);
  const config = loadConfig(
    flags.config ?? null,
    pinnedOverrides(meta, configRoot(flags.config ?? null, io.cwd)),
    io.cwd,
    "other",
  );
  return remeasureBase(runDir, config, flags.remeasureBase ?? 0, {
    env: io.env,
    onProgress:
      flags.progress === false
        ? undefined
        : createProgressPrinter(io, { tty: io.stderrTTY === true, width: terminalWidth(io) }),
    onWarning: (message) => io.stderr(`${inertLine(message)}\n`),
    signal: io.interrupts?.(),
  });
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
