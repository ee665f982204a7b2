import { closeSync, lstatSync, mkdirSync, openSync, writeFileSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";
import { inertLine } from "../text/inert.js";
import { writeBatched } from "../run-files/write-files.js";

/** A warning about the input, on stderr, its outside text made inert. */
export function warnTo(io: Io): (message: string) => void {
  return (message) => io.stderr(`route-eval: warning: ${inertLine(message)}\n`);
}

/**
 * Prints `text` on stdout (no output, or "-"), or writes it to `output` (relative to the cwd,
 * its folder made when missing, as `-o registries/new.yaml` expects) and says so on stderr. A path
 * that cannot be written (a directory, no permission) is the user's to fix: exit 2, not a crash.
 */
export function writeOutput(io: Io, text: string, output: string | undefined): void {
  if (output === undefined || output === "-") {
    io.stdout(text);
    return;
  }
  guard(output, () => writeFileSync(inFolder(io, output), text));
  io.stderr(`wrote ${output}\n`);
}

/** writeOutput for a rendering made in pieces: written in batches as they come, never joined whole. */
export function writeChunks(io: Io, chunks: Iterable<string>, output: string | undefined): void {
  const toStdout = output === undefined || output === "-";
  const fd = toStdout ? null : guard(output, () => openSync(inFolder(io, output), "w"));
  const write = (text: string) => (fd === null ? io.stdout(text) : void writeSync(fd, text));
  try {
    writeBatched(chunks, write);
  } finally {
    if (fd !== null) closeSync(fd);
  }
  if (!toStdout) io.stderr(`wrote ${output}\n`);
}

/**
 * Files route-eval writes over (init, freeze, --force or not) must not be symbolic links: a link
 * would carry the write to wherever it points. Refused before anything is written, naming the
 * first one.
 */
export function refuseLinks(files: readonly string[], shown: (file: string) => string): void {
  const link = files.find((file) => lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink());
  if (link !== undefined)
    throw new InputError(
      `${shown(link)} is a symbolic link; route-eval does not write through links — remove the link (or write these files elsewhere), then run again`,
    );
}

/** The output's absolute path, its folder made first. */
function inFolder(io: Io, output: string): string {
  const path = resolve(io.cwd, output);
  mkdirSync(dirname(path), { recursive: true });
  return path;
}

function guard<T>(output: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    const why =
      code === "EISDIR"
        ? "it is a directory"
        : code === "ENOTDIR"
          ? "a part of its path is a file"
          : code === "EACCES"
            ? "permission denied"
            : code;
    const moved =
      code === "EISDIR"
        ? " (-o is --output now; the directory that receives runs is --out-dir)"
        : "";
    throw new InputError(
      `${output}: cannot write the output file (${why}); give -o/--output a file path you can write${moved}`,
    );
  }
}
