/**
 * route-eval's own JSON Schemas (the files in schemas/, and the config's, built from its key table),
 * compiled by one strict Ajv: each file is read and compiled once, the first time it is needed.
 * `npm run build` compiles them ahead (scripts/build.js: Ajv's standalone code, with these same
 * options, into dist/json-schema/compiled/); a validator compiled from the very schema it is
 * asked for (the same text) is loaded instead of compiled, which a start-up would otherwise spend.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { AnySchemaObject, Options, ValidateFunction } from "ajv/dist/2020.js";
import { lazy } from "../text/lazy.js";
import { isRecord } from "./describe-errors.js";

/** src/json-schema/x.ts (vitest) and dist/json-schema/x.js (tsc) both sit two levels below the package root. */
const SCHEMA_DIR = new URL("../../schemas/", import.meta.url);

/** allErrors: a misspelt key also makes a required one "missing"; the unknown key is the better report. */
export const AJV_OPTIONS: Options = {
  allErrors: true,
  verbose: true,
  strict: true,
  allowUnionTypes: true,
};
export const AJV_VOCABULARY = ["errorMessage", "patternErrorMessage"];

const require = createRequire(import.meta.url);
const ajv = lazy(() => {
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const instance = new Ajv2020(AJV_OPTIONS);
  instance.addVocabulary(AJV_VOCABULARY);
  return instance;
});

/** The validator of schemas/<fileName>. */
export function compileSchemaFile<T>(fileName: string): ValidateFunction<T> {
  const url = new URL(fileName, SCHEMA_DIR);
  return compileSchema<T>(
    JSON.parse(readFileSync(url, "utf8")),
    url.pathname,
    fileName.replace(/\.schema\.json$/, ""),
  );
}

/** `schema`'s validator: the one compiled ahead under `name` when it was compiled from this schema, else compiled now. */
export function compileSchema<T>(
  schema: unknown,
  source: string,
  name?: string,
): ValidateFunction<T> {
  if (!isSchemaObject(schema))
    throw new Error(`${source} is not a JSON Schema object (a packaging bug)`);
  return (name === undefined ? null : compiledAhead<T>(name, schema)) ?? ajv().compile<T>(schema);
}

/** dist/json-schema/compiled/, from dist/json-schema/ and from the bundle (dist/bundle/) alike. */
const COMPILED_DIR = new URL("../json-schema/compiled/", import.meta.url);

/** The validator compiled ahead under `name` from `source` (a schema, or what else decides the code), or null. */
export function compiledAhead<T>(name: string, source: unknown): ValidateFunction<T> | null {
  const file = fileURLToPath(new URL(`${name}.cjs`, COMPILED_DIR));
  if (!existsSync(file)) return null;
  const validate = require(file) as ValidateFunction<T> & { compiledFrom?: string };
  return validate.compiledFrom === compiledFrom(source) ? validate : null;
}

/**
 * What a validator compiled ahead records of its source, to be used only for that source: the
 * source's JSON text itself (compared whole, it needs no hash, and so no node:crypto at start-up).
 */
export function compiledFrom(source: unknown): string {
  return JSON.stringify(source);
}

function isSchemaObject(value: unknown): value is AnySchemaObject {
  return isRecord(value);
}
