/**
 * The rival measure. Two tools are rivals when either
 *  - their descriptions overlap: TF-IDF cosine over name + purpose + use_when ≥ TEXT_THRESHOLD, or
 *  - their names compete (name-parts.ts): same or synonymous verb over a shared object, or in the
 *    same small family group, scoring ≥ NAME_THRESHOLD.
 * The pair's score is the larger of the two; both are reported.
 */
import type { Tool } from "../types.js";
import { relateNames, splitName, type NameParts, type NameRelation } from "./name-parts.js";
import { buildTfIdf, indexSimilarity } from "../text/tfidf.js";
import { descendingOrder } from "../text/descending-order.js";

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

/** "a, b, c and 4 more": the first `max` items of `total` (items may hold just those), the rest counted. */
export function listSome(items: string[], max: number, total = items.length): string {
  if (total <= max) return items.join(", ");
  return `${items.slice(0, max).join(", ")} and ${total - max} more`;
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

/**
 * Every rival pair of `tools`, as columns: pair k is tools[ai[k]] and tools[bi[k]], with its
 * scores. A large registry has a million pairs, which as objects cost their making and, far
 * more, the collector's copying of a million survivors; lint reads the columns and makes a
 * RivalPair (rivalPairAt) only for a pair it lists.
 */
export interface RivalPairs {
  tools: Tool[];
  length: number;
  ai: Int32Array;
  bi: Int32Array;
  score: Float64Array;
  text: Float64Array;
  /** The pair's name relation (shared between pairs related in the same way). */
  names: NameRelation[];
}

export function rivalPairAt(pairs: RivalPairs, k: number): RivalPair {
  const { tools, ai, bi, score, text, names } = pairs;
  return {
    a: tools[ai[k]],
    b: tools[bi[k]],
    ai: ai[k],
    bi: bi[k],
    score: score[k],
    text: text[k],
    names: names[k].score,
    why: names[k].why,
  };
}

/** Every rival pair as a RivalPair, in findRivalPairs' order (for a few hundred tools: init, monitor). */
export function findRivals(tools: Tool[]): RivalPair[] {
  const pairs = findRivalPairs(tools);
  return Array.from({ length: pairs.length }, (_, k) => rivalPairAt(pairs, k));
}

/**
 * Every rival pair, a before b in registry order, sorted by score (highest first) then position.
 * Row by row: a tool's text pairs (with their cosine) are found and spread over a scratch row,
 * then each pair that can score by name (the two share a name group) is scored once, and each
 * text pair that is not one of them.
 */
export function findRivalPairs(tools: Tool[]): RivalPairs {
  const n = tools.length;
  const { vectors } = buildTfIdf(tools.map(describeForSimilarity));
  const parts = tools.map((tool) => splitName(tool.name));
  const groups = nameGroups(tools, parts);
  const similarity = indexSimilarity(vectors, TEXT_THRESHOLD);
  const textRow = new Float64Array(n).fill(NaN);
  const texts: number[] = [];
  /** The row that last scored each column: a pair in several groups is scored once. */
  const scored = new Int32Array(n).fill(-1);
  // This row's pairs by column, then the columns in registry order.
  const namesRow: NameRelation[] = new Array<NameRelation>(n);
  const row: number[] = [];
  const found = new PairColumns();
  for (let i = 0; i < n; i++) {
    similarity.later(i, (j, value) => {
      textRow[j] = value;
      texts.push(j);
    });
    const score = (j: number) => {
      const names = relateNames(parts[i], parts[j], groups.sharedFamily(i, j));
      if (names.score < NAME_THRESHOLD && Number.isNaN(textRow[j])) return;
      namesRow[j] = names;
      row.push(j);
    };
    for (const { members, at } of groups.of[i]) {
      for (let m = at + 1; m < members.length; m++) {
        const j = members[m];
        if (scored[j] !== i) score(j);
        scored[j] = i;
      }
    }
    for (const j of texts) if (scored[j] !== i) score(j);
    row.sort((x, y) => x - y);
    for (const j of row) {
      const known = textRow[j];
      const text = Number.isNaN(known) ? similarity.cosine(i, j) : known;
      found.push(i, j, Math.max(text, namesRow[j].score), text, namesRow[j]);
    }
    for (const j of texts) textRow[j] = NaN;
    texts.length = 0;
    row.length = 0;
  }
  return found.strongestFirst(tools);
}

/** Pairs appended in registry order, then ordered by score (highest first), ties kept in that order. */
class PairColumns {
  length = 0;
  ai = new Int32Array(1024);
  bi = new Int32Array(1024);
  score = new Float64Array(1024);
  text = new Float64Array(1024);
  names: NameRelation[] = [];

  push(ai: number, bi: number, score: number, text: number, names: NameRelation): void {
    if (this.length === this.ai.length) this.grow();
    const k = this.length++;
    this.ai[k] = ai;
    this.bi[k] = bi;
    this.score[k] = score;
    this.text[k] = text;
    this.names.push(names);
  }

  strongestFirst(tools: Tool[]): RivalPairs {
    const { length, score } = this;
    const order = descendingOrder(score.subarray(0, length));
    const pairs: RivalPairs = {
      tools,
      length,
      ai: new Int32Array(length),
      bi: new Int32Array(length),
      score: new Float64Array(length),
      text: new Float64Array(length),
      names: new Array<NameRelation>(length),
    };
    for (let k = 0; k < length; k++) {
      const from = order[k];
      pairs.ai[k] = this.ai[from];
      pairs.bi[k] = this.bi[from];
      pairs.score[k] = score[from];
      pairs.text[k] = this.text[from];
      pairs.names[k] = this.names[from];
    }
    return pairs;
  }

  private grow(): void {
    const size = this.ai.length * 2;
    const wider = <T extends Int32Array | Float64Array>(from: T, to: T): T => (to.set(from), to);
    this.ai = wider(this.ai, new Int32Array(size));
    this.bi = wider(this.bi, new Int32Array(size));
    this.score = wider(this.score, new Float64Array(size));
    this.text = wider(this.text, new Float64Array(size));
  }
}

interface Membership {
  /** The group's members, in registry order. */
  members: number[];
  /** This tool's place among them. */
  at: number;
}

interface NameGroups {
  /** Per tool, the groups it is in. */
  of: Membership[][];
  /** The family both are in when each is in a small family group (see relateNames), else null. */
  sharedFamily(i: number, j: number): string | null;
}

/**
 * The groups a name can compete in: tools with the same verb class and an object word, or (when
 * there are at most FAMILY_GROUP_MAX of them) the same verb class and family. Only two tools in
 * one group can score by name.
 */
function nameGroups(tools: Tool[], parts: NameParts[]): NameGroups {
  const of: Membership[][] = tools.map(() => []);
  const inSmallFamilyGroup = new Uint8Array(tools.length);
  for (const members of groupTools(parts, (part) => part.objects).values())
    members.forEach((index, at) => of[index].push({ members, at }));
  for (const members of groupTools(parts, (_, index) => [tools[index].family]).values()) {
    if (members.length > FAMILY_GROUP_MAX) continue;
    members.forEach((index, at) => of[index].push({ members, at }));
    for (const index of members) inSmallFamilyGroup[index] = 1;
  }
  return {
    of,
    sharedFamily: (i, j) =>
      inSmallFamilyGroup[i] === 1 &&
      inSmallFamilyGroup[j] === 1 &&
      tools[i].family === tools[j].family
        ? tools[i].family
        : null,
  };
}

/** Tool indices grouped by verb class and each key `keysOf` gives: only tools in one group can score by name. */
function groupTools(
  parts: NameParts[],
  keysOf: (part: NameParts, index: number) => string[],
): Map<string, number[]> {
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

/** The text the similarity reads: what the model reads first (name, purpose, when to use). */
export function describeForSimilarity(tool: Tool): string {
  return [tool.name, tool.purpose, ...tool.use_when].join("\n");
}
