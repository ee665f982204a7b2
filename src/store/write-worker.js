// @ts-check
/**
 * The store's writer thread (started by file-writer.ts): each message is a batch of writes, each
 * done atomically (temp file + rename); the answer lists which succeeded. Plain JavaScript so that
 * the same file runs from src/ (tests) and dist/ (the package), type-checked by tsc (checkJs).
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parentPort } from "node:worker_threads";

/** @typedef {{ id: number; file: string; temp: string; text: string }} Job */

/** Directories already made by this thread. */
const made = new Set();

/** @param {Job} job */
function writeOne({ id, file, temp, text }) {
  try {
    const parent = dirname(file);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    writeFileSync(temp, text);
    renameSync(temp, file);
    return { id, error: null };
  } catch (error) {
    return { id, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (/** @type {Job[]} */ batch) => parentPort?.postMessage(batch.map(writeOne)));
