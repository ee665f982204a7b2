/**
 * The (case, trial) units a run directory plans, from its run.json: the cases it was started with
 * (inputs) × its trials, and for a shard only its own. A record outside them — trial 99 of a
 * 3-trial run, a case the run never had, another shard's unit — is refused, never counted.
 */
import { inShard, type Shard } from "./shard.js";
import { trialKey, type RunMeta, type TrialRecord } from "../types.js";

/** Every (case, trial) key the run should hold; null when run.json does not name its cases (records from another tool). */
export function plannedUnits(meta: RunMeta): string[] | null {
  if (meta.inputs === undefined) return null;
  return Object.keys(meta.inputs.cases).flatMap((caseId) =>
    Array.from({ length: meta.config.trials }, (_, trial) => trialKey(caseId, trial)),
  );
}

/** What is wrong with the first record outside the plan (of the shard, when one is given), or null. */
export function findUnplanned(meta: RunMeta, records: TrialRecord[], shard?: Shard): string | null {
  const check = checkPlanned(meta, shard);
  for (const record of records) {
    const problem = check(record);
    if (problem !== null) return problem;
  }
  return null;
}

/** What is wrong with a record outside the plan (of the shard, when one is given), or null: one record at a time. */
export function checkPlanned(meta: RunMeta, shard?: Shard): (record: TrialRecord) => string | null {
  if (meta.inputs === undefined) return () => null;
  const cases = new Set(Object.keys(meta.inputs.cases));
  const trials = meta.config.trials;
  return (record) => {
    const where = `case "${record.case_id}" trial ${record.trial}`;
    if (!cases.has(record.case_id))
      return `${where}: the run has no case "${record.case_id}" (run.json names ${cases.size}); remove the record`;
    // plannedUnits: every case's trials 0 … trials − 1.
    if (!(Number.isInteger(record.trial) && record.trial >= 0 && record.trial < trials))
      return `${where}: the run plans trials 0–${trials - 1} of each case; remove the record`;
    // Adaptive trials keep every trial of a case in one shard (its trial 0's).
    const unit = meta.adaptive === undefined ? record.trial : 0;
    if (shard !== undefined && !inShard(shard, record.turn?.conversation ?? record.case_id, unit))
      return `${where}: not a unit of shard ${shard.index}/${shard.count}; remove the record`;
    return null;
  };
}
