/**
 * A long run allocates much (a request, a reply and a record per trial) and keeps little (per-case
 * tallies; metrics/record-tally.ts): left to its defaults, V8 lets the heap grow to several times
 * what is live before it collects. A heap that grows by half at most keeps a run's peak near what
 * it holds — a million trials in about 150 MB instead of 280 — for GC time too small to see in a
 * run (bench/run-memory.bench.js). Set by the commands that ask trials, for the process.
 *
 * A shadow holds every turn it reads until it asks it: its heap is let grow by a fifth (a shadow
 * of 300,000 turns peaks at 353 MB instead of 392, in no more time; a tenth saves nothing more).
 */
import { setFlagsFromString } from "node:v8";

export function boundHeapGrowth(percent = 50): void {
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}
