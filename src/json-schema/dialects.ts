/**
 * The JSON Schema dialects a tool's input_schema may declare with `$schema` (MCP servers send
 * draft-07 and draft-04 as often as 2020-12); none means 2020-12, as MCP specifies. Each dialect
 * has its own Ajv (draft-04 through ajv-draft-04), all matching patterns in linear time.
 */
import type { AnySchema, ErrorObject, Options, ValidateFunction } from "ajv";
import { createRequire } from "node:module";
import { linearRegExpEngine } from "../text/linear-regexp.js";
import type { JsonObject } from "../types.js";

export const DIALECTS = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"] as const;
export type Dialect = (typeof DIALECTS)[number];

/** What route-eval asks of each dialect's Ajv. */
export interface DialectAjv {
  validateSchema(schema: AnySchema): boolean | Promise<unknown>;
  compile(schema: AnySchema): ValidateFunction;
  removeSchema(schema: AnySchema): unknown;
  errors?: ErrorObject[] | null;
}

const BY_URI: Record<string, Dialect> = {
  "json-schema.org/draft-04/schema": "draft-04",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft/2020-12/schema": "2020-12",
};

/**
 * The dialect `schema` declares; a string for a `$schema` route-eval does not know. Without
 * `$schema` it is 2020-12 — unless the schema uses a keyword only draft-04 reads that way (then
 * draft-04, as the server that wrote it meant; draft04Marker says which, for a warning).
 */
export function dialectOf(schema: JsonObject): Dialect | { unknown: string } {
  const declared = schema.$schema;
  if (declared === undefined) return draft04Marker(schema) === null ? "2020-12" : "draft-04";
  const key =
    typeof declared === "string" ? declared.replace(/^https?:\/\//, "").replace(/#$/, "") : "";
  return (
    BY_URI[key] ?? { unknown: typeof declared === "string" ? declared : JSON.stringify(declared) }
  );
}

/** Where a schema places its subschemas: under these keys one schema, each value, or each item. */
const ONE = [
  "additionalProperties",
  "items",
  "not",
  "additionalItems",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
];
const EACH_VALUE = ["properties", "patternProperties", "definitions", "$defs", "dependencies"];
const EACH_ITEM = ["allOf", "anyOf", "oneOf", "items"];

/**
 * A schema without `$schema` that only draft-04 reads as written: a boolean exclusiveMinimum or
 * exclusiveMaximum (a number since draft-06), or `id` naming the schema (`$id` since draft-06).
 * Returns where and what (`properties.radius_km: boolean exclusiveMinimum`), or null.
 */
export function draft04Marker(schema: JsonObject): string | null {
  if (schema.$schema !== undefined) return null;
  // The path is built only for the marker found, on the way back out (most schemas have none).
  const visit = (node: unknown, path: string[]): string | null => {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return null;
    const here = node as JsonObject;
    for (const key of ["exclusiveMinimum", "exclusiveMaximum"])
      if (typeof here[key] === "boolean") return `boolean ${key}`;
    if (typeof here.id === "string" && here.$id === undefined && typeof here.type !== "undefined")
      return `"id" for "$id"`;
    const found = (step: string, value: unknown): string | null => {
      const what = visit(value, path);
      if (what !== null) path.push(step);
      return what;
    };
    for (const key of ONE) {
      const what = here[key] === undefined ? null : found(key, here[key]);
      if (what !== null) return what;
    }
    for (const key of EACH_VALUE) {
      const values = here[key];
      if (typeof values !== "object" || values === null || Array.isArray(values)) continue;
      for (const name in values) {
        const what = found(`${key}.${name}`, values[name]);
        if (what !== null) return what;
      }
    }
    for (const key of EACH_ITEM) {
      const items = here[key];
      if (!Array.isArray(items)) continue;
      for (let i = 0; i < items.length; i++) {
        const what = found(`${key}[${i}]`, items[i]);
        if (what !== null) return what;
      }
    }
    return null;
  };
  const path: string[] = [];
  const what = visit(schema, path);
  return what === null ? null : path.length === 0 ? what : `${path.reverse().join(".")}: ${what}`;
}

export function describeUnknownDialect(value: string): string {
  return `unknown JSON Schema dialect "${value}" (route-eval reads ${DIALECTS.join(", ")}; without $schema, 2020-12)`;
}

const require = createRequire(import.meta.url);

/** The options of the Ajv that checks tools' schemas against their dialect's meta-schema (schema-problems.ts). */
export const META_CHECK_OPTIONS: Options = { allErrors: false, verbose: true };

/**
 * What decides the code of a dialect's meta-schema validator: compiled ahead (scripts/build.js)
 * with the meta-schema's own patterns in native RegExp (they are route-eval's, not a tool's), it
 * serves only while Ajv and these options are the same.
 */
export function metaCheckSource(dialect: Dialect): unknown {
  return {
    dialect,
    ajv: (require("ajv/package.json") as { version: string }).version,
    options: META_CHECK_OPTIONS,
  };
}

/** One Ajv per dialect with these options, each made when its dialect is first asked for. */
export function dialectAjvs(options: Options): (dialect: Dialect) => DialectAjv {
  const made = new Map<Dialect, DialectAjv>();
  return (dialect) => {
    let ajv = made.get(dialect);
    if (ajv === undefined) made.set(dialect, (ajv = createDialectAjv(dialect, options)));
    return ajv;
  };
}

/** A new Ajv for `dialect`: tools' schemas are third-party, so unknown keywords are tolerated; patterns run in linear time. */
function createDialectAjv(dialect: Dialect, options: Options): DialectAjv {
  const all: Options = {
    strict: false,
    logger: false,
    ...options,
    code: { regExp: linearRegExpEngine, ...options.code },
  };
  // Each Ajv is loaded only when a dialect needs it (most runs use the meta-schema checks compiled ahead).
  const AjvDraft07 = () => (require("ajv") as typeof import("ajv")).Ajv;
  switch (dialect) {
    case "draft-04": {
      // ajv-draft-04 is CommonJS whose module.exports is the class.
      const AjvDraft04 = require("ajv-draft-04") as new (options: Options) => DialectAjv;
      return new AjvDraft04(all);
    }
    case "draft-06": {
      const ajv = new (AjvDraft07())(all);
      ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
      return ajv;
    }
    case "draft-07":
      return new (AjvDraft07())(all);
    case "2019-09":
      return new (require("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js")).Ajv2019(all);
    case "2020-12":
      return new (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020(all);
  }
}
