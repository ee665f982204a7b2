/**
 * Tools' JSON Schemas checked as schemas of their dialect: against its meta-schema (compiled ahead
 * when the build did), and compiled when a problem only a compile finds is possible. Tools' schemas
 * are third-party: unknown keywords and formats are tolerated, never logged; one Ajv per dialect.
 */
import type { ErrorObject } from "ajv/dist/2020.js";
import type { JsonObject } from "../types.js";
import { compiledAhead } from "./compile.js";
import { describeSchemaErrors, type SchemaProblem } from "./describe-errors.js";
import {
  describeUnknownDialect,
  dialectAjvs,
  dialectOf,
  META_CHECK_OPTIONS,
  metaCheckSource,
  type Dialect,
} from "./dialects.js";

const toolSchemaAjv = dialectAjvs(META_CHECK_OPTIONS);

/** Per dialect, its meta-schema check: compiled ahead when the build did, else the dialect's Ajv. */
const metaChecks = new Map<Dialect, (schema: JsonObject) => ErrorObject[]>();
function metaCheck(dialect: Dialect): (schema: JsonObject) => ErrorObject[] {
  let check = metaChecks.get(dialect);
  if (check === undefined) {
    const ahead = compiledAhead(`meta-${dialect}`, metaCheckSource(dialect));
    const ajv = ahead === null ? toolSchemaAjv(dialect) : null;
    check = (schema) => {
      if (ajv !== null) return ajv.validateSchema(schema) === true ? [] : (ajv.errors ?? []);
      return ahead?.(schema) === true ? [] : (ahead?.errors ?? []);
    };
    metaChecks.set(dialect, check);
  }
  return check;
}

/** The dialect of a tool's schema, or the problem of a `$schema` route-eval does not know. */
function dialectOrProblem(schema: JsonObject): Dialect | SchemaProblem {
  const dialect = dialectOf(schema);
  return typeof dialect === "string"
    ? dialect
    : { path: ["$schema"], at: ["$schema"], message: describeUnknownDialect(dialect.unknown) };
}

/**
 * Why `schema` is not a usable JSON Schema of its dialect (`$schema`; none = 2020-12), or null. Meta-schema violations
 * carry a path inside `schema`; compile failures (unresolvable $ref, bad regex…) point at its root.
 */
export function findJsonSchemaProblem(schema: JsonObject): SchemaProblem | null {
  const dialect = dialectOrProblem(schema);
  if (typeof dialect !== "string") return dialect;
  const ajv = toolSchemaAjv(dialect);
  try {
    if (ajv.validateSchema(schema) !== true) return describeSchemaErrors(ajv.errors ?? [], schema);
    ajv.compile(schema);
    return null;
  } catch (error) {
    return { path: [], at: [], message: error instanceof Error ? error.message : String(error) };
  } finally {
    ajv.removeSchema(schema);
  }
}

/** Only the meta-schema half of findJsonSchemaProblem (no compile): cheap enough for thousands of schemas. */
export function findMetaSchemaProblem(schema: JsonObject): SchemaProblem | null {
  const dialect = dialectOrProblem(schema);
  if (typeof dialect !== "string") return dialect;
  const errors = metaCheck(dialect)(schema);
  return errors.length === 0 ? null : describeSchemaErrors(errors, schema);
}
