/**
 * Rate limiting is not failure: while an endpoint answers 429, the number of calls in flight is
 * halved (down to one), and each success lets one more back in, up to the run's concurrency
 * (additive increase, multiplicative decrease). Every HTTP attempt holds a place while it runs.
 */
export interface Pace {
  /** Waits for a place; call the returned function when the attempt is over. */
  acquire(): Promise<() => void>;
  rateLimited(): void;
  succeeded(): void;
  /** Places now (for tests and progress). */
  capacity(): number;
}

export function createPace(max: number): Pace {
  let capacity = Math.max(1, max);
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const admit = () => {
    while (inFlight < capacity && waiting.length > 0) {
      inFlight += 1;
      waiting.shift()?.();
    }
  };
  const release = () => {
    inFlight -= 1;
    admit();
  };
  return {
    acquire: () =>
      new Promise((resolve) => {
        waiting.push(() => resolve(release));
        admit();
      }),
    rateLimited: () => void (capacity = Math.max(1, Math.floor(capacity / 2))),
    succeeded: () => {
      capacity = Math.min(max, capacity + 1);
      admit();
    },
    capacity: () => capacity,
  };
}
