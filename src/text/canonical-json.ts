/**
 * JSON with object keys sorted recursively: the same value always serialises to the same text.
 * The sorted copy and the native JSON.stringify beat writing the text piece by piece (1.3× on a
 * case, 1.9× on a request body); the writer below is for values that share parts (its memo).
 */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent) ?? "null";
}

/**
 * canonicalJson(value, 2) in pieces, member by member at every depth: a file holding a large
 * object (run.json's 100,000 case hashes) is written without a sorted copy of it, or its text,
 * whole. `newline` is the line break and indentation the value starts at.
 */
export function* canonicalJsonPieces(value: unknown, newline = "\n"): Generator<string> {
  if (value instanceof StreamedMembers) {
    yield* memberPieces(value.members(), false, newline);
    return;
  }
  if (value === null || typeof value !== "object" || Reflect.has(value, "toJSON")) {
    // A value JSON writes by its own rules (toJSON) is written as canonicalJson writes it.
    yield JSON.stringify(sortKeys(value), null, 2)?.replace(/\n/g, newline) ?? "null";
    return;
  }
  if (Array.isArray(value)) yield* memberPieces(itemsOf(value), true, newline);
  else yield* memberPieces(membersOf(value), false, newline);
}

function* itemsOf(list: unknown[]): Generator<readonly [null, unknown]> {
  for (let i = 0; i < list.length; i++) yield [null, list[i]];
}

function* membersOf(value: object): Generator<readonly [string, unknown]> {
  for (const key of orderKeys(Object.keys(value))) yield [key, Reflect.get(value, key)];
}

/** A list's items (keys null) or an object's members, in order, as canonicalJsonPieces writes them. */
function* memberPieces(
  members: Iterable<readonly [string | null, unknown]>,
  list: boolean,
  newline: string,
): Generator<string> {
  const inner = `${newline}  `;
  let written = 0;
  for (const [key, item] of members) {
    // What JSON leaves out of an object (undefined, a function) is null in a list.
    const absent = item === undefined || typeof item === "function" || typeof item === "symbol";
    if (absent && !list) continue;
    yield `${written === 0 ? (list ? "[" : "{") : ","}${inner}${list ? "" : `${JSON.stringify(key)}: `}`;
    written += 1;
    if (absent) yield "null";
    else yield* canonicalJsonPieces(item, inner);
  }
  yield written === 0 ? (list ? "[]" : "{}") : `${newline}${list ? "]" : "}"}`;
}

/**
 * An object too large to hold as one (run.json's hashes of a million cases: each id would be held
 * again as a property name), written by canonicalJsonPieces from its members as they are made —
 * in canonicalJson's order of keys (compareKeys), each key once. Nothing else writes it.
 */
export class StreamedMembers {
  constructor(readonly members: () => Iterable<readonly [string, unknown]>) {}

  toJSON(): never {
    throw new Error("StreamedMembers is written by canonicalJsonPieces only");
  }
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const source = value as Record<string, unknown>;
    // Assigned one by one (what Object.fromEntries does, without its entry arrays: a report has
    // hundreds of thousands of objects); a "__proto__" key is defined as an own key, not assigned.
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const item = sortKeys(source[key]);
      if (key === "__proto__")
        Object.defineProperty(sorted, key, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else sorted[key] = item;
    }
    return sorted;
  }
  return value;
}

type Memo = WeakMap<object, string | undefined>;

/**
 * canonicalJson (compact) that remembers the text of every object it has written, by identity:
 * for hashing many values that share large parts (each trial's request shares the tool schemas:
 * their text is joined, not written again). Same output as `JSON.stringify(sortKeys(value))`,
 * including its rules for undefined (dropped in objects, null in arrays), non-finite numbers
 * (null) and toJSON. Only for values that are never mutated once written.
 */
export function createCanonicalWriter(): CanonicalWriter {
  const memo: Memo = new WeakMap();
  const shared = new WeakMap<object, SharedText>();
  const sharedOf = (value: object, text: string): SharedText => {
    let known = shared.get(value);
    if (known === undefined) shared.set(value, (known = { text, bytes: Buffer.from(text) }));
    return known;
  };
  const write = (value: unknown) => writeCompact(value, memo) ?? "null";
  return Object.assign(write, {
    pieces: (value: unknown): CanonicalPiece[] => {
      if (value === null || typeof value !== "object") return [write(value)];
      const parts: CanonicalPiece[] = [];
      const tail = writeObject(value, memo, { list: parts, share: sharedOf }) ?? "null";
      return [...parts, tail];
    },
  });
}

/** Where a top-level object's large members go as pieces (CanonicalWriter.pieces). */
interface Pieces {
  list: CanonicalPiece[];
  share: (value: object, text: string) => SharedText;
}

