/**
 * Texts held in a column (packed-columns.ts) put in order without a million strings at once:
 * run.json's case hashes by their ids, a run's settled tallies in case order.
 */

/** Places sorted at a time (sortedPlaces). */
const RUN = 1 << 16;

/**
 * The places below `count` that `keep` keeps, in the order of their texts (`compare`; ties in
 * place order): a run of places sorted at a time with its texts read as strings, then the runs
 * merged (a heap of their heads) — a million texts held in a column are never a million strings
 * at once.
 */
export function sortedPlaces(
  count: number,
  textAt: (place: number) => string,
  compare: (a: string, b: string) => number,
  keep: (place: number) => boolean = () => true,
): Uint32Array {
  const runs: Uint32Array[] = [];
  let total = 0;
  for (let start = 0; start < count; start += RUN) {
    const places: number[] = [];
    const texts: string[] = [];
    for (let at = start; at < Math.min(start + RUN, count); at++)
      if (keep(at)) {
        places.push(at);
        texts.push(textAt(at));
      }
    const order = places.map((_, i) => i).sort((a, b) => compare(texts[a], texts[b]) || a - b);
    if (order.length > 0) runs.push(Uint32Array.from(order, (i) => places[i]));
    total += order.length;
  }
  if (runs.length <= 1) return runs[0] ?? new Uint32Array(0);
  const next = runs.map(() => 0);
  const heads = runs.map((run) => textAt(run[0]));
  /** Runs not yet used up, as a heap by their heads' texts (an earlier run first on a tie). */
  const heap = runs.map((_, r) => r);
  const before = (a: number, b: number) =>
    (compare(heads[heap[a]], heads[heap[b]]) || heap[a] - heap[b]) < 0;
  const down = (from: number) => {
    for (let i = from; ;) {
      let least = i;
      for (const child of [2 * i + 1, 2 * i + 2])
        if (child < heap.length && before(child, least)) least = child;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least], heap[i]];
      i = least;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  const merged = new Uint32Array(total);
  for (let k = 0; heap.length > 0; k++) {
    const r = heap[0];
    merged[k] = runs[r][next[r]++];
    if (next[r] < runs[r].length) heads[r] = textAt(runs[r][next[r]]);
    else {
      heap[0] = heap[heap.length - 1];
      heap.pop();
    }
    down(0);
  }
  return merged;
}
