/** Read an experiment.json back (resume, `route-eval report EXPERIMENT_DIR`), as json-files.ts reads every route-eval file. */
import { EXPERIMENT_SCHEMA_VERSION, type Experiment } from "../types/ablate.js";
import { findNamedFile, readJsonFile, type JsonFileKind } from "./json-files.js";

const EXPERIMENT_FILE: JsonFileKind<Experiment> = {
  kind: "experiment",
  version: EXPERIMENT_SCHEMA_VERSION,
  is: (value): value is Experiment => typeof value === "object" && value !== null,
};

/** The experiment.json behind a target (an experiment directory, or the file itself); null when it is not one. */
export function findExperimentFile(target: string): string | null {
  return findNamedFile(target, "experiment.json");
}

export function readExperimentFile(file: string): Experiment {
  return readJsonFile(file, EXPERIMENT_FILE);
}
