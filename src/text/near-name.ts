/** "Did you mean …?" for tool names: small edits, or the same words in another order. */
import { distance } from "fastest-levenshtein";

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
export function editDistance(a: string, b: string): number {
  return distance(a, b);
}

/**
 * The candidate closest to `name` when it looks like a typo of it: at most max(1, ⌊length/5⌋)
 * edits (case-insensitive), or the same words in another order. Ties go to the earlier candidate.
 */
export function findNearName(name: string, candidates: Iterable<string>): string | null {
  const limit = Math.max(1, Math.floor(name.length / 5));
  const words = wordsOf(name);
  let best: { name: string; distance: number } | null = null;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance =
      wordsOf(candidate) === words ? 0 : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === null || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name ?? null;
}

function wordsOf(name: string): string {
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .sort()
    .join(" ");
}
