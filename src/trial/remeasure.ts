/**
 * `diff --remeasure-base N`: the base run's cases asked N more trials each — the same endpoint,
 * cases and settings, trial indices after the run's own (so new seeds, never a repeat of a
 * recorded request) — through the response store, into BASE/remeasure/records.jsonl. A rerun asks
 * only what is missing. The per-case noise test then reads the base side with these trials too.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { openRunAgain } from "./ask-again.js";
import { buildCaseRows } from "../metrics/case-rows.js";
import { readRecords } from "../run-files/records-io.js";
import type { Config, RunProgress, TrialRecord } from "../types.js";
import { runIntoFile } from "./side-run.js";
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

export async function remeasureBase(
  runDir: string,
  config: Config,
  perCase: number,
  options: RemeasureOptions,
): Promise<RemeasureTallies> {
  const { meta, records, cases, endpoint } = openRunAgain(
    runDir,
    config,
    options,
    "remeasuring it would ask another question",
    "--remeasure-base needs the base run's own inputs",
  );
  try {
    const own = meta.config.trials;
    const dir = join(runDir, REMEASURE_DIR);
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "records.jsonl");
    const inRange = (r: TrialRecord) => r.trial >= own && r.trial < own + perCase;
    const earlier = existsSync(file) ? readRecords(file).filter(inRange) : [];
    const widened: Config = { ...config, trials: own + perCase };
    const side = {
      file,
      resumed: earlier.length,
      concurrency: config.concurrency,
      what: "remeasured trials",
      again: "run the diff again",
      onProgress: options.onProgress,
      signal: options.signal,
      pace: endpoint.pace,
    };
    const asked = await runIntoFile(side, (keep) =>
      listPending(widened, endpoint, cases, [...records, ...earlier], { env: options.env, keep }),
    );
    const rows = buildCaseRows([...earlier, ...asked], config.success);
    return new Map(
      rows.map((row) => [row.case_id, { correct: row.correct, scored: row.trials - row.errored }]),
    );
  } finally {
    await endpoint.close?.();
  }
}
