/**
 * A finished run asked more questions of its own (counterfactuals, `diff --remeasure-base`): its
 * records, its cases and an endpoint, once the inputs are checked to be the run's own — a changed
 * case or tool would ask another question.
 */
import { loadCases } from "../cases/load-cases.js";
import { withTokenEstimate } from "../endpoint/estimate-tokens.js";
import { InputError } from "../errors.js";
import { readRun } from "../run-files/read-run.js";
import { findResumeDifferences } from "../run-files/resume-check.js";
import type { Case, Config, Endpoint, RunMeta, TrialRecord } from "../types.js";
import { createEndpoint } from "./create-endpoint.js";
import { buildRunMeta } from "./run-meta.js";

export interface RunAskedAgain {
  runDir: string;
  meta: RunMeta;
  records: TrialRecord[];
  cases: Case[];
  /** Close it (`endpoint.close`) when done, whatever happened. */
  endpoint: Endpoint;
}

/** `why` and `fix` frame the differences: "the inputs changed since this run, so WHY: …; FIX". */
export function openRunAgain(
  target: string,
  config: Config,
  options: { env: NodeJS.ProcessEnv; onWarning?: (message: string) => void },
  why: string,
  fix: string,
): RunAskedAgain {
  const { runDir, meta, records } = readRun(target);
  const cases = loadCases(config);
  const endpoint = withTokenEstimate(
    createEndpoint(config, { env: options.env, warn: options.onWarning }),
  );
  const differences = findResumeDifferences(
    meta,
    buildRunMeta(meta.run_id, config, cases, endpoint, new Date()),
  );
  if (differences.length > 0) {
    void endpoint.close?.();
    throw new InputError(
      `${target}: the inputs changed since this run, so ${why}: ${differences.join("; ")}; ${fix}`,
    );
  }
  return { runDir, meta, records, cases, endpoint };
}
