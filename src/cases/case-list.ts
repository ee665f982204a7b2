/**
 * The cases a run asks: an array, or a list that makes each case as it is read from a packed
 * form (a shadow's million traced turns, src/traces/turn-cases.ts). Either is read as often as
 * the checks before the first call need, each case made again each time; a run asked once drains
 * it, letting each case go as it takes it.
 */
import type { Case, Registry } from "../types.js";

export interface CaseList extends Iterable<Case> {
  readonly length: number;
  /** Each case once, what it was made from let go as it is taken. The list is empty after. */
  drain?(): Iterable<Case>;
}

/** Each case once, let go as it is taken: an array's place emptied, a packed list's form dropped. */
export function* drainCases(cases: CaseList): Generator<Case> {
  if (cases.drain !== undefined) {
    yield* cases.drain();
    return;
  }
  const list = cases as (Case | null)[];
  for (let i = 0; i < list.length; i++) {
    const testCase = list[i] as Case;
    list[i] = null;
    yield testCase;
  }
  list.length = 0;
}

/** The first case that passes `test`. */
export function findCase(cases: Iterable<Case>, test: (c: Case) => boolean): Case | undefined {
  for (const testCase of cases) if (test(testCase)) return testCase;
  return undefined;
}

/** The cases that pass `test`, counted. */
export function countCases(cases: Iterable<Case>, test: (c: Case) => boolean): number {
  let n = 0;
  for (const testCase of cases) if (test(testCase)) n += 1;
  return n;
}

/** The registries the cases name, each once, in the order first named. */
export function registriesOf(cases: Iterable<Case>): Registry[] {
  const registries = new Set<Registry>();
  for (const testCase of cases) registries.add(testCase.registry);
  return [...registries];
}
