/**
 * Validation at the boundary: route-eval's own files against /schemas (tools' JSON Schemas are
 * checked by json-schema/schema-problems.ts). Past this point the loaders trust the file types in
 * file-types.ts.
 */
import type { JsonPath } from "../types/json.js";
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { compileSchema, compileSchemaFile } from "../json-schema/compile.js";
import { InputError, at } from "../errors.js";
import { lazy } from "../text/lazy.js";
import type { CasesFile, ConfigFile, RegistryFile } from "./file-types.js";
import { buildConfigSchema } from "./config-schema.js";
import {
  describeSchemaErrors,
  formatPath,
  type SchemaProblem,
} from "../json-schema/describe-errors.js";
import type { YamlFile } from "./yaml-document.js";

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
