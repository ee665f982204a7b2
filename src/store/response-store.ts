import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { canonicalJson } from "../text/canonical-json.js";
import { createFileWriter, type FileWriter } from "./file-writer.js";

/**
 * A content-addressed store of endpoint answers (and retriever vectors): one JSON file per key at
 * `<dir>/<first two hex>/<key>.json`, written atomically (temp file + rename) so a crash never
 * leaves a torn entry. Keys are content hashes (text/content-hash.ts) of what produced the answer.
 */
export interface ResponseStore {
  readonly dir: string;
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  /** Like put, done by a writer thread: the event loop stays free for the trials in flight. */
  putAsync(key: string, value: unknown): Promise<void>;
  has(key: string): boolean;
  /** Where the entry of `key` lives. */
  fileOf(key: string): string;
}


/** One writer thread per process, shared by every store (a sweep opens many). */
let writer: FileWriter | null = null;

export function openResponseStore(dir: string): ResponseStore {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  // Unique per process (pid) and per write (a counter, cheaper than random bytes on every write).
  const tag = `${process.pid}.${randomBytes(4).toString("hex")}`;
  let writes = 0;
  const tempOf = (file: string) => `${file}.${tag}.${writes++}.tmp`;
  return {
    dir,
    fileOf: pathOf,
    has: (key) => existsSync(pathOf(key)),
    get: (key) => {
      const file = pathOf(key);
      return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
    },
    put: (key, value) => {
      const file = pathOf(key);
      mkdirSync(dirname(file), { recursive: true });
      const temp = tempOf(file);
      writeFileSync(temp, canonicalJson(value, 2) + "\n");
      renameSync(temp, file);
    },
    putAsync: (key, value) => {
      const file = pathOf(key);
      writer ??= createFileWriter();
      return writer.write(file, tempOf(file), canonicalJson(value, 2) + "\n");
    },
  };
}
