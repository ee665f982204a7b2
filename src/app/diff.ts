/**
 * `route-eval diff` composition root: read both runs (run directories with their trial records,
 * or bare report.json files), refuse incomparable runs unless forced, compare.
 */
import { checkComparability, splitCaseIds } from "../diff/comparability.js";
import { compareRuns, type CompareOptions, type DiffInput } from "../diff/compare-runs.js";
import type { Diff, DiffReport } from "../types/diff.js";
import { InputError } from "../errors.js";
import { findMeta } from "../run-files/read-run.js";
import { locateRun, RUN_TARGET } from "../run-files/locate-run.js";
import { buildCaseRows } from "../metrics/case-rows.js";
import { computeMetrics } from "../metrics/compute-metrics.js";
import { readReportFile } from "../run-files/read-report.js";
import { readRecords } from "../run-files/records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";
import { readHeadroom } from "../run-files/read-headroom.js";

/**
 * One side of the diff. A run directory (or its records.jsonl) is rebuilt from its trial records,
 * with run.json or report.json supplying the metadata; a .json file is read as a report alone.
 */
export function loadDiffInput(target: string): DiffInput {
  const files = locateRun(target);
  const reportNamed = files.report === target && !target.endsWith(".jsonl");
  if (reportNamed) return { label: target, report: readReportFile(target), records: null };
  if (files.records === null) {
    if (files.report !== null) return { label: target, report: readReportFile(files.report), records: null };
    throw new InputError(`${target}: holds neither records.jsonl nor report.json (${RUN_TARGET})`);
  }
  const records = readRecords(files.records);
  if (records.length === 0) throw new InputError(`${files.records}: no trial records (the run recorded nothing yet)`);
  return { label: target, report: summariseRun(findMeta(files, records), records), records };
}

/** The parts of a report a diff reads, from records (the per-slice breakdowns are skipped). */
function summariseRun(run: RunMeta, records: TrialRecord[]): DiffReport {
  const success = run.config.success ?? "selection";
  return { run, metrics: computeMetrics(records, success), cases: buildCaseRows(records, success) };
}

/** Compare BASE with CURRENT; InputError (exit 2) naming every difference when they do not compare. */
export function diffRuns(basePath: string, currentPath: string, options: CompareOptions): Diff {
  const base = loadDiffInput(basePath);
  const current = loadDiffInput(currentPath);
  const { comparable, differences } = checkComparability(base.report, current.report, options.force);
  if (!comparable && !options.force) {
    const shared = splitCaseIds(base.report, current.report).shared.length;
    const reasons = differences.map((d) => d.message).join("; ");
    const hint = `pass --force to compare the ${shared} shared case${shared === 1 ? "" : "s"} anyway`;
    throw new InputError(`cannot compare ${basePath} with ${currentPath}: ${reasons}; ${hint}`);
  }
  const diff = compareRuns(base, current, options);
  const before = readHeadroom(locateRun(basePath).runDir);
  const after = readHeadroom(locateRun(currentPath).runDir);
  if (before !== null && after !== null) {
    diff.headroom = before.stages.map((stage, i) => {
      const other = after.stages[i];
      const side = (s: typeof stage) => ({ failures: s.failures, binding: s.binding, gain: s.tested === 0 ? null : s.gain.value });
      return { stage: stage.stage, base: side(stage), current: side(other) };
    });
  }
  return diff;
}
