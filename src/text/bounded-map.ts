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
