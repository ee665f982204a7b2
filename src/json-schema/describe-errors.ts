/**
 * The one error formatter: ajv errors → the single most useful problem, worded for someone
 * editing YAML ("missing required field", "unknown key", "expected a list, got …").
 */
import type { JsonPath } from "../types/json.js";
import type { ErrorObject } from "ajv/dist/2020.js";
import { editDistance } from "../text/near-name.js";

export interface SchemaProblem {
  /** Where to point the line: one key deeper than `path` for an unknown key. */
  at: JsonPath;
  /** What the message names, e.g. ["cases", 3, "acceptable"]. */
  path: JsonPath;
  /** What was expected, e.g. `missing required field "goal"`. */
  message: string;
}

/** The most useful of ajv's errors (needs ajv's `verbose: true`), described. `errors` is non-empty. */
export function describeSchemaErrors(errors: ErrorObject[], data: unknown): SchemaProblem {
  const error = pickError(errors);
  const path = toJsonPath(error.instancePath, data);
  const value = valueAt(data, path);
  const unknownKey =
    stringParam(error, "additionalProperty") ?? stringParam(error, "unevaluatedProperty");
  if (unknownKey !== null) {
    return {
      path,
      at: [...path, unknownKey],
      message: describeUnknownKey(unknownKey, error.parentSchema),
    };
  }
  if (error.keyword === "uniqueItems") {
    const index = Number(error.params.i);
    return {
      path,
      at: [...path, index],
      message: `lists ${showValue(child(value, index))} more than once`,
    };
  }
  return { path, at: path, message: describeError(error, value) };
}

/** A problem as one phrase: `properties.a.type: expected …`, or its message alone at the root. */
export function describeProblem(problem: SchemaProblem): string {
  return problem.path.length === 0
    ? problem.message
    : `${formatPath(problem.path)}: ${problem.message}`;
}

/** `cases[3].acceptable`; keys that are not identifiers are quoted: `gates["pass^k"]`. */
export function formatPath(path: JsonPath): string {
  return path
    .map((key, i) => {
      if (typeof key === "number") return `[${key}]`;
      if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(key)) return i === 0 ? key : `.${key}`;
      return `[${JSON.stringify(key)}]`;
    })
    .join("");
}

/**
 * The first problem in the data, described as well as possible. Candidates: errors at the same
 * place as the first (an unknown key beats the "missing" key it explains) and, when the first
 * came from one branch of an anyOf/oneOf, the other branches' errors below it. The deepest wins
 * (that branch went furthest), then an unknown key, then a schema-given message.
 */
function pickError(errors: ErrorObject[]): ErrorObject {
  const useful = errors.filter((error) => error.keyword !== "if");
  const pool = useful.length > 0 ? useful : errors;
  const first = pool[0];
  const branches = /^(.*\/(?:anyOf|oneOf)\/)\d+\//.exec(first.schemaPath)?.[1] ?? null;
  const related = pool.filter(
    (error) =>
      error.instancePath === first.instancePath ||
      (branches !== null &&
        error.schemaPath.startsWith(branches) &&
        error.instancePath.startsWith(`${first.instancePath}/`)),
  );
  return related.reduce((best, error) => (rankError(error) > rankError(best) ? error : best));
}

function rankError(error: ErrorObject): number {
  const depth = error.instancePath === "" ? 0 : error.instancePath.split("/").length - 1;
  const unknownKey =
    error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties";
  return depth * 4 + (unknownKey ? 2 : 0) + (schemaMessage(error) !== null ? 1 : 0);
}

function describeError(error: ErrorObject, value: unknown): string {
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case "required":
      return `missing required field "${String(error.params.missingProperty)}"`;
    case "type":
      return `expected ${describeTypes(String(error.params.type))}, got ${showValue(value)}${quoteHint(error, value)}`;
    case "enum":
      return `expected one of: ${listValues(error.params.allowedValues)} (got ${showValue(value)})`;
    case "const":
      return `expected ${showValue(error.params.allowedValue)} (got ${showValue(value)})`;
    case "minItems":
      return `must have at least ${limit} item${limit === 1 ? "" : "s"}`;
    case "maxItems":
      return `must have at most ${limit} item${limit === 1 ? "" : "s"}`;
    case "minLength":
      return limit === 1 ? "must not be empty" : `must be at least ${limit} characters long`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(error.params.comparison)} ${limit} (got ${showValue(value)})`;
    case "pattern":
      return (
        schemaMessage(error) ??
        `must match ${String(error.params.pattern)} (got ${showValue(value)})`
      );
    default:
      return schemaMessage(error) ?? error.message ?? "is not valid";
  }
}

/** YAML reads 2026.1 or yes as a number or boolean; quoting keeps the text. */
function quoteHint(error: ErrorObject, value: unknown): string {
  const wantsString = String(error.params.type).split(",").includes("string");
  return wantsString && (typeof value === "number" || typeof value === "boolean")
    ? " (quote it to keep it text)"
    : "";
}

/** Editor-recognised message keywords (VS Code, yaml-language-server) carried by our schemas. */
function schemaMessage(error: ErrorObject): string | null {
  const key = error.keyword === "pattern" ? "patternErrorMessage" : "errorMessage";
  const message: unknown = error.parentSchema?.[key];
  return typeof message === "string" && error.keyword !== "required" ? message : null;
}

function describeUnknownKey(key: string, schema: unknown): string {
  const known = [...new Set(propertyNames(schema))];
  if (known.length === 0) return `unknown key "${key}"`;
  const near = known.find(
    (name) => name !== key && editDistance(name, key) <= (name.length >= 5 ? 2 : 1),
  );
  const hint = near === undefined ? "" : `did you mean "${near}"? `;
  return `unknown key "${key}" (${hint}expected one of: ${known.join(", ")})`;
}

/** Property names a schema object admits, including those of its allOf/anyOf/oneOf/then branches. */
function propertyNames(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const own = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const branches = ["allOf", "anyOf", "oneOf"].flatMap((key) => asArray(schema[key]));
  const nested = [...branches, schema.then, schema.else].flatMap(propertyNames);
  return [...own, ...nested];
}

const TYPE_WORDS: Record<string, string> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  null: "null",
};

function describeTypes(types: string): string {
  return types
    .split(",")
    .map((type) => TYPE_WORDS[type] ?? type)
    .join(" or ");
}

function showValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (isRecord(value)) return "a mapping";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function listValues(values: unknown): string {
  return asArray(values)
    .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
    .join(", ");
}

function stringParam(error: ErrorObject, name: string): string | null {
  const value: unknown = error.params[name];
  return typeof value === "string" ? value : null;
}

/** JSON pointer → path, with array positions as numbers. */
function toJsonPath(pointer: string, data: unknown): JsonPath {
  const path: JsonPath = [];
  let node = data;
  for (const raw of pointer === "" ? [] : pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const segment = Array.isArray(node) ? Number(key) : key;
    path.push(segment);
    node = child(node, segment);
  }
  return path;
}

function valueAt(data: unknown, path: JsonPath): unknown {
  return path.reduce<unknown>((node, key) => child(node, key), data);
}

function child(node: unknown, key: string | number): unknown {
  if (Array.isArray(node)) return typeof key === "number" ? node[key] : undefined;
  return isRecord(node) ? node[String(key)] : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
