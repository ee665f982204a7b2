import { ArgumentError } from "../errors.js";
/**
 * Shards: a deterministic partition of a run's (case, trial) units by a stable hash of the case id
 * and the trial index, so adding a case moves only that case's units and every machine agrees.
 */
import { hashSeed } from "../text/seeded-random.js";

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** Whether (case, trial) belongs to the shard. */
export function inShard(shard: Shard, caseId: string, trial: number): boolean {
  return hashSeed("shard", caseId, trial) % shard.count === shard.index - 1;
}

/** "2/3" → {index: 2, count: 3}; a bad value is a usage error. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match === null ? NaN : Number(match[1]);
  const count = match === null ? NaN : Number(match[2]);
  if (
    !Number.isInteger(index) ||
    !Number.isInteger(count) ||
    count < 1 ||
    index < 1 ||
    index > count
  ) {
    throw new ArgumentError("expected I/N with 1 ≤ I ≤ N, e.g. 2/3.");
  }
  return { index, count };
}
