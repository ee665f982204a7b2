/**
 * How deep a parsed JSON value nests, measured before anything walks it: route-eval's readers walk
 * values recursively, so a value nested deeper than MAX_JSON_DEPTH (a trace's arguments nested
 * 100,000 deep) is refused where it is read — a line-numbered error, or an argument error —
 * instead of overflowing the stack later. The measure itself recurses at most `limit` + 1 calls
 * deep, whatever the value, and allocates nothing (a shadow measures every span it reads).
 */
export const MAX_JSON_DEPTH = 500;

/** Whether `value` nests arrays and objects more than `limit` levels deep. */
export function nestsDeeper(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  return deeperThan(value, limit);
}

/** Whether `item` is an array or object that nests more than `levels` levels (itself the first). */
function deeperThan(item: unknown, levels: number): boolean {
  if (item === null || typeof item !== "object") return false;
  if (levels === 0) return true;
  if (Array.isArray(item)) {
    for (const child of item as unknown[])
      if (typeof child === "object" && child !== null && deeperThan(child, levels - 1)) return true;
    return false;
  }
  const members = item as Record<string, unknown>;
  for (const key in members) {
    const child = members[key];
    if (typeof child === "object" && child !== null && deeperThan(child, levels - 1)) return true;
  }
  return false;
}
