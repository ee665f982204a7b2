/**
 * Read a sweep.json back (`route-eval report SWEEP_DIR`): find it, parse, check the schema
 * version, validate the parts readers rely on (schemas/sweep.schema.json), then trust the type.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describeSchemaErrors, formatPath } from "../config/format-error.js";
import { InputError } from "../errors.js";
import { SWEEP_SCHEMA_VERSION, type SweepReport } from "../sweep/sweep-types.js";
import { lazy } from "../text/lazy.js";

const validateSweep = lazy(() => {
  const sweepSchema: unknown = JSON.parse(readFileSync(new URL("../../schemas/sweep.schema.json", import.meta.url), "utf8"));
  return new Ajv2020({ strict: false, allErrors: true, verbose: true }).compile(sweepSchema as object);
});

function isSweep(value: unknown): value is SweepReport {
  return validateSweep()(value);
}

/** The sweep.json behind a target (a sweep directory, or the file itself); null when it is not a sweep. */
export function findSweepFile(target: string): string | null {
  if (!existsSync(target)) return null;
  if (statSync(target).isDirectory()) return existsSync(join(target, "sweep.json")) ? join(target, "sweep.json") : null;
  return basename(target) === "sweep.json" ? target : null;
}

function parse(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new InputError(`${file}: not valid JSON (${why}); expected a route-eval sweep.json`);
  }
}

export function readSweepFile(file: string): SweepReport {
  const value = parse(file);
  const version = value !== null && typeof value === "object" && "schema_version" in value ? value.schema_version : undefined;
  if (version === undefined) throw new InputError(`${file}: not a route-eval sweep (no schema_version)`);
  if (typeof version === "number" && version > SWEEP_SCHEMA_VERSION) {
    throw new InputError(`${file}: sweep schema_version ${version} is newer than this route-eval reads (${SWEEP_SCHEMA_VERSION}); upgrade route-eval`);
  }
  if (isSweep(value)) return value;
  const problem = describeSchemaErrors(validateSweep().errors ?? [], value);
  const where = problem.path.length === 0 ? "" : `${formatPath(problem.path)}: `;
  throw new InputError(`${file}: ${where}${problem.message}`);
}
