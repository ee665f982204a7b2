import { createRequire } from "node:module";

/** A value made on first use: costly set-up (schema compiles, SDK loads) stays off commands that never need it. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

const require = createRequire(import.meta.url);

/** A dependency loaded (CommonJS `require`) at its first use: a command that never needs it never pays its start-up. */
export function lazyRequire<T>(specifier: string): () => T {
  return lazy(() => require(specifier) as T);
}
