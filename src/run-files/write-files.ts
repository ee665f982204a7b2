import { renameSync, writeFileSync } from "node:fs";
import { canonicalJson } from "../text/canonical-json.js";
import type { Report } from "../types.js";
import { renderJson } from "../render/stable-json.js";

/** Writes JSON with stable key order atomically (temp file + rename): a reader never sees half a file. */
export function writeJsonFile(file: string, value: unknown): void {
  writeTextFile(file, canonicalJson(value, 2) + "\n");
}

export function writeTextFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

/** report.json: the versioned contract, schema_version first, keys stable. */
export function writeReportFile(file: string, report: Report): void {
  writeTextFile(file, renderJson(report));
}
