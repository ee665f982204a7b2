/**
 * A small glob expander (Node 20 has no fs.glob): `*` and `?` within one path segment, `**` for
 * any number of directories. Like shells, wildcards do not match names starting with a dot.
 */
import { readdirSync, statSync, type Dirent } from "node:fs";
import { join, resolve, sep } from "node:path";

const WILDCARD = /[*?]/;

/** Whether `pattern` holds a wildcard (else it names one file). */
export function hasWildcard(pattern: string): boolean {
  return WILDCARD.test(pattern);
}

/** Files matching `pattern` (relative to `root`, or absolute), as sorted absolute paths. */
export function expandGlob(pattern: string, root: string): string[] {
  const segments = resolve(root, pattern).split(sep);
  const first = segments.findIndex((segment) => WILDCARD.test(segment));
  if (first === -1) return isFile(segments.join(sep)) ? [segments.join(sep)] : [];
  const base = segments.slice(0, first).join(sep) || sep;
  return [...new Set(walk(base, segments.slice(first)))].sort();
}

function walk(dir: string, segments: string[]): string[] {
  const [head, ...rest] = segments;
  if (head === "**") {
    const here = rest.length === 0 ? walk(dir, ["*"]) : walk(dir, rest);
    const below = listDir(dir)
      .filter((entry) => !entry.name.startsWith(".") && isDirEntry(entry))
      .flatMap((entry) => walk(join(dir, entry.name), segments));
    return [...here, ...below];
  }
  if (rest.length === 0) {
    return listDir(dir)
      .filter((entry) => matchSegment(head, entry.name) && isFile(join(dir, entry.name)))
      .map((entry) => join(dir, entry.name));
  }
  if (!WILDCARD.test(head)) return walk(join(dir, head), rest);
  return listDir(dir)
    .filter((entry) => matchSegment(head, entry.name) && isDirEntry(entry))
    .flatMap((entry) => walk(join(dir, entry.name), rest));
}

/** Whether one path segment matches a pattern segment with `*` and `?`. */
export function matchSegment(pattern: string, name: string): boolean {
  if (name.startsWith(".") && !pattern.startsWith(".")) return false;
  const source = pattern
    .split("")
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[\\^$.|+()[\]{}]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`).test(name);
}

function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Real directories only: wildcards do not follow symbolic links to directories, so `**` cannot loop. */
function isDirEntry(entry: Dirent): boolean {
  return entry.isDirectory();
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
