/** A tune's directory (<out_dir>/<id>/) and its tune.json: opened new or for --resume, read and written. */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { InputError } from "../errors.js";
import type { TuneResult } from "../types/tune.js";
import { writeJsonFile } from "./write-files.js";

export const TUNE_FILE = "tune.json";

/**
 * The tune directory: `resume` (relative to cwd), which must hold a tune.json, or a new one under
 * out_dir named `id`, which must not exist yet.
 */
export function openTuneDir(place: {
  resume?: string;
  cwd: string;
  outDir: string;
  id: string;
}): string {
  if (place.resume !== undefined) {
    const dir = resolve(place.cwd, place.resume);
    if (!existsSync(join(dir, TUNE_FILE)))
      throw new InputError(
        `--resume ${place.resume}: no ${TUNE_FILE} there (expected a tune directory)`,
      );
    return dir;
  }
  const dir = join(place.outDir, place.id);
  if (existsSync(dir))
    throw new InputError(
      `${dir} already exists: continue it with --resume ${dir}, or name another with --id`,
    );
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function readTuneFile(dir: string): TuneResult {
  return JSON.parse(readFileSync(join(dir, TUNE_FILE), "utf8")) as TuneResult;
}

export function writeTuneFile(dir: string, result: TuneResult): void {
  writeJsonFile(join(dir, TUNE_FILE), result);
}
