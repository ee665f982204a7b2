/**
 * Read a report.json back (the input of `diff`): parse, check the schema version, validate the
 * parts readers rely on (schemas/report.schema.json), then trust the type.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeSchemaErrors, formatPath } from "../config/format-error.js";
import { InputError } from "../errors.js";
import { lazy } from "../text/lazy.js";
import { REPORT_SCHEMA_VERSION, type Report } from "../types.js";

const validateReport = lazy(() => {
  const schema: unknown = JSON.parse(readFileSync(new URL("../../schemas/report.schema.json", import.meta.url), "utf8"));
  return new Ajv2020({ strict: false, allErrors: true, verbose: true }).compile(schema as object);
});

function isReport(value: unknown): value is Report {
  return validateReport()(value);
}

function parse(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`${file}: not valid JSON (${why}); expected a route-eval report.json`);
  }
}

function checkVersion(file: string, value: unknown): void {
  const version = value !== null && typeof value === "object" && "schema_version" in value ? value.schema_version : undefined;
  if (version === undefined) throw new InputError(`${file}: not a route-eval report (no schema_version)`);
  if (typeof version === "number" && version > REPORT_SCHEMA_VERSION) {
    throw new InputError(`${file}: report schema_version ${version} is newer than this route-eval reads (${REPORT_SCHEMA_VERSION}); upgrade route-eval`);
  }
}

export function readReportFile(file: string): Report {
  const value = parse(file);
  checkVersion(file, value);
  if (isReport(value)) return value;
  const problem = describeSchemaErrors(validateReport().errors ?? [], value);
  const where = problem.path.length === 0 ? "" : `${formatPath(problem.path)}: `;
  throw new InputError(`${file}: ${where}${problem.message}`);
}
