/**
 * The trial loop and the event loop (trial/run-loop.ts): turns for trials that answer without
 * I/O, the interrupt a loop waits on, and how long trials in flight may take to finish after it.
 */

/** How long trials in flight may take to finish after an interrupt. */
export const GRACE_MS = 3_000;

/** Trials finished between two turns of the event loop, at most (plus one per place of the limiter). */
const TRIALS_PER_TURN = 64;

/**
 * Lets the event loop turn every TRIALS_PER_TURN trials. Trials that answer without waiting on
 * I/O (the baseline, store hits in replay) resolve in microtasks only, so without a turn the
 * loop would run to its end before a signal (Ctrl-C) or a timer is seen. Once a turn is due every
 * job finishing holds its place until the turn, in the order it finished its trial: the same jobs,
 * in the same order, whatever the timing.
 */
export function createTurns(): { due(): Promise<void> | undefined } {
  let finished = 0;
  let turn: Promise<void> | null = null;
  return {
    due: () => {
      if (turn === null && ++finished < TRIALS_PER_TURN) return undefined;
      turn ??= new Promise((resolve) =>
        setImmediate(() => {
          finished = 0;
          turn = null;
          resolve();
        }),
      );
      return turn;
    },
  };
}

/**
 * `done` resolves when the signal is aborted (never, without one); `release` removes its listener
 * (a run of many loops — adaptive trials' rounds — would otherwise pile listeners on the signal).
 */
export function interrupted(signal: AbortSignal | undefined): {
  done: Promise<void>;
  release: () => void;
} {
  let listener: (() => void) | null = null;
  const done = new Promise<void>((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", (listener = () => resolve()), { once: true });
  });
  return {
    done,
    release: () => (listener === null ? undefined : signal?.removeEventListener("abort", listener)),
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
