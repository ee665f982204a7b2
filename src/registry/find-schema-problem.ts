/**
 * findJsonSchemaProblem at lint speed. Compiling a schema with ajv costs milliseconds, too much
 * for a 1,000-tool registry, and it only finds what the meta-schema cannot: unresolvable
 * references and regular expressions that do not compile. So the meta-schema is checked always,
 * and the full check (with its exact message) runs only for schemas with a reference or a
 * pattern that JavaScript rejects.
 */
import { findJsonSchemaProblem, findMetaSchemaProblem } from "../json-schema/schema-problems.js";
import type { SchemaProblem } from "../json-schema/describe-errors.js";
import type { JsonObject, JsonValue } from "../types.js";
import { linearPatternProblem } from "../text/linear-regexp.js";

const REFERENCES = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);
/** Keywords whose values are data, not subschemas. */
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples"]);

export function findSchemaProblem(schema: JsonObject): SchemaProblem | null {
  return (
    findMetaSchemaProblem(schema) ?? (needsCompile(schema) ? findJsonSchemaProblem(schema) : null)
  );
}

function needsCompile(node: JsonValue): boolean {
  if (Array.isArray(node)) return node.some(needsCompile);
  if (typeof node !== "object" || node === null) return false;
  for (const [key, value] of Object.entries(node)) {
    if (REFERENCES.has(key)) return true;
    if (key === "pattern" && typeof value === "string" && !compiles(value)) return true;
    if (
      key === "patternProperties" &&
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value)
    ) {
      if (Object.keys(value).some((pattern) => !compiles(pattern))) return true;
    }
    if (!DATA_KEYWORDS.has(key) && needsCompile(value)) return true;
  }
  return false;
}

/** Patterns are matched by RE2 (text/linear-regexp.ts); one it cannot take needs the full check for its message. */
function compiles(pattern: string): boolean {
  return linearPatternProblem(pattern) === null;
}
