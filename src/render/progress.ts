/**
 * Progress on stderr while a run works (results stay on stdout). On a terminal: one live line,
 * redrawn in place at most every 100 ms. Elsewhere (CI logs): once the run has taken 2 s, a line
 * at each 10% and at least every 10 s; and always a last line when the run ends.
 */
import type { RunProgress } from "../types.js";

/** Where progress lines go (stderr). */
interface ProgressSink {
  stderr: (text: string) => void;
}

export interface ProgressOptions {
  /** Redraw one line in place (stderr is a terminal). */
  tty: boolean;
  /** Milliseconds clock, replaceable in tests. */
  now?: () => number;
  /** The terminal's columns: a live line longer than this would wrap and stop redrawing in place. */
  width?: number;
}

const TTY_REDRAW_MS = 100;
const LOG_INTERVAL_MS = 10_000;
const LOG_STEPS = 10;
/** A run shorter than this logs only its last line. */
const LOG_QUIET_MS = 2_000;

export function createProgressPrinter(
  io: ProgressSink,
  options: ProgressOptions,
): (progress: RunProgress) => void {
  const now = options.now ?? (() => performance.now());
  let last = -Infinity;
  let lastStep = -1;
  return (p) => {
    if (p.total === 0) return;
    const t = now();
    if (options.tty) {
      if (!p.finished && t - last < TTY_REDRAW_MS) return;
      last = t;
      const line = formatProgress(p);
      const fitted =
        options.width !== undefined && line.length > options.width - 1
          ? `${line.slice(0, options.width - 2)}…`
          : line;
      io.stderr(`\r\u001b[K${fitted}${p.finished ? "\n" : ""}`);
      return;
    }
    if (!p.finished && p.elapsed_ms < LOG_QUIET_MS) return;
    // The last line (100%, with the time taken) is the finished one.
    const step = Math.min(LOG_STEPS - 1, Math.floor((p.done / p.total) * LOG_STEPS));
    if (!p.finished && step === lastStep && t - last < LOG_INTERVAL_MS) return;
    last = t;
    lastStep = step;
    io.stderr(`${formatProgress(p)}\n`);
  };
}

/** `route-eval: 120/400 trials (30%) · 2 errored · 5 retries · rate-limited: 4 of 32 at once · 40 from store · ETA 1m 20s` */
export function formatProgress(p: RunProgress): string {
  const percent = Math.floor((p.done / p.total) * 100);
  const parts = [`route-eval: ${p.done}/${p.total} trials (${percent}%)`];
  if (p.resumed > 0) parts.push(`${p.resumed} resumed`);
  parts.push(`${p.errored} errored`, `${p.retries} retries`);
  if (p.paced !== undefined) parts.push(`rate-limited: ${p.paced.now} of ${p.paced.max} at once`);
  if (p.from_store > 0) parts.push(`${p.from_store} from store`);
  parts.push(p.finished ? `took ${formatDuration(p.elapsed_ms)}` : `ETA ${estimate(p)}`);
  return parts.join(" · ");
}

function estimate(p: RunProgress): string {
  const finished = p.done - p.resumed;
  if (finished <= 0 || p.elapsed_ms <= 0) return "…";
  return formatDuration(((p.total - p.done) * p.elapsed_ms) / finished);
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)}s` : `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
