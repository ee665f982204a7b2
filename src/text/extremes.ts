/**
 * The largest and smallest of many numbers. `Math.max(...values)` passes each value as an
 * argument, and a spread of some 100,000 of them (a 200,000-case run's tallies) overflows the
 * stack; these loop.
 */

/** The largest value, or `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty: number): number {
  let most = -Infinity;
  let found = false;
  for (const value of values) {
    found = true;
    if (value > most) most = value;
  }
  return found ? most : empty;
}

/** The smallest value, or `empty` when there is none. */
export function minOf(values: Iterable<number>, empty: number): number {
  let least = Infinity;
  let found = false;
  for (const value of values) {
    found = true;
    if (value < least) least = value;
  }
  return found ? least : empty;
}
