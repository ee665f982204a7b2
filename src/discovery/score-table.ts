/**
 * BM25 scores as a read-only map over the index's arrays: a query over a large registry builds no
 * Map (inserting ten thousand string keys costs more than scoring them). Entries are the scored
 * documents in the order they were first touched.
 */
export class ScoreTable implements ReadonlyMap<string, number> {
  constructor(
    private readonly ids: readonly string[],
    private readonly position: ReadonlyMap<string, number>,
    private readonly totals: Float64Array,
    /** Scored documents (indexes into ids), each once. */
    private readonly docs: readonly number[],
    /** 1 for documents in `docs`; a document outside it reads as absent. */
    private readonly included: Uint8Array,
  ) {}

  get size(): number {
    return this.docs.length;
  }

  get(id: string): number | undefined {
    const doc = this.position.get(id);
    return doc === undefined || this.included[doc] === 0 ? undefined : this.totals[doc];
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  *entries(): MapIterator<[string, number]> {
    for (const doc of this.docs) yield [this.ids[doc], this.totals[doc]];
  }

  *keys(): MapIterator<string> {
    for (const doc of this.docs) yield this.ids[doc];
  }

  *values(): MapIterator<number> {
    for (const doc of this.docs) yield this.totals[doc];
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void): void {
    for (const doc of this.docs) callback(this.totals[doc], this.ids[doc], this);
  }

  /** Calls `visit` for every scored document without allocating entries (the hot path of topK). */
  visit(visit: (id: string, score: number) => void): void {
    for (const doc of this.docs) visit(this.ids[doc], this.totals[doc]);
  }
}
