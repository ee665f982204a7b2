/**
 * The JSON Schema dialects a tool's input_schema may declare with `$schema` (MCP servers send
 * draft-07 and draft-04 as often as 2020-12); none means 2020-12, as MCP specifies. Each dialect
 * has its own Ajv (draft-04 through ajv-draft-04), all matching patterns in linear time.
 */
import { Ajv as AjvDraft07, type Options } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { AnySchema, ErrorObject, ValidateFunction } from "ajv";
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

/** The dialect `schema` declares; a string for a `$schema` route-eval does not know. */
export function dialectOf(schema: JsonObject): Dialect | { unknown: string } {
  const declared = schema.$schema;
  if (declared === undefined) return "2020-12";
  const key = typeof declared === "string" ? declared.replace(/^https?:\/\//, "").replace(/#$/, "") : "";
  return BY_URI[key] ?? { unknown: typeof declared === "string" ? declared : JSON.stringify(declared) };
}

export function describeUnknownDialect(value: string): string {
  return `unknown JSON Schema dialect "${value}" (route-eval reads ${DIALECTS.join(", ")}; without $schema, 2020-12)`;
}

const require = createRequire(import.meta.url);
// ajv-draft-04 is CommonJS whose module.exports is the class.
const AjvDraft04: new (options: Options) => DialectAjv = require("ajv-draft-04");

/** A new Ajv for `dialect`: tools' schemas are third-party, so unknown keywords are tolerated. */
export function createDialectAjv(dialect: Dialect, options: Options): DialectAjv {
  const all: Options = { strict: false, logger: false, ...options, code: { regExp: linearRegExpEngine } };
  switch (dialect) {
    case "draft-04":
      return new AjvDraft04(all);
    case "draft-06": {
      const ajv = new AjvDraft07(all);
      ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
      return ajv;
    }
    case "draft-07":
      return new AjvDraft07(all);
    case "2019-09":
      return new Ajv2019(all);
    case "2020-12":
      return new Ajv2020(all);
  }
}
