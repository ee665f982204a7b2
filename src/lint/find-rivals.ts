/**
 * The rival measure. Two tools are rivals when either
 *  - their descriptions overlap: TF-IDF cosine over name + purpose + use_when ≥ TEXT_THRESHOLD, or
 *  - their names compete (name-parts.ts): same or synonymous verb over a shared object, or in the
 *    same small family group, scoring ≥ NAME_THRESHOLD.
 * The pair's score is the larger of the two; both are reported.
 */
import type { Tool } from "../types.js";
import { relateNames, splitName, type NameParts, type NameRelation } from "./name-parts.js";
import { buildTfIdf, cosine, findSimilarPairs } from "../text/tfidf.js";

export const TEXT_THRESHOLD = 0.5;
export const NAME_THRESHOLD = 0.4;
/**
 * Same-verb tools of one family count as alternatives only when few: beyond this many, the
 * family is a catalogue of different objects (create_lead, create_budget…), not a choice.
 */
export const FAMILY_GROUP_MAX = 4;

/**
 * Rivals listed per tool; the rest are counted. A registry of thousands of overlapping tools has
 * rival pairs by the hundred thousand: the output stays O(tools). A tool in a cluster too large to
 * name whole (more than LISTED_MEMBERS) gets one pair finding, its strongest: the cluster finding
 * speaks for the rest.
 */
export const LISTED_RIVALS = 3;
export const LISTED_PAIRS = 5;
export const LISTED_PAIRS_IN_LARGE_CLUSTER = 1;

/** Members of a cluster named in its message; the rest are counted (all are in `related`). */
export const LISTED_MEMBERS = 10;

/** "a, b, c and 4 more": the first `max` items, the rest counted. */
export function listSome(items: string[], max: number): string {
  if (items.length <= max) return items.join(", ");
  return `${items.slice(0, max).join(", ")} and ${items.length - max} more`;
}

export interface RivalPair {
  a: Tool;
  b: Tool;
  /** Positions of a and b in the registry. */
  ai: number;
  bi: number;
  score: number;
  /** TF-IDF cosine of name + purpose + use_when. */
  text: number;
  /** Name score (0 when the names do not compete). */
  names: number;
  /** Why the names compete, e.g. `synonym verbs "get"/"search" over "order"`; "" when they do not. */
  why: string;
}

/** Every rival pair, a before b in registry order, sorted by score (highest first) then position. */
export function findRivals(tools: Tool[]): RivalPair[] {
  const { vectors } = buildTfIdf(tools.map(describeForSimilarity));
  const parts = tools.map((tool) => splitName(tool.name));
  const byObject = groupTools(parts, (part) => part.objects);
  const byFamily = groupTools(parts, (_, index) => [tools[index].family]);
  const smallFamilyGroups = [...byFamily.values()].filter((members) => members.length <= FAMILY_GROUP_MAX);
  const inSmallFamilyGroup = new Set(smallFamilyGroups.flat());
  const candidates = new Set<number>();
  const key = (a: number, b: number): number => Math.min(a, b) * tools.length + Math.max(a, b);
  for (const pair of findSimilarPairs(vectors, TEXT_THRESHOLD)) candidates.add(key(pair.a, pair.b));
  for (const [a, b] of pairsWithin([...byObject.values(), ...smallFamilyGroups])) candidates.add(key(a, b));
  const pairs: RivalPair[] = [];
  for (const id of candidates) {
    const [i, j] = [Math.floor(id / tools.length), id % tools.length];
    const family = inSmallFamilyGroup.has(i) && inSmallFamilyGroup.has(j) && tools[i].family === tools[j].family ? tools[i].family : null;
    const pair = scorePair(i, j, tools, cosine(vectors[i], vectors[j]), relateNames(parts[i], parts[j], family));
    if (pair !== null) pairs.push(pair);
  }
  return pairs.sort((x, y) => y.score - x.score || x.ai - y.ai || x.bi - y.bi);
}

function scorePair(ai: number, bi: number, tools: Tool[], text: number, names: NameRelation): RivalPair | null {
  if (text < TEXT_THRESHOLD && names.score < NAME_THRESHOLD) return null;
  return { a: tools[ai], b: tools[bi], ai, bi, score: Math.max(text, names.score), text, names: names.score, why: names.why };
}

/** Tool indices grouped by verb class and each key `keysOf` gives: only tools in one group can score by name. */
function groupTools(parts: NameParts[], keysOf: (part: NameParts, index: number) => string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  parts.forEach((part, index) => {
    if (part.verbKey === null) return;
    for (const key of keysOf(part, index)) {
      const group = `${part.verbKey} ${key}`;
      const members = groups.get(group);
      if (members === undefined) groups.set(group, [index]);
      else members.push(index);
    }
  });
  return groups;
}

function pairsWithin(groups: number[][]): [number, number][] {
  const pairs: [number, number][] = [];
  for (const members of groups) {
    for (let x = 0; x < members.length; x++) for (let y = x + 1; y < members.length; y++) pairs.push([members[x], members[y]]);
  }
  return pairs;
}

/** The text the similarity reads: what the model reads first (name, purpose, when to use). */
export function describeForSimilarity(tool: Tool): string {
  return [tool.name, tool.purpose, ...tool.use_when].join("\n");
}

/**
 * Clusters of three or more tools in which every member is a rival of every other (each pair
 * scores at least its threshold: text cosine ≥ TEXT_THRESHOLD or names ≥ NAME_THRESHOLD) —
 * complete linkage over the rival pairs, never the chains of single linkage (a–b and b–c rivals
 * do not put a and c together unless they are rivals too). Built greedily from the strongest pair
 * down: two clusters join when every pair across them is a rival pair. Members in registry order,
 * clusters by their first member.
 */
export function findClusters(pairs: RivalPair[]): Tool[][] {
  const position = new Map<Tool, number>();
  for (const { a, b, ai, bi } of pairs) position.set(a, ai).set(b, bi);
  const at = (tool: Tool): number => position.get(tool) ?? 0;
  const rivals = new Map<Tool, Set<Tool>>();
  for (const { a, b } of pairs) {
    if (!rivals.has(a)) rivals.set(a, new Set());
    if (!rivals.has(b)) rivals.set(b, new Set());
    rivals.get(a)?.add(b);
    rivals.get(b)?.add(a);
  }
  const clusterOf = new Map<Tool, Tool[]>();
  for (const tool of rivals.keys()) clusterOf.set(tool, [tool]);
  // Pairs come strongest first.
  for (const { a, b } of pairs) {
    const left = clusterOf.get(a);
    const right = clusterOf.get(b);
    if (left === undefined || right === undefined || left === right) continue;
    const linked = left.every((x) => right.every((y) => rivals.get(x)?.has(y) === true));
    if (!linked) continue;
    const [kept, gone] = left.length >= right.length ? [left, right] : [right, left];
    kept.push(...gone);
    for (const tool of gone) clusterOf.set(tool, kept);
  }
  return [...new Set(clusterOf.values())]
    .filter((members) => members.length >= 3)
    .map((members) => members.sort((x, y) => at(x) - at(y)))
    .sort((x, y) => at(x[0]) - at(y[0]));
}
