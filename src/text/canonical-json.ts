/** JSON with object keys sorted recursively: the same value always serialises to the same text. */
export function canonicalJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortKeys(value), null, indent);
}

export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value).sort();
    const source = value as Record<string, unknown>;
    return Object.fromEntries(keys.map((key) => [key, sortKeys(source[key])]));
  }
  return value;
}
