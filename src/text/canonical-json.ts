/** JSON with object keys sorted recursively: the same value always serialises to the same text. */
export function canonicalJson(value: unknown, indent?: number): string {
  if (indent === undefined || indent === 0) return writeCompact(value, null) ?? "null";
  return JSON.stringify(sortKeys(value), null, indent);
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

/**
 * `JSON.stringify(sortKeys(value))` without building the sorted copy: request bodies are hashed
 * on every trial, so this path matters. Same output, including JSON.stringify's rules for
 * undefined (dropped in objects, null in arrays), non-finite numbers (null) and toJSON.
 */
type Memo = WeakMap<object, string | undefined> | null;

/**
 * canonicalJson (compact) that remembers the text of every object it has written, by identity:
 * for hashing many values that share large parts (each trial's request shares the tool schemas).
 * Only for values that are never mutated once written.
 */
export function createCanonicalWriter(): (value: unknown) => string {
  const memo: Memo = new WeakMap();
  return (value) => writeCompact(value, memo) ?? "null";
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
      return memo === null ? writeObject(value, null) : writeMemo(value, memo);
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

function writeObject(value: object, memo: Memo): string | undefined {
  if (Array.isArray(value))
    return `[${value.map((item) => writeCompact(item, memo) ?? "null").join(",")}]`;
  const keys = Object.keys(value);
  // sortKeys copies own enumerable keys only, so only an own toJSON survives the copy.
  const toJSON: unknown = keys.includes("toJSON") ? Reflect.get(value, "toJSON") : undefined;
  if (typeof toJSON === "function") return writeCompact(Reflect.apply(toJSON, value, []), memo);
  let out = "";
  for (const key of orderKeys(keys)) {
    const text = writeCompact(Reflect.get(value, key), memo);
    if (text === undefined) continue;
    out += `${out === "" ? "" : ","}${JSON.stringify(key)}:${text}`;
  }
  return `{${out}}`;
}

const INDEX_KEY = /^(0|[1-9]\d{0,9})$/;

function startsWithDigit(key: string): boolean {
  const code = key.charCodeAt(0);
  return code >= 48 && code <= 57;
}

/** The order Object.fromEntries(sorted keys) enumerates in: array-index keys ascending, then the rest sorted. */
function orderKeys(keys: string[]): string[] {
  const sorted = keys.sort();
  // Only a key that starts with a digit can be an array index (the common case has none).
  if (!sorted.some(startsWithDigit)) return sorted;
  const indices = sorted.filter((key) => INDEX_KEY.test(key) && Number(key) < 4294967295);
  if (indices.length === 0) return sorted;
  const rest = sorted.filter((key) => !(INDEX_KEY.test(key) && Number(key) < 4294967295));
  return [...indices.sort((a, b) => Number(a) - Number(b)), ...rest];
}
