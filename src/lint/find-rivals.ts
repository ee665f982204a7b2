/**
 * The rival measure. Two tools are rivals when either
 *  - their descriptions overlap: TF-IDF cosine over name + purpose + use_when ≥ TEXT_THRESHOLD, or
 *  - their names compete: same or synonymous verb over a shared object, or in the same family
 *    (see name-parts.ts), scoring ≥ NAME_THRESHOLD.
 * The pair's score is the larger of the two; both are reported.
 */
import type { LintTool } from "./lint-input.js";
import { relateNames, splitName, type NameParts } from "./name-parts.js";
import { buildTfIdf, cosine, findSimilarPairs, type SparseVector } from "./tfidf.js";

export const TEXT_THRESHOLD = 0.5;
export const NAME_THRESHOLD = 0.4;

export interface RivalPair {
  a: LintTool;
  b: LintTool;
  score: number;
  /** TF-IDF cosine of name + purpose + use_when. */
  text: number;
  /** Name score (0 when the names do not compete). */
  names: number;
  /** Why the names compete, e.g. `synonym verbs "get"/"search" over "order"`; "" when they do not. */
  why: string;
}

/** Every rival pair, a before b in registry order, sorted by score (highest first) then position. */
export function findRivals(tools: LintTool[]): RivalPair[] {
  const vectors = buildTfIdf(tools.map(describeForSimilarity));
  const parts = tools.map((tool) => splitName(tool.name));
  const candidates = new Set<number>();
  const key = (a: number, b: number): number => Math.min(a, b) * tools.length + Math.max(a, b);
  for (const pair of findSimilarPairs(vectors, TEXT_THRESHOLD)) candidates.add(key(pair.a, pair.b));
  for (const [a, b] of nameCandidates(tools, parts)) candidates.add(key(a, b));
  const pairs: RivalPair[] = [];
  for (const id of candidates) {
    const pair = scorePair(tools, vectors, parts, Math.floor(id / tools.length), id % tools.length);
    if (pair !== null) pairs.push(pair);
  }
  return pairs.sort((x, y) => y.score - x.score || x.a.index - y.a.index || x.b.index - y.b.index);
}

function scorePair(tools: LintTool[], vectors: SparseVector[], parts: NameParts[], i: number, j: number): RivalPair | null {
  const [a, b] = [tools[i], tools[j]];
  const text = cosine(vectors[i], vectors[j]);
  const names = relateNames(parts[i], parts[j], a.family === b.family ? a.family : null);
  if (text < TEXT_THRESHOLD && names.score < NAME_THRESHOLD) return null;
  return { a, b, score: Math.max(text, names.score), text, names: names.score, why: names.why };
}

/** Pairs that share a verb class and an object word or a family: the only ones that can score by name. */
function nameCandidates(tools: LintTool[], parts: NameParts[]): [number, number][] {
  const groups = new Map<string, number[]>();
  parts.forEach((part, index) => {
    if (part.verbKey === null) return;
    const keys = [...part.objects.map((word) => `o:${word}`), `f:${tools[index].family}`];
    for (const key of keys) {
      const group = `${part.verbKey}\u0000${key}`;
      const members = groups.get(group);
      if (members === undefined) groups.set(group, [index]);
      else members.push(index);
    }
  });
  const pairs: [number, number][] = [];
  for (const members of groups.values()) {
    for (let x = 0; x < members.length; x++) for (let y = x + 1; y < members.length; y++) pairs.push([members[x], members[y]]);
  }
  return pairs;
}

/** The text the similarity reads: what the model reads first (name, purpose, when to use). */
export function describeForSimilarity(tool: LintTool): string {
  return [tool.name, tool.purpose ?? "", ...tool.use_when].join("\n");
}

/** Groups of three or more tools linked by rival pairs (connected components), in registry order. */
export function findClusters(pairs: RivalPair[]): LintTool[][] {
  const parent = new Map<LintTool, LintTool>();
  const root = (tool: LintTool): LintTool => {
    let node = tool;
    while (parent.get(node) !== node) node = parent.get(node) ?? node;
    parent.set(tool, node);
    return node;
  };
  for (const { a, b } of pairs) {
    if (!parent.has(a)) parent.set(a, a);
    if (!parent.has(b)) parent.set(b, b);
    parent.set(root(a), root(b));
  }
  const groups = new Map<LintTool, LintTool[]>();
  for (const tool of parent.keys()) {
    const members = groups.get(root(tool)) ?? [];
    members.push(tool);
    groups.set(root(tool), members);
  }
  return [...groups.values()]
    .filter((members) => members.length >= 3)
    .map((members) => members.sort((x, y) => x.index - y.index))
    .sort((x, y) => x[0].index - y[0].index);
}
