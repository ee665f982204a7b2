/**
 * route-eval's own JSON Schemas (the files in schemas/, and the config's, built from its key table),
 * compiled by one strict Ajv: each file is read and compiled once, the first time it is needed.
 */
import { readFileSync } from "node:fs";
import { Ajv2020, type AnySchemaObject, type ValidateFunction } from "ajv/dist/2020.js";
import { lazy } from "../text/lazy.js";
import { isRecord } from "./describe-errors.js";

/** src/json-schema/x.ts (vitest) and dist/json-schema/x.js (tsc) both sit two levels below the package root. */
const SCHEMA_DIR = new URL("../../schemas/", import.meta.url);

/** allErrors: a misspelt key also makes a required one "missing"; the unknown key is the better report. */
const ajv = lazy(() => {
  const instance = new Ajv2020({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  instance.addVocabulary(["errorMessage", "patternErrorMessage"]);
  return instance;
});

/** The validator of schemas/<fileName>. */
export function compileSchemaFile<T>(fileName: string): ValidateFunction<T> {
  const url = new URL(fileName, SCHEMA_DIR);
  return compileSchema<T>(JSON.parse(readFileSync(url, "utf8")), url.pathname);
}

export function compileSchema<T>(schema: unknown, source: string): ValidateFunction<T> {
  if (!isSchemaObject(schema)) throw new Error(`${source} is not a JSON Schema object (a packaging bug)`);
  return ajv().compile<T>(schema);
}

function isSchemaObject(value: unknown): value is AnySchemaObject {
  return isRecord(value);
}
