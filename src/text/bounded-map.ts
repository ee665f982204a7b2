/**
 * A map of bounded memory however long its input: it remembers the last `size` to 2 × `size`
 * keys set or found (two generations: the older is dropped when the newer fills). For memos over
 * a day of traffic, where what repeats (a system prompt, a tool list) repeats while it is recent.
 */
export interface BoundedMap<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
}

export function createBoundedMap<K, V>(size: number): BoundedMap<K, V> {
  let young = new Map<K, V>();
  let old = new Map<K, V>();
  const set = (key: K, value: V) => {
    young.set(key, value);
    if (young.size >= size) [old, young] = [young, new Map()];
  };
  return {
    get: (key) => {
      const known = young.get(key);
      if (known !== undefined) return known;
      const older = old.get(key);
      if (older !== undefined) set(key, older);
      return older;
    },
    set,
  };
}
