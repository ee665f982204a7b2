import { accessSync, constants, existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
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

/**
 * mkdir -p that says why it failed: on a read-only file system (or a folder it may not write)
 * Node reports the missing child (ENOENT); the error is then that of the first folder that exists.
 */
export function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    let parent = dirname(dir);
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
    accessSync(parent, constants.W_OK); // throws EROFS / EACCES naming the folder
    throw error;
  }
}
