import type { ResponseStore } from "../types/endpoint.js";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { openLineAppender, type LineAppender } from "../run-files/line-appender.js";

/** Where an entry's JSON lies in a pack. */
interface Located {
  file: string;
  line: number;
  offset: number;
  length: number;
}

const PACKS = "packs";

export function openResponseStore(dir: string): ResponseStore {
  const pathOf = (key: string) => join(dir, key.slice(0, 2), `${key}.json`);
  const packsDir = join(dir, PACKS);
  let packs: Packs | null = null;
  /** This process's pack, created on the first write; its lines written a turn at a time. */
  let own: { file: string; size: number; lines: number; appender: LineAppender | null } | null =
    null;
  /** This process's entries, the newest of all: a run that only writes (live) never reads the store's packs. */
  const written = new Map<string, Located>();
  const located = (key: string) =>
    written.get(key) ?? (packs ??= indexPacks(dir, packsDir, own?.file)).index.get(key);
  /** Each pack read from, open once for positional reads (a replay reads thousands of entries). */
  const readers = new Map<string, number>();
  const readerOf = (file: string) => {
    let fd = readers.get(file);
    if (fd === undefined) readers.set(file, (fd = openSync(file, "r")));
    return fd;
  };
  const getText = (key: string): string | undefined => {
    const at = located(key);
    if (at === undefined) {
      // A file of the older layout, looked for only under a folder the store had when first read
      // (a miss in a store of packs alone asks the file system nothing).
      if (packs?.legacy.has(key.slice(0, 2)) !== true) return undefined;
      const file = pathOf(key);
      return existsSync(file) ? readFileSync(file, "utf8") : undefined;
    }
    // An entry of this process's pack may still be waiting for the end of its turn.
    if (at.file === own?.file) own.appender?.flush();
    const held = packs?.held.get(at.file);
    return held === undefined
      ? readSlice(readerOf(at.file), at)
      : held.toString("utf8", at.offset, at.offset + at.length);
  };
  return {
    dir,
    fileOf: (key) => {
      const at = located(key);
      return at === undefined ? pathOf(key) : `${at.file}:${at.line}`;
    },
    getText,
    get: (key) => {
      const text = getText(key);
      return text === undefined ? undefined : JSON.parse(text);
    },
    put: (key, value) => {
      // Plain JSON: a pack line is found by its key, never addressed by its own text.
      const json = JSON.stringify(value);
      const line = `${key}\t${json}\n`;
      try {
        if (own === null) {
          mkdirSync(packsDir, { recursive: true });
          own = { file: join(packsDir, packName()), size: 0, lines: 0, appender: null };
        }
        (own.appender ??= openLineAppender(own.file)).append(line);
      } catch (error) {
        throw storeError(error);
      }
      const bytes = Buffer.byteLength(line);
      const keyBytes = Buffer.byteLength(key);
      const at = {
        file: own.file,
        line: ++own.lines,
        offset: own.size + keyBytes + 1,
        length: bytes - keyBytes - 2,
      };
      own.size += bytes;
      written.set(key, at);
    },
    close: () => {
      for (const fd of readers.values()) closeSync(fd);
      readers.clear();
      if (own === null || own.appender === null) return;
      const lines = own.appender;
      own.appender = null;
      try {
        lines.close();
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}

/** A store write that failed, said as one. */
function storeError(error: unknown): Error {
  return new Error(`response store: ${error instanceof Error ? error.message : String(error)}`);
}

/** Sorts after every earlier pack of the store (time to the millisecond, then this process's count), unique per process. */
function packName(): string {
  const time = new Date().toISOString().replace(/[-:]/g, "");
  return `${time}-${String(packsMade++).padStart(4, "0")}-${process.pid}-${randomBytes(3).toString("hex")}.jsonl`;
}

let packsMade = 0;

interface Packs {
  /** key → where its entry lies. */
  index: Map<string, Located>;
  /** The packs kept in memory from the indexing read (up to HELD_BYTES in all): a replay reads from them without a read call per entry. */
  held: Map<string, Buffer>;
  /** The store's folders of the older layout (a file per entry under its key's first two characters). */
  legacy: Set<string>;
}

/** Pack bytes kept in memory after indexing; a larger store is read entry by entry. */
const HELD_BYTES = 64 * 1024 * 1024;

/** key → where its entry lies, over every pack but this process's own in name order (later lines win); torn last lines are skipped. */
function indexPacks(storeDir: string, packsDir: string, own: string | undefined): Packs {
  const index = new Map<string, Located>();
  const held = new Map<string, Buffer>();
  const legacy = new Set(
    existsSync(storeDir)
      ? readdirSync(storeDir, { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && entry.name.length === 2)
          .map((entry) => entry.name)
      : [],
  );
  if (!existsSync(packsDir)) return { index, held, legacy };
  let heldBytes = 0;
  for (const name of readdirSync(packsDir)
    .filter((n) => n.endsWith(".jsonl"))
    .sort()) {
    const file = join(packsDir, name);
    if (file === own) continue;
    const bytes = readFileSync(file);
    if (heldBytes + bytes.length <= HELD_BYTES) {
      held.set(file, bytes);
      heldBytes += bytes.length;
    }
    let start = 0;
    let line = 0;
    for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
      line += 1;
      const tab = bytes.indexOf(9, start);
      if (tab !== -1 && tab < end)
        index.set(bytes.toString("latin1", start, tab), {
          file,
          line,
          offset: tab + 1,
          length: end - tab - 1,
        });
      start = end + 1;
    }
  }
  return { index, held, legacy };
}

function readSlice(fd: number, { offset, length }: Located): string {
  const buffer = Buffer.allocUnsafe(length);
  const read = readSync(fd, buffer, 0, length, offset);
  return buffer.toString("utf8", 0, read);
}
