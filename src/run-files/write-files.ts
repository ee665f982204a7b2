import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { canonicalJsonPieces } from "../text/canonical-json.js";
import { InputError } from "../errors.js";
import type { Report } from "../types.js";
import { renderJsonChunks } from "../render/stable-json.js";
import { eachCaseRow } from "../metrics/case-rows.js";

/** Writes JSON with stable key order atomically (temp file + rename): a reader never sees half a file. */
export function writeJsonFile(file: string, value: unknown): void {
  writeTextFile(file, withNewline(canonicalJsonPieces(value)));
}

function* withNewline(pieces: Iterable<string>): Generator<string> {
  yield* pieces;
  yield "\n";
}

/** Writes text (whole, or in pieces written in batches as they come) atomically: temp file + rename. */
export function writeTextFile(file: string, text: string | Iterable<string>): void {
  const temp = `${file}.${process.pid}.tmp`;
  if (typeof text === "string") writeFileSync(temp, text);
  else {
    const fd = openSync(temp, "w");
    try {
      writeBatched(text, (batch) => void writeSync(fd, batch));
    } catch (error) {
      // Text that could not be made (or written) leaves no half-written file behind.
      closeSync(fd);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(fd);
  }
  renameSync(temp, file);
}

/**
 * run.json as the run wrote it when it started, now with the time it finished: its case hashes
 * (for --resume) are not held through the run (100,000 cases: 8 MB) nor read back — the file is
 * copied a chunk at a time around the one value that changes.
 */
export function stampFinished(file: string, finishedAt: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const from = openSync(file, "r");
  try {
    const at = findUnfinished(from);
    if (at === null)
      throw new InputError(
        `${file}: changed while the run was writing it (no "finished_at": null left to set); the records and report are kept`,
      );
    const to = openSync(temp, "w");
    try {
      copyBytes(from, to, 0, at);
      writeSync(to, `${FINISHED_AT}${JSON.stringify(finishedAt)}`);
      copyBytes(from, to, at + UNFINISHED.length, fstatSync(from).size);
    } catch (error) {
      closeSync(to);
      rmSync(temp, { force: true });
      throw error;
    }
    closeSync(to);
  } finally {
    closeSync(from);
  }
  renameSync(temp, file);
}

/** The member a run writes at its start and sets at its finish (a top-level key: two spaces in). */
const FINISHED_AT = '\n  "finished_at": ';
const UNFINISHED = Buffer.from(`${FINISHED_AT}null`);

/** Where run.json's `"finished_at": null` is, as a top-level member (before "," or a line end), or null. */
function findUnfinished(fd: number): number | null {
  const chunk = Buffer.allocUnsafe(COPY_CHUNK + UNFINISHED.length + 1);
  // Each read overlaps the one before by the marker's length and the byte after it.
  for (let position = 0; ; position += COPY_CHUNK) {
    const read = readSync(fd, chunk, 0, chunk.length, position);
    for (
      let i = chunk.indexOf(UNFINISHED);
      i !== -1 && i < read;
      i = chunk.indexOf(UNFINISHED, i + 1)
    ) {
      const next = chunk[i + UNFINISHED.length];
      if (i + UNFINISHED.length < read && (next === 0x2c || next === 0x0a)) return position + i;
    }
    if (read < chunk.length) return null;
  }
}

/** Bytes [start, end) of one file appended to another, a chunk at a time. */
function copyBytes(from: number, to: number, start: number, end: number): void {
  const chunk = Buffer.allocUnsafe(COPY_CHUNK);
  for (let position = start; position < end;) {
    const read = readSync(from, chunk, 0, Math.min(COPY_CHUNK, end - position), position);
    if (read === 0) break;
    writeSync(to, chunk, 0, read);
    position += read;
  }
}

const COPY_CHUNK = 1 << 20;

/** report.json: the versioned contract, schema_version first, keys stable; written as it is rendered (a case row at a time). */
export function writeReportFile(file: string, report: Report): void {
  let bytes = 0;
  const counted = function* () {
    for (const chunk of renderJsonChunks(report, eachCaseRow(report))) {
      bytes += Buffer.byteLength(chunk);
      yield chunk;
    }
  };
  writeTextFile(file, counted());
  written.set(report, { file, bytes });
}

/** Each report this process wrote to a report.json, and how many bytes it wrote. */
const written = new WeakMap<Report, { file: string; bytes: number }>();

/**
 * A report's JSON (`-f json`): the bytes of the report.json written for this very report, read
 * back in pieces (a report of 100,000 cases is not rendered twice), or rendered when none was
 * written or that file is no longer the size written.
 */
export function* reportJson(report: Report): Generator<string> {
  const file = written.get(report);
  const fd = file === undefined ? null : openReadable(file.file, file.bytes);
  if (fd === null) {
    yield* renderJsonChunks(report, eachCaseRow(report));
    return;
  }
  try {
    const decoder = new StringDecoder("utf8");
    const buffer = Buffer.alloc(BATCH * 4);
    for (let read; (read = readSync(fd, buffer)) > 0;)
      yield decoder.write(buffer.subarray(0, read));
    yield decoder.end();
  } finally {
    closeSync(fd);
  }
}

function openReadable(file: string, bytes: number): number | null {
  try {
    const fd = openSync(file, "r");
    if (fstatSync(fd).size === bytes) return fd;
    closeSync(fd);
  } catch {
    // Gone or unreadable: rendered instead.
  }
  return null;
}

/** Text made in pieces, written in batches of about BATCH characters as they come: never joined whole. */
export function writeBatched(chunks: Iterable<string>, write: (text: string) => void): void {
  let batch: string[] = [];
  let size = 0;
  for (const chunk of chunks) {
    batch.push(chunk);
    size += chunk.length;
    if (size < BATCH) continue;
    write(batch.join(""));
    batch = [];
    size = 0;
  }
  if (batch.length > 0) write(batch.join(""));
}

const BATCH = 1 << 16;

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
