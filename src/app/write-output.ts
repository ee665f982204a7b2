import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Io } from "../context.js";
import { InputError } from "../errors.js";

/**
 * Prints `text` on stdout (no output, or "-"), or writes it to `output` (relative to the cwd) and
 * says so on stderr. A path that cannot be written (a directory, a missing folder, no permission)
 * is the user's to fix: exit 2, not a crash.
 */
export function writeOutput(io: Io, text: string, output: string | undefined): void {
  if (output === undefined || output === "-") {
    io.stdout(text);
    return;
  }
  try {
    writeFileSync(resolve(io.cwd, output), text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    const why = code === "EISDIR" ? "it is a directory" : code === "ENOENT" ? "its folder does not exist" : code === "EACCES" ? "permission denied" : code;
    throw new InputError(`${output}: cannot write the output file (${why}); give --output a file path in an existing folder`);
  }
  io.stderr(`wrote ${output}\n`);
}
