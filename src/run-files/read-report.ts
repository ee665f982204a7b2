/** Read a report.json back (the input of `diff`), validated against schemas/report.schema.json. */
import { REPORT_SCHEMA_VERSION, type Report } from "../types.js";
import { readJsonFile, type JsonFileKind } from "./json-files.js";

export const REPORT_FILE: JsonFileKind<Report> = {
  kind: "report",
  version: REPORT_SCHEMA_VERSION,
  is: (value): value is Report => typeof value === "object" && value !== null,
};

export function readReportFile(file: string): Report {
  return readJsonFile(file, REPORT_FILE);
}
