/** rival-cluster: groups of three or more tools that all compete with one another. */
import type { Tool } from "../types.js";
import type { RivalPairs } from "./find-rivals.js";

/**
 * Clusters of three or more tools in which every member is a rival of every other (each pair
 * scores at least its threshold: text cosine ≥ TEXT_THRESHOLD or names ≥ NAME_THRESHOLD) —
 * complete linkage over the rival pairs, never the chains of single linkage (a–b and b–c rivals
 * do not put a and c together unless they are rivals too). Built greedily from the strongest pair
 * down: two clusters join when every pair across them is a rival pair. Members in registry order,
 * clusters by their first member.
 */
export function findClusters(pairs: RivalPairs): Tool[][] {
  const { ai, bi, tools } = pairs;
  let span = 0;
  for (let k = 0; k < pairs.length; k++) span = Math.max(span, ai[k] + 1, bi[k] + 1);
  // By position: its rivals (sorted, searched by halves).
  const rivalsOf: number[][] = Array.from({ length: span }, () => []);
  for (let k = 0; k < pairs.length; k++) {
    rivalsOf[ai[k]].push(bi[k]);
    rivalsOf[bi[k]].push(ai[k]);
  }
  const sorted = rivalsOf.map((list) => Int32Array.from(list).sort());
  const rival = (x: number, y: number): boolean => {
    const list = sorted[x];
    let [low, high] = [0, list.length - 1];
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (list[middle] === y) return true;
      if (list[middle] < y) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  };
  // A cluster keeps the name (position) of the tool it grew from.
  const clusterOf = rivalsOf.map((list, index) =>
    list.length === 0 ? null : { name: index, members: [index] },
  );
  // Two clusters that failed to link never will: each only grows, and the pair that was not a
  // rival pair stays inside them.
  const unlinked = new Set<number>();
  // Pairs come strongest first.
  for (let k = 0; k < pairs.length; k++) {
    const left = clusterOf[ai[k]];
    const right = clusterOf[bi[k]];
    if (left === null || right === null || left === right) continue;
    const known = Math.min(left.name, right.name) * span + Math.max(left.name, right.name);
    if (unlinked.has(known)) continue;
    const linked = left.members.every((x) => right.members.every((y) => rival(x, y)));
    if (!linked) {
      unlinked.add(known);
      continue;
    }
    const [kept, gone] =
      left.members.length >= right.members.length ? [left, right] : [right, left];
    kept.members.push(...gone.members);
    for (const index of gone.members) clusterOf[index] = kept;
  }
  return [...new Set(clusterOf.flatMap((cluster) => (cluster === null ? [] : [cluster.members])))]
    .filter((members) => members.length >= 3)
    .map((members) => members.sort((x, y) => x - y))
    .sort((x, y) => x[0] - y[0])
    .map((members) => members.map((index) => tools[index]));
}
