/**
 * Settled tallies (record-tally.ts settles a case no record came to for a while): a case's
 * counts, once done, are values shared with every case that ended alike, frozen; a record that
 * comes after thaws them (its own copies) before it counts.
 */
import type { CaseFields, CaseTally } from "./case-tally.js";
import type { SharedValues } from "./shared-values.js";

/** What a tally counts, besides its case and its first trial's fields. */
export type Counts = Omit<CaseTally, "caseId" | "cluster" | "settled" | "first">;

/** The counts a settled tally reads through its getters. */
const COUNT_KEYS = [
  "trials",
  "scored",
  "correct",
  "violated",
  "rates",
  "visible",
  "recallAtK",
  "stages",
  "selectionErrors",
  "cells",
  "quality",
  "outcomes",
  "tokens",
  "thirds",
  "search",
  "callSets",
  "hierarchy",
  "turns",
  "firstTrial",
  "mixed",
] as const satisfies readonly (keyof Counts)[];
/** Every count has its getter: a count added to CaseTally and not here fails to compile. */
const EVERY_COUNT: Record<Exclude<keyof Counts, (typeof COUNT_KEYS)[number]>, never> = {};
void EVERY_COUNT;

/** A settled tally's parts: its case and cluster, its first trial's fields and its counts (shared with every case alike). */
export interface SettledParts {
  readonly caseId: string;
  readonly cluster: string;
  readonly first: CaseFields;
  readonly counts: Counts;
}

/** Where settled tallies are held, by place (settled-store.ts). */
export interface SettledSource {
  idAt(at: number): string;
  clusterAt(at: number): string;
  /** The first trial's fields and the counts, one object for every tally that has both alike. */
  partsAt(at: number): Pick<SettledParts, "first" | "counts">;
}

/**
 * A settled tally as a report reads it: a view of its parts where they are held (its counts
 * through getters), made as it is read — a report reads a million cases without an object of each
 * held between reports. Its counts are frozen; a record that comes after counts into a copy
 * (expandTally, then thawTally).
 */
export class SettledTally {
  constructor(
    private readonly source: SettledSource,
    private readonly at: number,
  ) {}

  get caseId(): string {
    return this.source.idAt(this.at);
  }

  get cluster(): string {
    return this.source.clusterAt(this.at);
  }

  get first(): CaseFields {
    return this.source.partsAt(this.at).first;
  }

  get counts(): Counts {
    return this.source.partsAt(this.at).counts;
  }
}
// The class and this interface are one type: its counts are read through the getters below.
export interface SettledTally extends Readonly<Counts> {
  readonly settled: true;
}
for (const key of COUNT_KEYS)
  Object.defineProperty(SettledTally.prototype, key, {
    get(this: SettledTally) {
      return this.counts[key];
    },
  });
Object.defineProperty(SettledTally.prototype, "settled", { value: true });

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
export function settleTally(tally: CaseTally, shared: SharedValues): SettledParts {
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
  const own = holdsOwn(counts);
  return {
    caseId,
    cluster,
    first: shareFirst(first, shared),
    counts: own
      ? shareParts(counts, shared)
      : shared.keyed(JSON.stringify(counts), () => shareParts(counts, shared)),
  };
}

/**
 * Whether counts hold sums a record adds to in place (tool search, call sets, hierarchy, a turn's
 * records and qualities): those are the case's own, never shared.
 */
export function holdsOwn(counts: Counts): boolean {
  return (
    counts.search !== null ||
    counts.callSets !== null ||
    counts.hierarchy !== null ||
    counts.turns !== null ||
    counts.quality.kept !== null
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
export function expandTally({ caseId, cluster, first, counts: c }: SettledParts): CaseTally {
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
