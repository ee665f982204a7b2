import {
  type DiscoveryConfig,
  type Discovery,
  type RankedName,
  type RetrievalSummary,
  RUNNERS_UP,
  isControl,
} from "../types.js";
import { ranksBefore, topK } from "./bm25.js";
import type { Retriever } from "./retriever.js";

/**
 * The visible set: ordinary exposed tools kept by the retriever (all of them with retriever
 * `none`), in rank order, then the exposed controls. Controls never consume the budget k.
 * `acceptable` are the case's acceptable tools, whose ranks the record keeps.
 */
export async function discover(
  exposed: string[],
  goal: string,
  acceptable: readonly string[],
  discovery: DiscoveryConfig,
  retriever: Retriever | null,
): Promise<Discovery> {
  const { controls, ordinary, shown } = split(exposed);
  if (discovery.retriever === "none" || retriever === null) {
    return { visible: shown, retrieved: ordinary, k: null, retrieval: null };
  }
  const k = discovery.k ?? ordinary.length;
  const scores = await retriever.score(goal, ordinary);
  const top = topK(scores, ordinary, k + RUNNERS_UP);
  const retrieved = top.slice(0, k);
  return {
    visible: [...retrieved, ...controls],
    retrieved,
    k,
    retrieval: summarise(scores, ordinary, top, acceptable),
  };
}

interface Split {
  controls: string[];
  ordinary: string[];
  /** Without a retriever, the visible set: one array shared by every trial of the phase (records name it by id). */
  shown: string[];
}

/** Controls and ordinary tools of an exposed set; every trial of a phase shares one set, split once. */
function split(exposed: string[]): Split {
  let parts = splits.get(exposed);
  if (parts === undefined) {
    const controls = exposed.filter((name) => isControl(name));
    const ordinary = exposed.filter((name) => !isControl(name));
    parts = { controls, ordinary, shown: [...ordinary, ...controls] };
    splits.set(exposed, parts);
  }
  return parts;
}

const splits = new WeakMap<string[], Split>();

/**
 * The record's view of the ranking. An acceptable tool below the kept top is ranked by counting
 * the candidates that rank before it (the order topK keeps: score, then id), never by sorting
 * the registry.
 */
function summarise(
  scores: ReadonlyMap<string, number>,
  ordinary: string[],
  top: string[],
  acceptable: readonly string[],
): RetrievalSummary {
  const score = (name: string) => scores.get(name) ?? 0;
  const place = (name: string, rank: number): RankedName => ({
    name,
    rank,
    score: round(score(name)),
  });
  const exposed = setOnce(ordinary);
  const ranked = acceptable
    .filter((name) => exposed.has(name))
    .map((name) => {
      const index = top.indexOf(name);
      if (index !== -1) return place(name, index + 1);
      return place(name, countBefore(scores, ordinary, name) + 1);
    })
    .sort((a, b) => a.rank - b.rank);
  return {
    candidates: ordinary.length,
    top: top.map((name, index) => place(name, index + 1)),
    acceptable: ranked,
  };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * Candidates ranking before `name`. The scored entries are visited once; the candidates without a
 * score count 0, so they rank before `name` all together (its score is negative), or those with a
 * smaller id (its score is 0: found by binary search in the candidates sorted once), or none.
 */
function countBefore(
  scores: ReadonlyMap<string, number>,
  candidates: string[],
  name: string,
): number {
  const own = scores.get(name) ?? 0;
  let before = 0;
  let scoredBelow = 0;
  // forEach, not for…of: a ScoreTable walks its arrays without an entry per document.
  scores.forEach((value, other) => {
    if (ranksBefore(value, other, own, name)) before += 1;
    if (own === 0 && other < name) scoredBelow += 1;
  });
  if (own > 0) return before;
  if (own < 0) return before + candidates.length - scores.size;
  return before + countBelow(sortedOnce(candidates), name) - scoredBelow;
}

/** Entries of a sorted list that are < name (code-unit order, as ranksBefore compares ids). */
function countBelow(sorted: string[], name: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < name) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sortedOnce(candidates: string[]): string[] {
  let sorted = sortedLists.get(candidates);
  if (sorted === undefined) sortedLists.set(candidates, (sorted = [...candidates].sort()));
  return sorted;
}

const sortedLists = new WeakMap<string[], string[]>();

/** The candidates as a set, made once per list: every case of a phase shares one (no cases × tools term). */
function setOnce(candidates: string[]): Set<string> {
  let set = candidateSets.get(candidates);
  if (set === undefined) candidateSets.set(candidates, (set = new Set(candidates)));
  return set;
}

const candidateSets = new WeakMap<string[], Set<string>>();
