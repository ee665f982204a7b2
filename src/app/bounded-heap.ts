/**
 * A long run allocates much (a request, a reply and a record per trial) and keeps little (per-case
 * tallies; metrics/record-tally.ts): left to its defaults, V8 lets the heap grow to several times
 * what is live before it collects. A heap that grows by half at most keeps a run's peak near what
 * it holds — a million trials in about 150 MB instead of 280 — for GC time too small to see in a
 * run (bench/run-memory.bench.js). Set by the commands that ask trials, for the process.
 */
import { setFlagsFromString } from "node:v8";

export function boundHeapGrowth(): void {
  setFlagsFromString("--heap-growing-percent=50");
}
