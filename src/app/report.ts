/** `route-eval report` composition root: read the run → rebuild the report → write report.json. */
import { join } from "node:path";
import { buildReport } from "../report/build-report.js";
import { readRun } from "../run-files/read-run.js";
import { writeReportFile } from "../run-files/write-files.js";
import type { Report, TrialRecord } from "../types.js";

/**
 * `route-eval report`: rebuild report.json from records.jsonl alone (run.json, when present, only
 * supplies metadata). No endpoint is called and no registry is read.
 */
export function recomputeReport(target: string, options: { gates: boolean }): { runDir: string; report: Report; records: TrialRecord[] } {
  const { runDir, meta, records } = readRun(target);
  const report = buildReport(meta, records, options);
  writeReportFile(join(runDir, "report.json"), report);
  return { runDir, report, records };
}
