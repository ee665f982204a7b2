/**
 * Columns of a million values held outside the JavaScript heap: numbers in typed arrays, texts as
 * their UTF-8 bytes in a few large buffers. A million strings on the heap cost their headers and
 * pointers (about 30 bytes each besides their text) and, since the collector lets the heap grow
 * past what is live, about as much again; a column costs its bytes and 8 per text. What a
 * shadow holds of each traced turn until it is asked (src/traces/turn-cases.ts).
 */

/** A typed array that grows as it is pushed to (doubling). */
export class NumberColumn<A extends Float64Array | Int32Array | Uint32Array> {
  length = 0;
  constructor(private values: A) {}

  push(value: number): void {
    if (this.length === this.values.length) this.values = grown(this.values, this.length * 2);
    this.values[this.length++] = value;
  }

  at(i: number): number {
    return this.values[i];
  }

  set(i: number, value: number): void {
    this.values[i] = value;
  }

  /** The values, trimmed to the column's length (the column is empty after). */
  take(): A {
    const values = this.values.subarray(0, this.length) as A;
    this.clear();
    return values;
  }

  /** Empties the column, letting its values go (no view of them kept). */
  clear(): void {
    this.values = sized(this.values, 0);
    this.length = 0;
  }
}

/** A typed array of the same kind as `like`, of `size` zeros. */
function sized<A extends Float64Array | Int32Array | Uint32Array>(like: A, size: number): A {
  return new (like.constructor as new (n: number) => A)(size);
}

function grown<A extends Float64Array | Int32Array | Uint32Array>(values: A, size: number): A {
  const next = sized(values, Math.max(size, 1024));
  next.set(values);
  return next;
}

/** Bytes the first buffer of texts holds, and the most a later one does (each twice the one before; a longer text has a buffer of its own). */
const FIRST_CHUNK = 64 << 10;
const CHUNK_BYTES = 4 << 20;
/** Where a text's chunk begins in `place`: chunk × 2^32 + the offset in it. */
const SPAN = 2 ** 32;

/** What a buffer whose texts were all let go is (a push after starts a new one). */
const LET_GO = Buffer.alloc(0);

function readable(chunk: Buffer): Buffer {
  if (chunk === LET_GO) throw new Error("a text let go (released) was read again");
  return chunk;
}

/** Texts (or null) held as UTF-8 bytes; each read back makes its string again. */
export class TextColumn {
  private readonly chunks: Buffer[] = [];
  /** Bytes used in each chunk (the last one's as it fills). */
  private readonly used: number[] = [];
  /** Texts in each chunk not yet let go (release). */
  private readonly held: number[] = [];
  /**
   * Where each text begins: chunk × 2^32 + offset, its end where the next text in the chunk
   * begins (or the chunk's used bytes); a null is −1 − where it would begin (no bytes).
   */
  private readonly place = new NumberColumn(new Float64Array(1024));

  get length(): number {
    return this.place.length;
  }

  push(text: string | null): void {
    const last = this.chunks.length - 1;
    if (text === null) {
      this.place.push(-1 - (last < 0 ? 0 : last * SPAN + this.used[last]));
      return;
    }
    let chunk = this.chunks[last];
    // A UTF-16 unit is at most three bytes: the exact count only when it may not fit.
    if (
      chunk === undefined ||
      chunk === LET_GO ||
      (this.used[last] + text.length * 3 > chunk.length &&
        this.used[last] + Buffer.byteLength(text) > chunk.length)
    ) {
      const size =
        chunk === undefined || chunk === LET_GO
          ? FIRST_CHUNK
          : Math.min(CHUNK_BYTES, chunk.length * 2);
      chunk = Buffer.allocUnsafeSlow(Math.max(size, Buffer.byteLength(text)));
      this.chunks.push(chunk);
      this.used.push(0);
      this.held.push(0);
    }
    const at = this.chunks.length - 1;
    this.held[at] += 1;
    this.place.push(at * SPAN + this.used[at]);
    this.used[at] += chunk.write(text, this.used[at]);
  }

