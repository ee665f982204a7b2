import { existsSync, mkdir, mkdirSync, readFileSync, rename, renameSync, writeFile, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { createHash, randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { canonicalJson } from "../text/canonical-json.js";

/**
 * A content-addressed store of endpoint answers (and retriever vectors): one JSON file per key at
 * `<dir>/<first two hex>/<key>.json`, written atomically (temp file + rename) so a crash never
 * leaves a torn entry. Keys are sha256 hex of the canonical content that produced the answer.
 */
export interface ResponseStore {
  readonly dir: string;
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  /** Like put, without blocking the event loop (many trials in flight write at once). */
  putAsync(key: string, value: unknown): Promise<void>;
  has(key: string): boolean;
}

/** sha256 hex of the canonical JSON of `content` (stable key order). */
export function storeKey(content: unknown): string {
  return createHash("sha256").update(canonicalJson(content)).digest("hex");
}

// The callback API, promisified: measurably cheaper per write than node:fs/promises' FileHandles.
const mkdirAsync = promisify(mkdir);
const writeFileAsync = promisify(writeFile);
const renameAsync = promisify(rename);

export function openResponseStore(dir: string): ResponseStore {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  const made = new Map<string, Promise<unknown>>();
  const tempOf = (file: string) => `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  return {
    dir,
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
    putAsync: async (key, value) => {
      const file = pathOf(key);
      const parent = dirname(file);
      if (!made.has(parent)) made.set(parent, mkdirAsync(parent, { recursive: true }));
      await made.get(parent);
      const temp = tempOf(file);
      await writeFileAsync(temp, canonicalJson(value, 2) + "\n");
      await renameAsync(temp, file);
    },
  };
}
