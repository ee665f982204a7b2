/**
 * How deep a parsed JSON value nests, measured before anything walks it: route-eval's readers walk
 * values recursively, so a value nested deeper than MAX_JSON_DEPTH (a trace's arguments nested
 * 100,000 deep) is refused where it is read — a line-numbered error, or an argument error —
 * instead of overflowing the stack later. The measure itself recurses at most `limit` + 1 calls
 * deep, whatever the value, and allocates nothing (a shadow measures every span it reads).
 */
export const MAX_JSON_DEPTH = 500;

/** Whether `value` nests arrays and objects more than `limit` levels deep (itself the first). */
export function nestsDeeper(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== "object") return false;
  if (limit === 0) return true;
  if (Array.isArray(value)) {
    for (const child of value as unknown[])
      if (typeof child === "object" && child !== null && nestsDeeper(child, limit - 1)) return true;
    return false;
  }
  const members = value as Record<string, unknown>;
  for (const key in members) {
    const child = members[key];
    if (typeof child === "object" && child !== null && nestsDeeper(child, limit - 1)) return true;
  }
  return false;
}
