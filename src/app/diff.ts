/**
 * `route-eval diff` composition root: read both runs (run directories with their trial records,
 * or bare report.json files), refuse incomparable runs unless forced, compare.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { checkComparability, splitCaseIds } from "../diff/comparability.js";
import { compareRuns, type CompareOptions, type DiffInput } from "../diff/compare-runs.js";
import type { Diff, DiffReport } from "../diff/diff-types.js";
import { InputError } from "../errors.js";
import { readMeta } from "../run-files/read-run.js";
import { metaFromRecords } from "../report/build-report.js";
import { buildCaseRows } from "../metrics/case-rows.js";
import { computeMetrics } from "../metrics/compute-metrics.js";
import { readReportFile } from "../run-files/read-report.js";
import { readRecords } from "../run-files/records-io.js";
import type { RunMeta, TrialRecord } from "../types.js";
import { TOOL_VERSION } from "../version.js";

const EXPECTED = "expected a run directory (reports/<run-id>), its records.jsonl, or a report.json";

/**
 * One side of the diff. A run directory (or its records.jsonl) is rebuilt from its trial records,
 * with run.json or report.json supplying the metadata; a .json file is read as a report alone.
 */
export function loadDiffInput(target: string): DiffInput {
  if (!existsSync(target)) throw new InputError(`${target}: no such file or directory (${EXPECTED})`);
  const isDir = statSync(target).isDirectory();
  if (!isDir && !target.endsWith(".jsonl")) return { label: target, report: readReportFile(target), records: null };
  const runDir = isDir ? target : dirname(target);
  const recordsFile = isDir ? join(target, "records.jsonl") : target;
  const reportFile = join(runDir, "report.json");
  if (!existsSync(recordsFile)) {
    if (existsSync(reportFile)) return { label: target, report: readReportFile(reportFile), records: null };
    throw new InputError(`${target}: holds neither records.jsonl nor report.json (${EXPECTED})`);
  }
  const records = readRecords(recordsFile);
  if (records.length === 0) throw new InputError(`${recordsFile}: no trial records (the run recorded nothing yet)`);
  return { label: target, report: summariseRun(findMeta(runDir, reportFile, records), records), records };
}

/** The parts of a report a diff reads, from records (the per-slice breakdowns are skipped). */
function summariseRun(run: RunMeta, records: TrialRecord[]): DiffReport {
  return { run, metrics: computeMetrics(records), cases: buildCaseRows(records) };
}

/** run.json (small), else report.json's run, else what the records themselves say. */
function findMeta(runDir: string, reportFile: string, records: TrialRecord[]): RunMeta {
  const metaFile = join(runDir, "run.json");
  if (existsSync(metaFile)) return readMeta(metaFile);
  return existsSync(reportFile) ? readReportFile(reportFile).run : metaFromRecords(basename(runDir), records, TOOL_VERSION);
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
  return compareRuns(base, current, options);
}