  at(i: number): string | null {
    const place = this.place.at(i);
    if (place < 0) return null;
    const chunk = Math.floor(place / SPAN);
    const start = place - chunk * SPAN;
    // The next text's start, if it is in this chunk, else the chunk's end.
    let end = this.used[chunk];
    if (i + 1 < this.place.length) {
      const next = this.place.at(i + 1);
      const from = next < 0 ? -1 - next : next;
      if (from < (chunk + 1) * SPAN) end = from - chunk * SPAN;
    }
    return readable(this.chunks[chunk]).toString("utf8", start, end);
  }

  /** Lets text i go, read for the last time: a buffer is freed once all its texts are let go. */
  release(i: number): void {
    const place = this.place.at(i);
    if (place < 0) return;
    const chunk = Math.floor(place / SPAN);
    if (--this.held[chunk] === 0) this.chunks[chunk] = LET_GO;
  }

  /** Lets every text go. */
  clear(): void {
    this.chunks.length = this.used.length = this.held.length = 0;
    this.place.clear();
  }
}

/** Ids held in a chunk of an IdColumn. */
const IDS_PER_CHUNK = 1 << 16;
/** Lower-case hex of whole bytes, at most 64 of them. */
const HEX_ID = /^(?:[0-9a-f]{2}){1,64}$/;

/**
 * Ids (or null) as a TextColumn holds them, but held as their bytes while every id pushed is
 * lower-case hex of one length (a trace's 32 digits, a span's 16: what the trace readers give) —
 * half a text column's bytes and no place for each. The first id that is not (another length,
 * other characters, a null) turns the column into a TextColumn of the same ids.
 */
export class IdColumn {
  length = 0;
  private readonly chunks: Buffer[] = [];
  /** Ids in each chunk not yet let go (release). */
  private readonly held: number[] = [];
  /** Bytes an id takes (0 until the first id). */
  private width = 0;
  private text: TextColumn | null = null;

  push(id: string | null): void {
    if (this.text === null && !this.holds(id)) this.becomeText();
    if (this.text !== null) {
      this.text.push(id);
      this.length += 1;
      return;
    }
    const hex = id as string;
    if (this.width === 0) this.width = hex.length / 2;
    const offset = this.length % IDS_PER_CHUNK;
    if (offset === 0) {
      this.chunks.push(Buffer.allocUnsafeSlow(IDS_PER_CHUNK * this.width));
      this.held.push(0);
    }
    this.held[this.chunks.length - 1] += 1;
    this.chunks[this.chunks.length - 1].write(hex, offset * this.width, this.width, "hex");
    this.length += 1;
  }

  at(i: number): string | null {
    if (this.text !== null) return this.text.at(i);
    const offset = (i % IDS_PER_CHUNK) * this.width;
    const chunk = readable(this.chunks[Math.floor(i / IDS_PER_CHUNK)]);
    return chunk.toString("hex", offset, offset + this.width);
  }

  /** Lets id i go, read for the last time (TextColumn.release); a chunk still being filled is kept. */
  release(i: number): void {
    if (this.text !== null) {
      this.text.release(i);
      return;
    }
    const chunk = Math.floor(i / IDS_PER_CHUNK);
    const filled = chunk < this.chunks.length - 1 || this.length % IDS_PER_CHUNK === 0;
    if (--this.held[chunk] === 0 && filled) this.chunks[chunk] = LET_GO;
  }

  clear(): void {
    this.chunks.length = this.held.length = this.length = this.width = 0;
    this.text = null;
  }

  private holds(id: string | null): boolean {
    return id !== null && (this.width === 0 || id.length === 2 * this.width) && HEX_ID.test(id);
  }

  private becomeText(): void {
    const text = new TextColumn();
    for (let i = 0; i < this.length; i++) text.push(this.at(i));
    this.chunks.length = this.held.length = 0;
    this.text = text;
  }
}
