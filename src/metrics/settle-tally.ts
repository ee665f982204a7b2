/**
 * Settled tallies (record-tally.ts settles a case no record came to for a while): a case's
 * counts, once done, are values shared with every case that ended alike, frozen; a record that
 * comes after thaws them (its own copies) before it counts.
 */
import type { CaseFields, CaseTally } from "./case-tally.js";

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
  private readonly byKey = new Map<string, unknown>();

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

  /** The value held under `key`, or `make()`'s, held from now on (past `LIMIT` keys, made each time). */
  keyed<T>(key: string, make: () => T): T {
    let held = this.byKey.get(key) as T | undefined;
    if (held === undefined) {
      held = make();
      if (this.byKey.size < LIMIT) this.byKey.set(key, held);
    }
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

/** What a tally counts, besides its case and its first trial's fields. */
type Counts = Omit<CaseTally, "caseId" | "cluster" | "settled" | "first">;

/**
 * A settled tally as a run holds it: its case and cluster, its counts and first trial's fields
 * shared with every case alike. It reads as the case's tally (its counts through getters): a
 * report reads a million cases without a copy of each. Its counts are frozen; a record that comes
 * after counts into a copy (expandTally, then thawTally).
 */
export class SettledTally implements CaseTally {
  constructor(
    readonly caseId: string,
    readonly cluster: string,
    readonly first: CaseFields,
    readonly counts: Counts,
  ) {}
  get trials(): CaseTally["trials"] {
    return this.counts.trials;
  }
  get scored(): CaseTally["scored"] {
    return this.counts.scored;
  }
  get correct(): CaseTally["correct"] {
    return this.counts.correct;
  }
  get violated(): CaseTally["violated"] {
    return this.counts.violated;
  }
  get rates(): CaseTally["rates"] {
    return this.counts.rates;
  }
  get visible(): CaseTally["visible"] {
    return this.counts.visible;
  }
  get recallAtK(): CaseTally["recallAtK"] {
    return this.counts.recallAtK;
  }
  get stages(): CaseTally["stages"] {
    return this.counts.stages;
  }
  get selectionErrors(): CaseTally["selectionErrors"] {
    return this.counts.selectionErrors;
  }
  get cells(): CaseTally["cells"] {
    return this.counts.cells;
  }
  get quality(): CaseTally["quality"] {
    return this.counts.quality;
  }
  get outcomes(): CaseTally["outcomes"] {
    return this.counts.outcomes;
  }
  get tokens(): CaseTally["tokens"] {
    return this.counts.tokens;
  }
  get thirds(): CaseTally["thirds"] {
    return this.counts.thirds;
  }
  get search(): CaseTally["search"] {
    return this.counts.search;
  }
  get callSets(): CaseTally["callSets"] {
    return this.counts.callSets;
  }
  get hierarchy(): CaseTally["hierarchy"] {
    return this.counts.hierarchy;
  }
  get turns(): CaseTally["turns"] {
    return this.counts.turns;
  }
  get firstTrial(): CaseTally["firstTrial"] {
    return this.counts.firstTrial;
  }
  get mixed(): CaseTally["mixed"] {
    return this.counts.mixed;
  }
  get settled(): true {
    return true;
  }
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
 * comes after thaws them first). What a run holds per case, once the case is done. Counts written
 * out alike are one lookup (the counts held for the first case that ended so).
 */
export function settleTally(tally: CaseTally, shared: SharedValues): SettledTally {
  const { caseId, cluster, first } = tally;
  // Written out (a rest pattern costs as much as the rest of settling).
  const counts: Counts = {
    trials: tally.trials,
    scored: tally.scored,
    correct: tally.correct,
    violated: tally.violated,
    rates: tally.rates,
    visible: tally.visible,
    recallAtK: tally.recallAtK,
    stages: tally.stages,
    selectionErrors: tally.selectionErrors,
    cells: tally.cells,
    quality: tally.quality,
    outcomes: tally.outcomes,
    tokens: tally.tokens,
    thirds: tally.thirds,
    search: tally.search,
    callSets: tally.callSets,
    hierarchy: tally.hierarchy,
    turns: tally.turns,
    firstTrial: tally.firstTrial,
    mixed: tally.mixed,
  };
  // Sums a record adds to in place (tool search, call sets, hierarchy, a turn's records and
  // qualities) stay the case's own: counts holding one are not shared.
  const own =
    counts.search !== null ||
    counts.callSets !== null ||
    counts.hierarchy !== null ||
    counts.turns !== null ||
    counts.quality.kept !== null;
  return new SettledTally(
    caseId,
    cluster,
    shareFirst(first, shared),
    own
      ? shareParts(counts, shared)
      : shared.keyed(JSON.stringify(counts), () => shareParts(counts, shared)),
  );
}

/** Each part of a tally's counts shared (its own object of them, to be held for all alike). */
function shareParts(counts: Counts, shared: SharedValues): Counts {
  const small = shared.shareEach(SMALL_COUNTS.map((key) => counts[key]));
  SMALL_COUNTS.forEach((key, i) => Reflect.set(counts, key, small[i]));
  counts.cells = shared.share(counts.cells);
  counts.tokens = shared.share(counts.tokens);
  // A conversation's turn keeps each trial's quality (kept): its own.
  if (counts.quality.kept === null) counts.quality = shared.share(counts.quality);
  return counts;
}

/** The first trial's fields, its lists shared: the one such object for all alike. */
function shareFirst(first: CaseFields, shared: SharedValues): CaseFields {
  const own = { ...first };
  for (const key of FIRST_LISTS) own[key] = shared.shareList(own[key]);
  return shared.shareMembers(own);
}

/**
 * A settled tally as a tally again (its counts still shared: a record thaws them). Written out, in
 * newTally's order: a spread made each a slower object of another shape, and a report expands
 * every case.
 */
export function expandTally({ caseId, cluster, first, counts: c }: SettledTally): CaseTally {
  return {
    caseId,
    cluster,
    trials: c.trials,
    scored: c.scored,
    correct: c.correct,
    violated: c.violated,
    rates: c.rates,
    visible: c.visible,
    recallAtK: c.recallAtK,
    stages: c.stages,
    selectionErrors: c.selectionErrors,
    cells: c.cells,
    quality: c.quality,
    outcomes: c.outcomes,
    tokens: c.tokens,
    thirds: c.thirds,
    search: c.search,
    callSets: c.callSets,
    hierarchy: c.hierarchy,
    turns: c.turns,
    first,
    firstTrial: c.firstTrial,
    mixed: c.mixed,
    settled: true,
  };
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
