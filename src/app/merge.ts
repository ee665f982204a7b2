/**
 * `route-eval merge OUT DIR...` composition root: shard runs (`run --shard I/N`) combined into one
 * run directory whose report equals the unsharded run's. Runs with different settings or inputs
 * are refused, naming the difference; a unit missing or recorded twice is refused, naming it.
 */
import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { buildReport } from "../report/build-report.js";
import { InputError } from "../errors.js";
import { readRun } from "../run-files/read-run.js";
import { openRecordWriter } from "../run-files/records-io.js";
import { findResumeDifferences } from "../run-files/resume-check.js";
import { createRunDirectory } from "../run-files/run-directory.js";
import { writeJsonFile, writeReportFile } from "../run-files/write-files.js";
import { compareText } from "../text/compare-text.js";
import { trialKey, type Report, type RunMeta, type TrialRecord } from "../types.js";

const LISTED = 5;

export function mergeShards(out: string, targets: string[], options: { gates: boolean; replace: boolean }): { runDir: string; report: Report; records: TrialRecord[] } {
  if (targets.length === 0) throw new InputError("merge: give the shard run directories to combine");
  const runs = targets.map((target) => ({ target, ...readRun(target) }));
  const [first] = runs;
  for (const run of runs) {
    if (run.meta.shard === undefined) throw new InputError(`merge: ${run.target} is not a shard (its run.json has no shard; run it with --shard I/N)`);
  }
  const count = first.meta.shard?.count ?? 1;
  for (const run of runs.slice(1)) {
    const differences = findResumeDifferences({ ...first.meta, shard: undefined }, { ...run.meta, shard: undefined });
    if (run.meta.shard?.count !== count) differences.unshift(`shard count ${count} → ${run.meta.shard?.count}`);
    if (differences.length > 0) throw new InputError(`merge: ${run.target} is not a shard of the same run as ${first.target}: ${differences.join("; ")}`);
  }
  const seen = new Map<string, string>();
  const records: TrialRecord[] = [];
  for (const run of runs) {
    for (const record of run.records) {
      const key = trialKey(record.case_id, record.trial);
      const other = seen.get(key);
      if (other !== undefined) throw new InputError(`merge: case "${record.case_id}" trial ${record.trial} is in both ${other} and ${run.target} (the same shard given twice?)`);
      seen.set(key, run.target);
      records.push(record);
    }
  }
  const missing = expectedUnits(first.meta).filter((key) => !seen.has(key));
  if (missing.length > 0) {
    const named = missing.slice(0, LISTED).map((key) => key.replace("\u0000", " trial "));
    const shards = [...new Set(runs.map((r) => r.meta.shard?.index))].sort((a, b) => (a ?? 0) - (b ?? 0)).join(", ");
    throw new InputError(`merge: ${missing.length} (case, trial) units are in no shard given (shards ${shards} of ${count}): ${named.join(", ")}${missing.length > LISTED ? ", …" : ""}; add the missing shards, or finish them with --resume`);
  }
  const outDir = resolve(out);
  if (existsSync(outDir) && !options.replace) throw new InputError(`merge: ${out} already exists; choose another directory, or pass --force to replace it`);
  const dir = createRunDirectory(resolve(outDir, ".."), basename(outDir), { named: true, replace: options.replace });
  records.sort((a, b) => compareText(a.case_id, b.case_id) || a.trial - b.trial);
  const writer = openRecordWriter(join(dir.dir, "records.jsonl"));
  try {
    for (const record of records) writer.append(record);
  } finally {
    writer.close();
  }
  const meta: RunMeta = {
    ...first.meta,
    run_id: dir.runId,
    started_at: runs.map((r) => r.meta.started_at).sort()[0],
    finished_at: runs.some((r) => r.meta.finished_at === null) ? null : (runs.map((r) => r.meta.finished_at ?? "").sort().at(-1) ?? null),
  };
  delete meta.shard;
  writeJsonFile(join(dir.dir, "run.json"), meta);
  const report = buildReport(meta, records, { gates: options.gates });
  writeReportFile(join(dir.dir, "report.json"), report);
  return { runDir: dir.dir, report, records };
}

/** Every (case, trial) the run should hold: its cases (run.json inputs) × its trials. */
function expectedUnits(meta: RunMeta): string[] {
  const cases = Object.keys(meta.inputs?.cases ?? {});
  return cases.flatMap((caseId) => Array.from({ length: meta.config.trials }, (_, trial) => trialKey(caseId, trial)));
}
