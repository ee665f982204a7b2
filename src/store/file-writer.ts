/**
 * Atomic file writes (temp file + rename) done by a worker thread. A run with 32 trials in flight
 * writes a store entry per trial; through the libuv thread pool each write still costs the main
 * thread several dispatches (open, write, close, rename), measurably slowing the trial loop. Here
 * the main thread only posts a message per batch (the writes queued in one turn of the event
 * loop; each post is a cross-thread wake-up, not free either). The worker is referenced only while writes are pending,
 * so it never keeps a finished process alive, nor lets one exit with writes unfinished.
 */
import { Worker } from "node:worker_threads";

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const { mkdirSync, renameSync, writeFileSync } = require("node:fs");
const { dirname } = require("node:path");
const made = new Set();
parentPort.on("message", (batch) => {
  const results = batch.map(({ id, file, temp, text }) => {
    try {
      const parent = dirname(file);
      if (!made.has(parent)) { mkdirSync(parent, { recursive: true }); made.add(parent); }
      writeFileSync(temp, text);
      renameSync(temp, file);
      return { id, error: null };
    } catch (error) {
      return { id, error: error instanceof Error ? error.message : String(error) };
    }
  });
  parentPort.postMessage(results);
});
`;

export interface FileWriter {
  /** Write `text` to `temp`, then rename it to `file` (creating the directory). */
  write(file: string, temp: string, text: string): Promise<void>;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

export function createFileWriter(): FileWriter {
  let worker: Worker | null = null;
  const waiting = new Map<number, Waiter>();
  let queued: { id: number; file: string; temp: string; text: string }[] = [];
  let next = 0;
  const settle = (results: unknown) => {
    for (const result of Array.isArray(results) ? results : []) settleOne(result);
    if (waiting.size === 0) worker?.unref();
  };
  const settleOne = (result: unknown) => {
    const id = readNumber(result, "id");
    const waiter = id === null ? undefined : waiting.get(id);
    if (id === null || waiter === undefined) return;
    waiting.delete(id);
    const error = readString(result, "error");
    if (error === null) waiter.resolve();
    else waiter.reject(new Error(`response store: ${error}`));
  };
  const fail = (error: Error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    worker = null;
  };
  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true });
    started.on("message", settle);
    started.on("error", fail);
    started.on("exit", () => fail(new Error("response store: the writer thread stopped")));
    return started;
  };
  const flush = () => {
    const batch = queued;
    queued = [];
    worker ??= start();
    worker.ref();
    worker.postMessage(batch);
  };
  return {
    write: (file, temp, text) =>
      new Promise<void>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        if (queued.length === 0) setImmediate(flush);
        queued.push({ id, file, temp, text });
      }),
  };
}

function readNumber(message: unknown, key: string): number | null {
  const value: unknown = typeof message === "object" && message !== null ? Reflect.get(message, key) : undefined;
  return typeof value === "number" ? value : null;
}

function readString(message: unknown, key: string): string | null {
  const value: unknown = typeof message === "object" && message !== null ? Reflect.get(message, key) : undefined;
  return typeof value === "string" ? value : null;
}
