/**
 * What a command takes from the world, built once in cli.ts (tests build their own): the
 * environment (API keys), the working directory (relative paths, shown paths) and the clock.
 * No other module reads process.env, process.cwd() or the wall clock for a run's facts.
 */
export interface RunContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  now: () => Date;
}

/** Where a command writes, and its run context; tests pass their own to capture output. */
export interface Io extends RunContext {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout takes ANSI colour (a TTY, and NO_COLOR unset). */
  color: boolean;
  /** Whether stderr is a terminal (a live progress line) — absent means no. */
  stderrTTY?: boolean;
  /** The width of stdout when it is a terminal; absent otherwise (then COLUMNS, else stderrColumns, else 80). */
  columns?: number;
  /** The width of stderr when it is a terminal: the screen a pager (`route-eval report | less`) shows stdout on. */
  stderrColumns?: number;
  /**
   * Starts listening for SIGINT/SIGTERM and returns the signal they abort (reason: the signal's
   * name), for a command that can stop cleanly (run, sweep). Absent in tests that do not send one.
   */
  interrupts?: () => AbortSignal;
}
