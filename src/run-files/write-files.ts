import { closeSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
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

/** Writes one line per item atomically, without holding the whole file as one string. */
export function writeLinesFile<T>(file: string, items: Iterable<T>, line: (item: T) => string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, "w");
  try {
    for (const item of items) writeSync(fd, `${line(item)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
}
