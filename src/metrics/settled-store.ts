/**
 * A run's settled tallies (record-tally.ts), held packed: each case's id as UTF-8 bytes, its
 * cluster only where it is not its id (a conversation's turn), and the number of its parts — its
 * first trial's fields and its counts, one pair for every case that ended alike — with a table of
 * the ids' hashes to find a case again (a record that comes after it settled). A million settled
 * cases hold about 50 bytes each outside the heap, not a million objects and strings on it; a
 * report reads them through views (SettledTally) made as it reads.
 */
import { NumberColumn, TextColumn } from "../text/packed-columns.js";
import { sortedPlaces } from "../text/sorted-places.js";
import { TextIndex } from "../text/text-index.js";
import { compareText } from "../text/compare-text.js";
import type { CaseFields } from "./case-tally.js";
import {
  holdsOwn,
  SettledTally,
  type Counts,
  type SettledParts,
  type SettledSource,
} from "./settle-tally.js";

type Parts = Pick<SettledParts, "first" | "counts">;

/** The part number of a tally taken out. */
const TAKEN = 0xffffffff;

export class SettledStore implements SettledSource {
  private ids = new TextColumn();
  /** Each place's number in `parts` (TAKEN once taken out). */
  private partOf = new NumberColumn(new Uint32Array(1024));
  /** Clusters that are not their case's id, by place. */
  private clusters = new Map<number, string>();
  private parts: Parts[] = [];
  /** A part's number by its first fields, then its counts (counts a case holds of its own are not looked for). */
  private partNumbers = new Map<CaseFields, Map<Counts, number>>();
  /** Each id's place; let go while a report reads the tallies (sorted), made again if asked. */
  private index: TextIndex | null = this.newIndex();
  private taken = 0;

  /** Tallies held. */
  get size(): number {
    return this.ids.length - this.taken;
  }

  put({ caseId, cluster, first, counts }: SettledParts): void {
    const at = this.ids.length;
    this.ids.push(caseId);
    if (cluster !== caseId) this.clusters.set(at, cluster);
    this.partOf.push(this.partNumber(first, counts));
    this.indexed().add(caseId, at);
  }

  /** A case's tally as it was settled, taken out (a record came after it settled). */
  take(caseId: string): SettledParts | undefined {
    const at = this.indexed().remove(caseId);
    if (at === undefined) return undefined;
    const parts = { caseId, cluster: this.clusterAt(at), ...this.partsAt(at) };
    this.partOf.set(at, TAKEN);
    this.clusters.delete(at);
    this.taken += 1;
    // An adaptive run settles its cases again each round: what was taken out is let go.
    if (this.taken > 1024 && this.taken * 2 > this.ids.length) this.compact();
    return parts;
  }

  /** A case's settled tally, left in place. */
  find(caseId: string): SettledTally | undefined {
    const at = this.indexed().find(caseId);
    return at === undefined ? undefined : new SettledTally(this, at);
  }

  /**
   * Every tally held, in case order: sorted a run of places at a time (its ids read while it
   * sorts), the runs then merged — a million cases never hold a million ids as strings at once.
   */
  sorted(): SettledTally[] {
    // The report that reads them finds none by its id: a million cases' index (16 MB) is let go.
    this.index = null;
    const places = sortedPlaces(
      this.ids.length,
      (at) => this.idAt(at),
      compareText,
      (at) => this.partOf.at(at) !== TAKEN,
    );
    const views = new Array<SettledTally>(places.length);
    for (let k = 0; k < places.length; k++) views[k] = new SettledTally(this, places[k]);
    return views;
  }

  idAt(at: number): string {
    return this.ids.at(at) as string;
  }

  clusterAt(at: number): string {
    return this.clusters.get(at) ?? this.idAt(at);
  }

  partsAt(at: number): Parts {
    return this.parts[this.partOf.at(at)];
  }

  private partNumber(first: CaseFields, counts: Counts): number {
    const own = holdsOwn(counts);
    let byCounts = this.partNumbers.get(first);
    if (byCounts === undefined) this.partNumbers.set(first, (byCounts = new Map()));
    let number = own ? undefined : byCounts.get(counts);
    if (number === undefined) {
      number = this.parts.length;
      this.parts.push({ first, counts });
      if (!own) byCounts.set(counts, number);
    }
    return number;
  }

  private newIndex(): TextIndex {
    return new TextIndex((at) => this.idAt(at));
  }

  private indexed(): TextIndex {
    if (this.index !== null) return this.index;
    const index = this.newIndex();
    for (let at = 0; at < this.ids.length; at++)
      if (this.partOf.at(at) !== TAKEN) index.add(this.idAt(at), at);
    return (this.index = index);
  }

  /** The tallies held, again without those taken out. */
  private compact(): void {
    const { ids, partOf, clusters, parts } = this;
    this.ids = new TextColumn();
    this.partOf = new NumberColumn(new Uint32Array(1024));
    this.clusters = new Map();
    this.parts = [];
    this.partNumbers = new Map();
    this.index = this.newIndex();
    this.taken = 0;
    for (let at = 0; at < ids.length; at++) {
      if (partOf.at(at) === TAKEN) continue;
      const caseId = ids.at(at) as string;
      const { first, counts } = parts[partOf.at(at)];
      this.put({ caseId, cluster: clusters.get(at) ?? caseId, first, counts });
    }
  }
}
