/**
 * Atomic file writes (temp file + rename) done by a worker thread. A run with 32 trials in flight
 * writes a store entry per trial; through the libuv thread pool each write still costs the main
 * thread several dispatches (open, write, close, rename), measurably slowing the trial loop. Here
 * the main thread only posts a message per batch — the writes queued within FLUSH_MS, or
 * FLUSH_SIZE of them — since each post is a cross-thread wake-up, not free either. The worker is
 * referenced only while writes are pending, so it never keeps a finished process alive, nor lets
 * one exit with writes unfinished.
 */
import { Worker } from "node:worker_threads";

/** The writer thread's own source file, beside this one in src/ and in dist/. */
const WORKER_FILE = new URL("./write-worker.js", import.meta.url);

export interface FileWriter {
  /** Write `text` to `temp`, then rename it to `file` (creating the directory). */
  write(file: string, temp: string, text: string): Promise<void>;
}

const FLUSH_MS = 25;
const FLUSH_SIZE = 128;

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface Job {
  id: number;
  file: string;
  temp: string;
  text: string;
}

export function createFileWriter(): FileWriter {
  let worker: Worker | null = null;
  const waiting = new Map<number, Waiter>();
  let queued: Job[] = [];
  let next = 0;
  const onResults = (results: unknown) => {
    settleResults(waiting, results);
    if (waiting.size === 0) worker?.unref();
  };
  const onFailure = (error: Error) => {
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
    worker = null;
  };
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (queued.length === 0) return;
    worker ??= startWorker(onResults, onFailure);
    worker.ref();
    worker.postMessage(queued);
    queued = [];
  };
  return {
    write: (file, temp, text) =>
      new Promise<void>((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        queued.push({ id, file, temp, text });
        if (queued.length >= FLUSH_SIZE) flush();
        else timer ??= setTimeout(flush, FLUSH_MS);
      }),
  };
}

function startWorker(onResults: (results: unknown) => void, onFailure: (error: Error) => void): Worker {
  const worker = new Worker(WORKER_FILE);
  worker.on("message", onResults);
  worker.on("error", onFailure);
  worker.on("exit", () => onFailure(new Error("response store: the writer thread stopped")));
  return worker;
}

/** Resolve or reject the writes a batch of worker results answers. */
function settleResults(waiting: Map<number, Waiter>, results: unknown): void {
  for (const result of Array.isArray(results) ? results : []) {
    const id = readNumber(result, "id");
    const waiter = id === null ? undefined : waiting.get(id);
    if (id === null || waiter === undefined) continue;
    waiting.delete(id);
    const error = readString(result, "error");
    if (error === null) waiter.resolve();
    else waiter.reject(new Error(`response store: ${error}`));
  }
}

function readNumber(message: unknown, key: string): number | null {
  const value: unknown = typeof message === "object" && message !== null ? Reflect.get(message, key) : undefined;
  return typeof value === "number" ? value : null;
}

function readString(message: unknown, key: string): string | null {
  const value: unknown = typeof message === "object" && message !== null ? Reflect.get(message, key) : undefined;
  return typeof value === "string" ? value : null;
}
