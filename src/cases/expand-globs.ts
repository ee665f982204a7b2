/**
 * Case-file patterns → files: globs (`*`, `?`, `**`, via tinyglobby) or plain paths, relative to
 * `root` or absolute. Like shells, wildcards do not match names starting with a dot, and `**` does
 * not follow symbolic links (so it cannot loop).
 */
import { statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { showPath } from "../config/yaml-document.js";
import { InputError } from "../errors.js";
import { lazyRequire } from "../text/lazy.js";

/** tinyglobby (and picomatch, fdir) load on the first wildcard: about 18 ms a plain path does not pay. */
const tinyglobby = lazyRequire<typeof import("tinyglobby")>("tinyglobby");

const WILDCARD = /[*?]/;

/** Files matching `pattern` (relative to `root`, or absolute), as sorted absolute paths. */
export function expandGlob(pattern: string, root: string): string[] {
  const full = resolve(root, pattern);
  if (!WILDCARD.test(pattern)) return isFile(full) ? [full] : [];
  const cwd = isAbsolute(pattern) ? "/" : root;
  const relativePattern = isAbsolute(pattern) ? relative("/", pattern) : pattern;
  return tinyglobby()
    .globSync(relativePattern, {
      cwd,
      absolute: true,
      onlyFiles: true,
      dot: false,
      followSymbolicLinks: false,
      expandDirectories: false,
    })
    .map((file) => resolve(file))
    .sort();
}

/**
 * Every file the patterns name, sorted and once each; a pattern that matches nothing is an
 * InputError (prefixed with the config key the patterns came from, when they did).
 */
export function expandPatterns(
  patterns: string[],
  root: string,
  cwd: string,
  key: string | null = null,
): string[] {
  const found = patterns.flatMap((pattern) => {
    const matches = expandGlob(pattern, root);
    if (matches.length > 0) return matches;
    if (!WILDCARD.test(pattern))
      throw new InputError(`${showPath(resolve(root, pattern), cwd)}: file not found`);
    throw new InputError(
      `${key === null ? "" : `${key}: `}no file matches "${pattern}" (looked under ${showPath(root, cwd)})`,
    );
  });
  return [...new Set(found)].sort();
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
}
