/**
 * Set-up done while the event loop has nothing else to do: a live run's first requests wait 100
 * ms or more for their answers, and work the answers will need (loading Ajv for their argument
 * checks: about 60 ms) costs them nothing if it is done in that wait instead of when the first
 * answer arrives, with the others queued behind it.
 */
import { performance, type EventLoopUtilization } from "node:perf_hooks";

/** How often the loop's idleness is looked at (ms), and how idle it must have been since the last look. */
const LOOK_MS = 5;
const IDLE_SHARE = 0.9;

const waiting: (() => void)[] = [];
let looking: NodeJS.Timeout | null = null;
let since: EventLoopUtilization = performance.eventLoopUtilization();

/**
 * Runs `task` at the first look that finds the event loop idle (idle for IDLE_SHARE of the time
 * since the look before), one task a look, in the order given. For work a later step does anyway
 * when it first needs it (a task must be safe to skip and to run twice): the looks never keep the
 * process alive, a task still waiting at exit is not run, and one that throws is forgotten (the
 * step that needs it meets the error itself).
 */
export function whenIdle(task: () => void): void {
  waiting.push(task);
  if (looking !== null) return;
  since = performance.eventLoopUtilization();
  looking = setInterval(look, LOOK_MS).unref();
}

function look(): void {
  const now = performance.eventLoopUtilization();
  const busy = performance.eventLoopUtilization(now, since).utilization;
  since = now;
  if (busy > 1 - IDLE_SHARE) return;
  try {
    waiting.shift()?.();
  } catch {
    // Forgotten: the step that needs it meets the error itself.
  }
  // The task's own time is not the loop's: the next look measures from here.
  since = performance.eventLoopUtilization();
  if (waiting.length > 0) return;
  clearInterval(looking ?? undefined);
  looking = null;
}
