/** Every schema of schemas/ in one Ajv (report.schema.json refers to run.schema.json's). */
import { readdirSync, readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";

const DIR = new URL("../../schemas/", import.meta.url);
const ajv = new Ajv2020({ strict: false, allErrors: true });
for (const name of readdirSync(DIR).filter((file) => file.endsWith(".schema.json")))
  ajv.addSchema(JSON.parse(readFileSync(new URL(name, DIR), "utf8")));

/** The errors of a value against a schema of schemas/ (e.g. "report.schema.json"), or null when it is valid. */
export function schemaErrors(schema: string, value: unknown): unknown {
  const validate = ajv.getSchema(`https://route-eval.dev/schemas/${schema}`);
  if (validate === undefined) throw new Error(`no schema ${schema}`);
  return validate(value) ? null : validate.errors;
}

/** The same for a JSON file. */
export function fileSchemaErrors(schema: string, file: string): unknown {
  return schemaErrors(schema, JSON.parse(readFileSync(file, "utf8")));
}
