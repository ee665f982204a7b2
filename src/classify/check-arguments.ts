/**
 * Argument checks for the selected tool: validity against its input_schema (in its `$schema` dialect; 2020-12 when none)
 * and the case's expectations on values. Pure apart from a cache of compiled validators.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import {
  describeUnknownDialect,
  dialectAjvs,
  dialectOf,
  type Dialect,
} from "../json-schema/dialects.js";
import { findMetaSchemaProblem } from "../json-schema/schema-problems.js";
import { describeProblem } from "../json-schema/describe-errors.js";
import { compileLinear } from "../text/linear-regexp.js";
import { whenIdle } from "../text/when-idle.js";
import type { ArgExpectation, JsonObject, JsonValue } from "../types.js";

// addUsedSchema:false keeps two tools whose schemas share an $id from colliding in one instance;
// code.optimize:false skips Ajv's pass over the code it generates (the same checks, compiled a
// third faster: a run compiles each visible tool's schema once and checks a call or two with it);
// validateSchema:false, as the meta-schema check compiled ahead comes first (compileText): Ajv's
// own would compile the meta-schema at the first answer (25 ms while the first replies wait).
const ajvOf = dialectAjvs({
  allErrors: true,
  validateFormats: false,
  validateSchema: false,
  addUsedSchema: false,
  code: { optimize: false },
});
const validators = new Map<string, ValidateFunction | string>();
/** By the schema object too: a registry's tools are checked trial after trial with the same objects. */
const byObject = new WeakMap<JsonObject, ValidateFunction | string>();

/** Compile once per distinct schema text; a schema that does not compile is remembered as its message. */
function compileSchema(schema: JsonObject): ValidateFunction | string {
  const known = byObject.get(schema);
  if (known !== undefined) return known;
  const compiled = compileText(schema);
  byObject.set(schema, compiled);
  return compiled;
}

function compileText(schema: JsonObject): ValidateFunction | string {
  const key = JSON.stringify(schema);
  const cached = validators.get(key);
  if (cached !== undefined) return cached;
  let compiled: ValidateFunction | string;
  const dialect = dialectOf(schema);
  try {
    if (typeof dialect !== "string")
      compiled = `(schema): ${describeUnknownDialect(dialect.unknown)}`;
    else {
      const problem = findMetaSchemaProblem(schema);
      compiled =
        problem === null
          ? ajvOf(dialect).compile(schema)
          : `(schema): invalid input_schema: ${describeProblem(problem)}`;
    }
  } catch (error) {
    compiled = `(schema): invalid input_schema: ${error instanceof Error ? error.message : String(error)}`;
  }
  validators.set(key, compiled);
  return compiled;
}

/**
 * Loads Ajv for the dialects of these schemas while the event loop is idle (text/when-idle.ts): a
 * live run's first answers would otherwise wait for it (about 60 ms) at the first argument check.
 */
export function prepareArgumentChecks(schemas: Iterable<JsonObject>): void {
  const dialects = new Set<Dialect>();
  for (const schema of schemas) {
    const dialect = dialectOf(schema);
    if (typeof dialect === "string") dialects.add(dialect);
  }
  for (const dialect of dialects) whenIdle(() => ajvOf(dialect));
}

/** `/order_id: must be string`, `(root): must have required property 'order_id'`. */
function formatError(error: ErrorObject): string {
  const place = error.instancePath === "" ? "(root)" : error.instancePath;
  const extra = error.params.additionalProperty;
  const detail = typeof extra === "string" ? ` '${extra}'` : "";
  return `${place}: ${error.message ?? "is invalid"}${detail}`;
}

/** Validation messages for `args` against `schema`; [] when valid. */
export function checkArguments(schema: JsonObject, args: JsonValue): string[] {
  const validate = compileSchema(schema);
  if (typeof validate === "string") return [validate];
  if (validate(args)) return [];
  return (validate.errors ?? []).map(formatError);
}

/** Deep JSON equality; object key order is irrelevant, array order is not. */
export function equalJson(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => equalJson(item, b[i]))
    );
  }
  if (!isJsonObject(a) || !isJsonObject(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && equalJson(a[key], b[key]))
  );
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `{pattern: "re"}` (exactly that one string key) is a regular expression; anything else is an exact value. */
export function isPatternExpectation(
  expectation: ArgExpectation,
): expectation is { pattern: string } {
  return (
    isJsonObject(expectation) &&
    Object.keys(expectation).length === 1 &&
    typeof expectation.pattern === "string"
  );
}

/** The string a pattern is tested against: strings as is, numbers/booleans via String(), the rest as JSON. */
function stringForm(value: JsonValue): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function checkExpectation(
  name: string,
  expectation: ArgExpectation,
  actual: JsonValue | undefined,
): string | null {
  if (actual === undefined) return `${name}: missing`;
  if (isPatternExpectation(expectation)) {
    let regex: { test(text: string): boolean };
    try {
      regex = compileLinear(expectation.pattern);
    } catch {
      return `${name}: invalid pattern /${expectation.pattern}/`;
    }
    return regex.test(stringForm(actual))
      ? null
      : `${name}: ${JSON.stringify(actual)} does not match /${expectation.pattern}/`;
  }
  return equalJson(expectation, actual)
    ? null
    : `${name}: expected ${JSON.stringify(expectation)}, got ${JSON.stringify(actual)}`;
}

/** Whether `args` meets every expectation; a missing argument is a mismatch. Mismatches follow `expected` key order. */
export function matchArguments(
  expected: Record<string, ArgExpectation>,
  args: JsonValue,
): { match: boolean; mismatches: string[] } {
  const actual: JsonObject = isJsonObject(args) ? args : {};
  const mismatches = Object.entries(expected)
    .map(([name, expectation]) =>
      checkExpectation(name, expectation, Object.hasOwn(actual, name) ? actual[name] : undefined),
    )
    .filter((message): message is string => message !== null);
  return { match: mismatches.length === 0, mismatches };
}
