/**
 * How deep a parsed JSON value nests, measured without recursion: route-eval's readers walk
 * values recursively, so a value nested deeper than MAX_JSON_DEPTH (a trace's arguments nested
 * 100,000 deep) is refused where it is read — a line-numbered error, or an argument error —
 * instead of overflowing the stack later.
 */
export const MAX_JSON_DEPTH = 500;

/** Whether `value` nests arrays and objects more than `limit` levels deep. */
export function nestsDeeper(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== "object") continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}
