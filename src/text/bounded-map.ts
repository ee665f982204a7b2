/**
 * A map of bounded memory however long its input: it remembers the keys set or found most
 * recently, in two generations — the newer is made the older (and the older dropped) once it
 * holds `size` keys or `weight` of what they weigh (a text's length, say). For memos over a day
 * of traffic, where what repeats (a system prompt, a tool list) repeats while it is recent.
 */
export interface BoundedMap<K, V> {
  get(key: K): V | undefined;
  /** `weight`: what the entry costs to keep (1 unless said). */
  set(key: K, value: V, weight?: number): void;
}

export function createBoundedMap<K, V>(
  size: number,
  weight = Number.POSITIVE_INFINITY,
): BoundedMap<K, V> {
  let young = new Map<K, { value: V; weight: number }>();
  let old = new Map<K, { value: V; weight: number }>();
  let held = 0;
  const keep = (key: K, entry: { value: V; weight: number }) => {
    young.set(key, entry);
    held += entry.weight;
    if (young.size >= size || held >= weight) {
      [old, young] = [young, new Map()];
      held = 0;
    }
  };
  return {
    get: (key) => {
      const known = young.get(key);
      if (known !== undefined) return known.value;
      const older = old.get(key);
      if (older === undefined) return undefined;
      old.delete(key);
      keep(key, older);
      return older.value;
    },
    set: (key, value, cost = 1) => {
      const known = young.get(key);
      if (known !== undefined) held -= known.weight;
      keep(key, { value, weight: cost });
    },
  };
}

/**
 * The first value seen of each key among the recent ones — at most `size`, and at most `chars` of
 * their keys' text, in each of two generations (a key is the value's text, so a value weighs about
 * twice its key). For values never changed once made: sharing them is safe.
 */
export function createInterner<T>(
  keyOf: (value: T) => string,
  size: number,
  chars: number,
): (value: T) => T {
  const seen = createBoundedMap<string, T>(size, chars);
  return (value) => {
    const key = keyOf(value);
    const known = seen.get(key);
    if (known !== undefined) return known;
    seen.set(key, value, key.length);
    return value;
  };
}

/**
 * The first object seen among the recent ones (at most `size`) whose members are each the same
 * object, text or number as this one's, in order: objects made by one literal, alike by their
 * parts, held once. Objects whose parts all differ are each their own and soon forgotten.
 */
export function createPartsInterner<T extends object>(size: number): (value: T) => T {
  let count = 0;
  const numbers = createBoundedMap<unknown, number>(size);
  const numberOf = (part: unknown) => {
    let n = numbers.get(part);
    if (n === undefined) numbers.set(part, (n = count++));
    return n;
  };
  const held = createBoundedMap<string, T>(size);
  return (value) => {
    let key = "";
    for (const part of Object.values(value)) key += `${numberOf(part)} `;
    const known = held.get(key);
    if (known !== undefined) return known;
    held.set(key, value);
    return value;
  };
}
