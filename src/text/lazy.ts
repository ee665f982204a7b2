/** A value made on first use: costly set-up (schema compiles, SDK loads) stays off commands that never need it. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
