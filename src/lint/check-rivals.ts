/** rivals: pairs of near tools with their score, and clusters of three or more. */
import { findClusters } from "./find-clusters.js";
import {
  LISTED_MEMBERS,
  LISTED_PAIRS,
  LISTED_PAIRS_IN_LARGE_CLUSTER,
  listSome,
  rivalPairAt,
  type RivalPair,
  type RivalPairs,
} from "./find-rivals.js";
import type { LintRegistry } from "./lint-input.js";
import type { Tool } from "../types.js";
import { finding, type Finding } from "./rules.js";

/**
 * One finding per rival pair, anchored at its first tool — at most a few per tool, its strongest
 * (pairs come strongest first), the last of them counting the rest — and one per cluster.
 */
export function checkRivals(registry: LintRegistry, pairs: RivalPairs): Finding[] {
  const clusters = findClusters(pairs);
  const inLargeCluster = new Uint8Array(registry.tools.length);
  for (const members of clusters)
    if (members.length > LISTED_MEMBERS)
      for (const tool of members) inLargeCluster[registry.indexOf(tool)] = 1;
  // Per first tool (by position): its pairs, and how many were met so far.
  const total = new Int32Array(registry.tools.length);
  for (let k = 0; k < pairs.length; k++) total[pairs.ai[k]] += 1;
  const seen = new Int32Array(registry.tools.length);
  const findings: Finding[] = [];
  for (let k = 0; k < pairs.length; k++) {
    const ai = pairs.ai[k];
    const index = seen[ai]++;
    const listed = inLargeCluster[ai] === 1 ? LISTED_PAIRS_IN_LARGE_CLUSTER : LISTED_PAIRS;
    if (index >= listed) continue;
    const all = total[ai];
    const unlisted = index === Math.min(listed, all) - 1 ? all - listed : 0;
    findings.push(rivalPairFinding(registry, rivalPairAt(pairs, k), unlisted));
  }
  for (const members of clusters) findings.push(clusterFinding(registry, members));
  return findings;
}

function rivalPairFinding(registry: LintRegistry, pair: RivalPair, unlisted: number): Finding {
  const { a, b } = pair;
  const ab = namesRival(a, b);
  const ba = namesRival(b, a);
  return finding({
    rule: "rival-pair",
    file: registry.file,
    line: registry.lineOf(["tools", registry.indexOf(a), "name"]),
    tool: a.name,
    message:
      `${a.name} and ${b.name} are rivals: score ${pair.score.toFixed(2)} (${explainScore(pair)}); ${describeContrast(a, b, ab, ba)}` +
      (unlisted > 0
        ? `; ${a.name} has ${unlisted} more rival${unlisted === 1 ? "" : "s"} below these, not listed`
        : ""),
    fix: suggestContrast(a, b, ab, ba),
    related: [b.name],
    score: round(pair.score),
  });
}

function describeContrast(a: Tool, b: Tool, ab: boolean, ba: boolean): string {
  if (ab && ba) return "each avoid_when names the other";
  if (ab) return `${b.name}'s avoid_when never names ${a.name}`;
  if (ba) return `${a.name}'s avoid_when never names ${b.name}`;
  return "neither avoid_when names the other";
}

function suggestContrast(a: Tool, b: Tool, ab: boolean, ba: boolean): string {
  if (ab && ba)
    return "keep the contrast sharp; if cases still confuse them, merge them or rename one for what sets it apart";
  const [loser, winner] = ab ? [b, a] : [a, b];
  const example = `"<when ${winner.name} fits>; use ${winner.name}."`;
  if (ab || ba)
    return `add to ${loser.name}'s avoid_when the case ${winner.name} wins, naming it: ${example}`;
  return `add to each avoid_when the case the other wins, naming it, e.g. to ${a.name}'s: ${example}`;
}

function clusterFinding(registry: LintRegistry, members: Tool[]): Finding {
  const names = members.map((tool) => tool.name);
  return finding({
    rule: "rival-cluster",
    file: registry.file,
    line: registry.lineOf(["tools", registry.indexOf(members[0]), "name"]),
    tool: names[0],
    // Every pair of members is a rival pair (complete linkage); the pair findings list only each tool's strongest.
    message: `${members.length} tools compete for the same requests, all ${(members.length * (members.length - 1)) / 2} pairs among them rivals (the rival-pair findings list each tool's strongest): ${listSome(names, LISTED_MEMBERS)}`,
    fix: "merge them into one tool with a parameter that selects the mode, or make each avoid_when name the others with the case it loses",
    related: names.slice(1),
  });
}

/** `names 0.80: synonym verbs "get"/"search" over "order"; text 0.18`. */
export function explainScore(pair: RivalPair): string {
  const names = pair.names > 0 ? `names ${pair.names.toFixed(2)}: ${pair.why}; ` : "";
  return `${names}text cosine ${pair.text.toFixed(2)}`;
}

/** Per tool, the words of its avoid_when (runs of [A-Za-z0-9_-]). */
const avoidWords = new WeakMap<Tool, Set<string>>();
/** Per name: null when it is one such word (named exactly when it is one of the words), else the pattern that finds it whole. */
const patterns = new Map<string, RegExp | null>();

/** Whether `tool`'s avoid_when names `rival` (as a whole word: not inside a longer run of [A-Za-z0-9_-]). */
export function namesRival(tool: Tool, rival: Tool): boolean {
  let pattern = patterns.get(rival.name);
  if (pattern === undefined) {
    pattern = /^[A-Za-z0-9_-]+$/.test(rival.name)
      ? null
      : new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(rival.name)}($|[^A-Za-z0-9_-])`);
    patterns.set(rival.name, pattern);
  }
  if (pattern === null) {
    let words = avoidWords.get(tool);
    if (words === undefined)
      avoidWords.set(
        tool,
        (words = new Set(tool.avoid_when.flatMap((line) => line.match(/[A-Za-z0-9_-]+/g) ?? []))),
      );
    return words.has(rival.name);
  }
  const found = pattern;
  return tool.avoid_when.some((line) => line.includes(rival.name) && found.test(line));
}

/**
 * namesRival over one registry, by positions: whether tool i's avoid_when names tool j. Each tool's
 * words are matched to the names they are once, so a registry of a million rival pairs asks no
 * map per pair.
 */
export function avoidNaming(tools: Tool[]): (i: number, j: number) => boolean {
  const positions = new Map<string, number[]>();
  tools.forEach((tool, index) =>
    positions.set(tool.name, [...(positions.get(tool.name) ?? []), index]),
  );
  const oneWord = tools.map((tool) => /^[A-Za-z0-9_-]+$/.test(tool.name));
  const named = tools.map((tool) => {
    const words = new Set(tool.avoid_when.flatMap((line) => line.match(/[A-Za-z0-9_-]+/g) ?? []));
    return [...words].flatMap((word) => positions.get(word) ?? []);
  });
  return (i, j) => (oneWord[j] ? named[i].includes(j) : namesRival(tools[i], tools[j]));
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