/** A canonical text in pieces: text written for this value, and large parts shared with values written before (with their UTF-8 bytes, kept once). */
export type CanonicalPiece = string | SharedText;
export interface SharedText {
  text: string;
  bytes: Buffer;
}

/** The writer: a value's canonical text, or (`pieces`) the same text in pieces to hash without joining it. */
export interface CanonicalWriter {
  (value: unknown): string;
  /** A top-level member whose text is SHARED_BYTES long or longer is a shared piece; a top-level list not written before is written from its items, each SHARED_ITEM_BYTES long or longer a shared piece (a request's tools). */
  pieces(value: unknown): CanonicalPiece[];
}

/** Shorter members are copied into the text around them. */
const SHARED_BYTES = 4096;
/** The same for the items of a top-level list (a tool's definition is some hundreds of bytes). */
const SHARED_ITEM_BYTES = 256;

/** The text of pieces, joined. */
export function joinPieces(pieces: readonly CanonicalPiece[]): string {
  return pieces.map((piece) => (typeof piece === "string" ? piece : piece.text)).join("");
}

function writeCompact(value: unknown, memo: Memo): string | undefined {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
    case "boolean":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "object":
      return writeMemo(value, memo);
    default:
      return undefined;
  }
}

function writeMemo(value: object, memo: WeakMap<object, string | undefined>): string | undefined {
  if (memo.has(value)) return memo.get(value);
  const text = writeObject(value, memo);
  memo.set(value, text);
  return text;
}

/** An object's text; with `pieces`, each member SHARED_BYTES long or longer goes to the list as a shared piece, and what follows the last one is returned. */
function writeObject(value: object, memo: Memo, pieces?: Pieces): string | undefined {
  if (Array.isArray(value))
    return `[${value.map((item) => writeCompact(item, memo) ?? "null").join(",")}]`;
  const keys = Object.keys(value);
  // sortKeys copies own enumerable keys only, so only an own toJSON survives the copy.
  const toJSON: unknown = keys.includes("toJSON") ? Reflect.get(value, "toJSON") : undefined;
  if (typeof toJSON === "function") return writeCompact(Reflect.apply(toJSON, value, []), memo);
  let out = "{";
  let first = true;
  for (const key of orderKeys(keys)) {
    const item: unknown = Reflect.get(value, key);
    if (pieces !== undefined && Array.isArray(item) && !memo.has(item)) {
      // A list made for this value (a request's tools, chosen per trial) from items written
      // before: its items are the shared pieces, the list's own text is never written.
      out = writeListPieces(item, memo, pieces, `${out}${first ? "" : ","}${JSON.stringify(key)}:`);
      first = false;
      continue;
    }
    const text = writeCompact(item, memo);
    if (text === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (
      pieces === undefined ||
      typeof item !== "object" ||
      item === null ||
      text.length < SHARED_BYTES
    )
      out += text;
    else {
      pieces.list.push(out, pieces.share(item, text));
      out = "";
    }
  }
  return `${out}}`;
}

/** A list's text after `head`, its items of SHARED_ITEM_BYTES or more as shared pieces; returns what follows the last one. */
function writeListPieces(list: unknown[], memo: Memo, pieces: Pieces, head: string): string {
  let out = `${head}[`;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const text = writeCompact(item, memo) ?? "null";
    if (i > 0) out += ",";
    if (typeof item !== "object" || item === null || text.length < SHARED_ITEM_BYTES) out += text;
    else {
      pieces.list.push(out, pieces.share(item, text));
      out = "";
    }
  }
  return `${out}]`;
}

const INDEX_KEY = /^(0|[1-9]\d{0,9})$/;

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

function isIndexKey(key: string): boolean {
  return startsWithDigit(key) && INDEX_KEY.test(key) && Number(key) < 4294967295;
}

/** orderKeys's order, one pair at a time: array-index keys first by value, then by UTF-16 code units. */
export function compareKeys(a: string, b: string): number {
  const index = isIndexKey(a);
  if (index !== isIndexKey(b)) return index ? -1 : 1;
  if (index) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The order Object.fromEntries(sorted keys) enumerates in: array-index keys ascending, then the rest sorted. */
function orderKeys(keys: string[]): string[] {
  const sorted = keys.sort();
  // Only a key that starts with a digit can be an array index (the common case has none).
  if (!sorted.some(startsWithDigit)) return sorted;
  const indices = sorted.filter(isIndexKey);
  if (indices.length === 0) return sorted;
  const rest = sorted.filter((key) => !isIndexKey(key));
  return [...indices.sort((a, b) => Number(a) - Number(b)), ...rest];
}
