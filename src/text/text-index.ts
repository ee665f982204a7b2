/** A table of a column's texts by their hashes: found by its text, no string held (packed-columns.ts). */
import { fnv1a } from "./seeded-random.js";

/** A slot once held and let go (its probe chain goes on past it). */
const GONE = 0xffffffff;

/**
 * A table of texts held elsewhere (a column), found by their hashes: each slot holds a text's
 * hash and its place, and `textAt` reads a text back to tell two of one hash apart — exact, at
 * 8 bytes a slot, with no string held. Open addressing, 30–60% full (a million texts: 16 MB).
 */
export class TextIndex {
  private size = 1024;
  private hashes = new Uint32Array(this.size);
  /** place + 1 (0: empty, GONE: let go). */
  private places = new Uint32Array(this.size);
  /** Slots held or let go. */
  private used = 0;

  constructor(private readonly textAt: (place: number) => string) {}

  find(text: string): number | undefined {
    const slot = this.slotOf(text, fnv1a(text));
    return this.places[slot] === 0 ? undefined : this.places[slot] - 1;
  }

  /** Puts a text not in the table at `place`. */
  add(text: string, place: number): void {
    if (this.used + 1 > this.size * 0.6) this.rehash();
    const hash = fnv1a(text);
    let slot = hash & (this.size - 1);
    while (this.places[slot] !== 0 && this.places[slot] !== GONE)
      slot = (slot + 1) & (this.size - 1);
    if (this.places[slot] === 0) this.used += 1;
    this.hashes[slot] = hash;
    this.places[slot] = place + 1;
  }

  /** Takes a text out; its place, or undefined when it was not there. */
  remove(text: string): number | undefined {
    const slot = this.slotOf(text, fnv1a(text));
    const held = this.places[slot];
    if (held === 0) return undefined;
    this.places[slot] = GONE;
    return held - 1;
  }

  /** The slot holding the text, or the empty slot its probe ends at. */
  private slotOf(text: string, hash: number): number {
    const mask = this.size - 1;
    let slot = hash & mask;
    for (let held = this.places[slot]; held !== 0; held = this.places[slot]) {
      if (held !== GONE && this.hashes[slot] === hash && this.textAt(held - 1) === text)
        return slot;
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** The held slots in a table twice as large (or as large, when many were let go). */
  private rehash(): void {
    const { hashes, places } = this;
    let held = 0;
    for (const place of places) if (place !== 0 && place !== GONE) held += 1;
    while (held > this.size * 0.3) this.size *= 2;
    this.hashes = new Uint32Array(this.size);
    this.places = new Uint32Array(this.size);
    this.used = held;
    const mask = this.size - 1;
    for (let i = 0; i < places.length; i++) {
      if (places[i] === 0 || places[i] === GONE) continue;
      let slot = hashes[i] & mask;
      while (this.places[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hashes[i];
      this.places[slot] = places[i];
    }
  }
}
