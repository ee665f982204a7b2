/**
 * Validation at the boundary: route-eval's own files against /schemas (one Ajv), and tools'
 * JSON Schemas against the 2020-12 meta-schema (a second, lenient Ajv). Past this point the
 * loaders trust the file types in file-types.ts.
 */
import type { JsonPath } from "../types/json.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { compileSchema, compileSchemaFile, compiledAhead } from "../json-schema/compile.js";
import { InputError, at } from "../errors.js";
import { lazy } from "../text/lazy.js";
import type { JsonObject } from "../types.js";
import type { CasesFile, ConfigFile, RegistryFile } from "./file-types.js";
import { buildConfigSchema } from "./config-schema.js";
import {
  describeSchemaErrors,
  formatPath,
  type SchemaProblem,
} from "../json-schema/describe-errors.js";
import {
  createDialectAjv,
  describeUnknownDialect,
  dialectOf,
  META_CHECK_OPTIONS,
  metaCheckSource,
  type Dialect,
  type DialectAjv,
} from "../json-schema/dialects.js";
import type { YamlFile } from "./yaml-document.js";

/** Tools' schemas are third-party: unknown keywords and formats are tolerated, never logged; one Ajv per dialect. */
const toolSchemaAjvs = new Map<Dialect, DialectAjv>();
function toolSchemaAjv(dialect: Dialect): DialectAjv {
  let ajv = toolSchemaAjvs.get(dialect);
  if (ajv === undefined)
    toolSchemaAjvs.set(dialect, (ajv = createDialectAjv(dialect, META_CHECK_OPTIONS)));
  return ajv;
}

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

const configValidator = lazy(() =>
  compileSchema<ConfigFile>(buildConfigSchema(), "the config key table", "config"),
);
const registryValidator = lazy(() => compileSchemaFile<RegistryFile>("registry.schema.json"));
const casesValidator = lazy(() => compileSchemaFile<CasesFile>("cases.schema.json"));

/** route-eval.yaml as written, or an InputError at the offending line. */
export function validateConfigFile(yaml: YamlFile): ConfigFile {
  return validateYaml(configValidator(), yaml);
}

/** Every error of a registry snapshot's data against its schema (none when it fits). */
export function registryShapeErrors(data: unknown): ErrorObject[] {
  const validate = registryValidator();
  return validate(data) ? [] : (validate.errors ?? []);
}

export function validateCasesFile(yaml: YamlFile): CasesFile {
  if (yaml.data === null)
    throw new InputError(
      at(
        yaml.shown,
        1,
        "the file is empty; a case file holds `registry:` (its snapshot) and a list of `cases:`, each with id, goal and acceptable (see docs/files.md: Routing cases)",
      ),
    );
  return validateYaml(casesValidator(), yaml);
}

/** Check config-shaped data that did not come from a file (command-line overrides). */
export function findConfigProblem(data: unknown): SchemaProblem | null {
  const validate = configValidator();
  return validate(data) ? null : describeSchemaErrors(validate.errors ?? [], data);
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

/** `file:line: path: message` for a problem found at `prefix` + the problem's own path. */
export function problemError(
  yaml: YamlFile,
  problem: SchemaProblem,
  prefix: JsonPath = [],
): InputError {
  const path = [...prefix, ...problem.path];
  const where = path.length > 0 ? `${formatPath(path)}: ` : "";
  return new InputError(
    at(yaml.shown, yaml.lineOf([...prefix, ...problem.at]), where + problem.message),
  );
}

function validateYaml<T>(validate: ValidateFunction<T>, yaml: YamlFile): T {
  const data = yaml.data;
  if (validate(data)) return data;
  const errors = validate.errors ?? [];
  if (errors.length === 0) throw new InputError(at(yaml.shown, 1, "does not match its schema"));
  throw problemError(yaml, describeSchemaErrors(errors, data));
}
