/**
 * Settled tallies (record-tally.ts settles a case no record came to for a while): a case's
 * counts, once done, are values shared with every case that ended alike, frozen; a record that
 * comes after thaws them (its own copies) before it counts.
 */
import type { CaseTally } from "./case-tally.js";

/**
 * Values many settled tallies hold alike, each held once: the cases of a run mostly end alike
 * (every trial correct: the same rates, outcomes, stages…), so a settled tally costs its case's
 * name, not a copy of every count. Frozen: a tally thaws its own copies to count.
 */
export class SharedValues {
  private readonly byJson = new Map<string, unknown>();
  /** A record's list shared before (a phase's exposed names, met by every trial of it) → the one held. */
  private readonly known = new WeakMap<object, unknown>();
  /** Each held value's number, for the key of objects made of them. */
  private readonly numbers = new Map<unknown, number>();
  private readonly byMembers = new Map<string, unknown>();
  private readonly lists = new Map<string, unknown[]>();

  /**
   * The held value equal to this one (plain data), or a frozen copy of it held from now on; past
   * `LIMIT` values (cases that all differ), the value itself.
   */
  share<T>(value: T): T {
    if (typeof value !== "object" || value === null) return value;
    const key = JSON.stringify(value);
    let held = this.byJson.get(key);
    if (held === undefined) {
      if (this.byJson.size >= LIMIT) return value;
      this.byJson.set(key, (held = deepFreeze(JSON.parse(key))));
      this.numbers.set(held, this.numbers.size);
    }
    return held as T;
  }

  /** Each value shared, the list of them keyed once: the same values met again are one lookup. */
  shareEach<T extends unknown[]>(values: T): T {
    const key = JSON.stringify(values);
    let held = this.lists.get(key) as T | undefined;
    if (held === undefined) {
      held = values.map((value) => this.share(value)) as T;
      if (this.lists.size < LIMIT) this.lists.set(key, held);
    }
    return held;
  }

  /** A record's list (never changed once made), shared: the same list met again is not written out again. */
  shareList(list: readonly string[]): string[] {
    if (typeof list !== "object" || list === null) return list;
    let held = this.known.get(list) as string[] | undefined;
    if (held === undefined) this.known.set(list, (held = this.share(list as string[])));
    return held;
  }

  /**
   * An object every member of which is a scalar or a held value: the one such object for all
   * alike (else this one), keyed by its members' numbers, not written out.
   */
  shareMembers<T extends object>(value: T): T {
    let key = "";
    for (const member of Object.values(value)) {
      if (typeof member === "string") key += JSON.stringify(member);
      else if (typeof member !== "object" || member === null) key += `,${member}`;
      else {
        const number = this.numbers.get(member);
        if (number === undefined) return value;
        key += `#${number}`;
      }
    }
    const held = this.byMembers.get(key);
    if (held !== undefined) return held as T;
    if (this.byMembers.size < LIMIT) {
      this.byMembers.set(key, value);
      this.numbers.set(value, this.numbers.size);
    }
    return value;
  }
}

const LIMIT = 100_000;

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}

/** What a tally counts, besides its case. */
type Counts = Omit<CaseTally, "caseId" | "cluster" | "settled">;

/** A settled tally as a run holds it: its case and cluster, its counts shared with every case alike. */
export interface SettledTally {
  readonly caseId: string;
  readonly cluster: string;
  readonly counts: Counts;
}

/** Counts most cases that ended alike share: keyed together, met held they are one lookup. */
const SMALL_COUNTS = [
  "correct",
  "rates",
  "recallAtK",
  "stages",
  "selectionErrors",
  "outcomes",
  "thirds",
  "mixed",
] as const;

/** The first trial's lists: a record's, never changed, most met again (a phase's exposed names). */
const FIRST_LISTS = [
  "tags",
  "acceptable",
  "forbidden",
  "exposed_names",
  "must_see",
  "must_not_see",
] as const;

/**
 * A tally that no record has come to for a while: its counts become shared values (a record that
 * comes after thaws them first). What a run holds per case, once the case is done.
 */
export function settleTally(tally: CaseTally, shared: SharedValues): SettledTally {
  const small = shared.shareEach(SMALL_COUNTS.map((key) => tally[key]));
  Object.assign(tally, Object.fromEntries(SMALL_COUNTS.map((key, i) => [key, small[i]])));
  tally.cells = shared.share(tally.cells);
  tally.tokens = shared.share(tally.tokens);
  // A conversation's turn keeps each trial's quality (kept): its own.
  if (tally.quality.kept === null) tally.quality = shared.share(tally.quality);
  const first = { ...tally.first };
  for (const key of FIRST_LISTS) first[key] = shared.shareList(first[key]);
  tally.first = shared.shareMembers(first);
  const { caseId, cluster, settled: _settled, ...counts } = tally;
  return { caseId, cluster, counts: shared.shareMembers(counts) };
}

/** A settled tally as a tally again (its counts still shared: a record thaws them). */
export function expandTally({ caseId, cluster, counts }: SettledTally): CaseTally {
  return { caseId, cluster, ...counts, settled: true };
}

/** Its own copies of a settled tally's counts, to count a record into. */
export function thawTally(tally: CaseTally): void {
  tally.settled = false;
  tally.correct = { ...tally.correct };
  tally.rates = [...tally.rates];
  tally.recallAtK = tally.recallAtK.map((at) => ({ ...at }));
  tally.stages = { ...tally.stages };
  tally.selectionErrors = { ...tally.selectionErrors };
  tally.cells = tally.cells.map((cell) => ({ ...cell }));
  const quality = tally.quality;
  if (quality.kept === null) tally.quality = { ...quality, waiting: [...quality.waiting] };
  tally.outcomes = [...tally.outcomes];
  tally.tokens = { ...tally.tokens };
  tally.thirds = [...tally.thirds];
  tally.mixed = { ...tally.mixed };
}
