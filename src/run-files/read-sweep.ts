/**
 * Read a sweep.json back (`route-eval report SWEEP_DIR`): find it, then read it as json-files.ts reads
 * every route-eval file (schemas/sweep.schema.json).
 */
import { SWEEP_SCHEMA_VERSION, type SweepReport } from "../types/sweep.js";
import { findNamedFile, readJsonFile, type JsonFileKind } from "./json-files.js";

const SWEEP_FILE: JsonFileKind<SweepReport> = {
  kind: "sweep",
  version: SWEEP_SCHEMA_VERSION,
  is: (value): value is SweepReport => typeof value === "object" && value !== null,
};

/** The sweep.json behind a target (a sweep directory, or the file itself); null when it is not a sweep. */
export function findSweepFile(target: string): string | null {
  return findNamedFile(target, "sweep.json");
}

export function readSweepFile(file: string): SweepReport {
  return readJsonFile(file, SWEEP_FILE);
}
