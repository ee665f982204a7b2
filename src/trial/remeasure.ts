/**
 * `diff --remeasure-base N`: the base run's cases asked N more trials each — the same endpoint,
 * cases and settings, trial indices after the run's own (so new seeds, never a repeat of a
 * recorded request) — through the response store, into BASE/remeasure/records.jsonl. A rerun asks
 * only what is missing. The per-case noise test then reads the base side with these trials too.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadCases } from "../cases/load-cases.js";
import { withTokenEstimate } from "../endpoint/estimate-tokens.js";
import { EndpointFailure, InputError, Interrupted } from "../errors.js";
import { buildCaseRows } from "../metrics/case-rows.js";
import { readRun } from "../run-files/read-run.js";
import { openRecordWriter, readRecords } from "../run-files/records-io.js";
import { findResumeDifferences } from "../run-files/resume-check.js";
import type { Config, RunProgress, TrialRecord } from "../types.js";
import { createEndpoint } from "./create-endpoint.js";
import { buildRunMeta } from "./run-meta.js";
import { runTrialJobs, type TrialJob } from "./run-loop.js";
import { listPending } from "./run-trial.js";

export const REMEASURE_DIR = "remeasure";

export interface RemeasureOptions {
  env: NodeJS.ProcessEnv;
  onProgress?: (progress: RunProgress) => void;
  onWarning?: (message: string) => void;
  signal?: AbortSignal;
}

/** Per case, the correct and scored trials of the N remeasured ones. */
export type RemeasureTallies = Map<string, { correct: number; scored: number }>;

export async function remeasureBase(runDir: string, config: Config, perCase: number, options: RemeasureOptions): Promise<RemeasureTallies> {
  const { meta, records } = readRun(runDir);
  const cases = loadCases(config);
  const endpoint = withTokenEstimate(createEndpoint(config, { env: options.env, warn: options.onWarning }));
  try {
    const differences = findResumeDifferences(meta, buildRunMeta(meta.run_id, config, cases, endpoint, new Date()));
    if (differences.length > 0) {
      throw new InputError(`${runDir}: the inputs changed since this run, so remeasuring it would ask another question: ${differences.join("; ")}; --remeasure-base needs the base run's own inputs`);
    }
    const own = meta.config.trials;
    const dir = join(runDir, REMEASURE_DIR);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "records.jsonl");
    const inRange = (r: TrialRecord) => r.trial >= own && r.trial < own + perCase;
    const earlier = existsSync(file) ? readRecords(file).filter(inRange) : [];
    const writer = openRecordWriter(file);
    const asked: TrialRecord[] = [];
    const keep = (record: TrialRecord) => {
      writer.append(record);
      asked.push(record);
    };
    const widened: Config = { ...config, trials: own + perCase };
    const jobs: TrialJob[] = listPending(widened, endpoint, cases, [...records, ...earlier], { env: options.env }).map((run) => ({ run, keep }));
    let stopped;
    try {
      stopped = await runTrialJobs(jobs, { concurrency: config.concurrency, resumed: earlier.length, total: earlier.length + jobs.length, onProgress: options.onProgress, signal: options.signal });
    } finally {
      writer.close();
    }
    if (stopped !== null) {
      const kept = `${earlier.length + asked.length} remeasured trials kept in ${file}; run the diff again to finish (the store answers what was asked)`;
      if (stopped.kind === "interrupted") throw new Interrupted(stopped.signal, `interrupted by ${stopped.signal}: ${kept}`);
      throw new EndpointFailure(`${stopped.message} (${kept})`);
    }
    const rows = buildCaseRows([...earlier, ...asked], config.success);
    return new Map(rows.map((row) => [row.case_id, { correct: row.correct, scored: row.trials - row.errored }]));
  } finally {
    await endpoint.close?.();
  }
}
