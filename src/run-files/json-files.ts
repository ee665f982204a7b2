/**
 * route-eval's own JSON files read back (run.json, report.json, sweep.json): parse, check the
 * schema version where the file has one, validate the parts readers rely on against /schemas
 * (one Ajv holding every schema, so report.json can refer to run.json's), then trust the type.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { describeSchemaErrors, formatPath } from "../json-schema/describe-errors.js";
import { InputError } from "../errors.js";
import { lazy } from "../text/lazy.js";

const SCHEMAS = ["run", "report", "sweep", "experiment"] as const;
type Kind = (typeof SCHEMAS)[number];

const require = createRequire(import.meta.url);
// The schemas are route-eval's own (checked by its tests): Ajv need not check them again. Loaded
// by the first file read back, not by every command that might read one (60 ms of start-up).
const ajv = lazy(() => {
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const instance = new Ajv2020({
    strict: false,
    allErrors: true,
    verbose: true,
    validateSchema: false,
  });
  for (const kind of SCHEMAS)
    instance.addSchema(
      JSON.parse(
        readFileSync(new URL(`../../schemas/${kind}.schema.json`, import.meta.url), "utf8"),
      ),
    );
  return instance;
});

function validator(kind: Kind): ValidateFunction {
  const validate = ajv().getSchema(`https://route-eval.dev/schemas/${kind}.schema.json`);
  if (validate === undefined)
    throw new Error(`schemas/${kind}.schema.json has no $id (a packaging bug)`);
  return validate;
}

export interface JsonFileKind<T> {
  kind: Kind;
  /** The highest schema_version this route-eval reads; null for files without one (run.json). */
  version: number | null;
  /** Type guard after validation passed. */
  is: (value: unknown) => value is T;
}

/** Reads `file` as a route-eval `kind` file, or throws an InputError naming the file and the problem. */
export function readJsonFile<T>(file: string, spec: JsonFileKind<T>): T {
  const value = parse(file, spec.kind);
  if (spec.version !== null) checkVersion(file, value, spec.kind, spec.version);
  return validated(file, value, spec, []);
}

/**
 * One top-level part of a route-eval file — report.json's `run` — validated against that part's
 * own schema alone: a reader that needs only the part does not check (or compile the schema of)
 * the rest of a file that can run to megabytes.
 */
export function readJsonPart<T>(
  file: string,
  spec: JsonFileKind<unknown>,
  key: string,
  part: JsonFileKind<T>,
): T {
  const value = parse(file, spec.kind);
  if (spec.version !== null) checkVersion(file, value, spec.kind, spec.version);
  const inner =
    value !== null && typeof value === "object" && key in value
      ? (value as Record<string, unknown>)[key]
      : undefined;
  if (inner === undefined) throw new InputError(`${file}: must have required property '${key}'`);
  return validated(file, inner, part, [key]);
}

function validated<T>(
  file: string,
  value: unknown,
  spec: JsonFileKind<T>,
  at: (string | number)[],
): T {
  const validate = validator(spec.kind);
  if (validate(value) && spec.is(value)) return value;
  const problem = describeSchemaErrors(validate.errors ?? [], value);
  const path = [...at, ...problem.path];
  const where = path.length === 0 ? "" : `${formatPath(path)}: `;
  throw new InputError(`${file}: ${where}${problem.message}`);
}

function parse(file: string, kind: Kind): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`${file}: not valid JSON (${why}); expected a route-eval ${kind}.json`);
  }
}

function checkVersion(file: string, value: unknown, kind: Kind, readable: number): void {
  const version =
    value !== null && typeof value === "object" && "schema_version" in value
      ? value.schema_version
      : undefined;
  if (version === undefined)
    throw new InputError(`${file}: not a route-eval ${kind} (no schema_version)`);
  if (typeof version === "number" && version > readable) {
    throw new InputError(
      `${file}: ${kind} schema_version ${version} is newer than this route-eval reads (${readable}); upgrade route-eval`,
    );
  }
}

/** The `name` file behind a target: the directory holding it, or the file itself; null when neither. */
export function findNamedFile(target: string, name: string): string | null {
  if (!existsSync(target)) return null;
  if (statSync(target).isDirectory())
    return existsSync(join(target, name)) ? join(target, name) : null;
  return basename(target) === name ? target : null;
}
