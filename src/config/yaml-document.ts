import type { JsonPath } from "../types/json.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { CORE_SCHEMA, load as loadPlain } from "js-yaml";
import { InputError, at } from "../errors.js";
import { lazy } from "../text/lazy.js";
import { locateLines, readLocated, type LocateLine } from "./yaml-lines.js";
import { parseYamlDocument, type YamlFile } from "./yaml-full-reader.js";

export type { YamlFile } from "./yaml-full-reader.js";

/** `file` as shown to the user: relative to the working directory when it lies inside it. */
export function showPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

/**
 * Read and parse one YAML file (a `.json` file with JSON.parse, several times faster on a large
 * registry; its lines are located only when an error needs one). A missing file or a syntax error
 * is an InputError naming the file. `linesNeeded`: every entry will ask for its line (lint, case
 * files), so plain YAML is located while it is read, in one pass rather than two.
 */
export function readYamlFile(file: string, cwd: string, { linesNeeded = false } = {}): YamlFile {
  return parseFileText(readFileText(file, cwd), linesNeeded);
}

/** A file's text, with its absolute path and the path messages show. */
export interface FileText {
  file: string;
  shown: string;
  text: string;
}

/** A file's text (readYamlFile's first half); a missing file or a folder is an InputError naming it. */
export function readFileText(file: string, cwd: string): FileText {
  const absolute = resolve(cwd, file);
  const shown = showPath(absolute, cwd);
  if (!existsSync(absolute)) throw new InputError(`${shown}: file not found`);
  if (!statSync(absolute).isFile()) throw new InputError(`${shown}: not a file`);
  return { file: absolute, shown, text: readFileSync(absolute, "utf8") };
}

/** A file's text parsed (readYamlFile's second half): JSON by its name, else YAML. */
export function parseFileText({ file, shown, text }: FileText, linesNeeded = false): YamlFile {
  return file.toLowerCase().endsWith(".json")
    ? parseJson(text, file, shown)
    : parseYaml(text, file, shown, linesNeeded);
}

/** JSON is YAML: the YAML parse of the same text, made only when a message needs a line, locates paths. */
function parseJson(text: string, file: string, shown: string): YamlFile {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const line =
      /line (\d+)/.exec(message)?.[1] ??
      (position === null ? null : text.slice(0, Number(position[1])).split("\n").length);
    throw new InputError(
      at(
        shown,
        line === null ? null : Number(line),
        `JSON syntax error: ${message.replace(/^JSON\.parse: /, "").split("\n")[0]}`,
      ),
    );
  }
  return { file, shown, data, lineOf: lineFinder(text, file, shown) };
}

/**
 * What the fast reader leaves to the full one: anchors, aliases, tags and directives (the full
 * reader bounds alias expansion and words their errors), and the scalar forms the two readers
 * resolve differently in YAML 1.2's core schema (`0b101`, `+.5`, `-0`).
 */
export const FULL_READER_ONLY =
  /(^|[\s[\]{},:-])([&*!][^\s]|[-+]?0b[01_]+\s*($|[,\]}#])|[-+]\.\d|-0(\.0*)?\s*($|[,\]}#]))|^%/m;

/**
 * Parse YAML text that came from `file` (absolute), shown in messages as `shown`. Plain YAML is
 * read by js-yaml (core schema), many times faster on a large registry; its lines are located by
 * the full reader (yaml, with positions) only when a message needs one, and any text js-yaml does
 * not read as one plain document goes to the full reader, whose errors name the line.
 */
export function parseYaml(
  text: string,
  file: string,
  shown: string,
  linesNeeded: boolean,
): YamlFile {
  checkRepresentable(text, shown);
  if (!FULL_READER_ONLY.test(text)) {
    let read: { data: unknown; locate: LocateLine | null };
    try {
      read = linesNeeded
        ? readLocated(text)
        : { data: loadPlain(text, { schema: CORE_SCHEMA }), locate: null };
    } catch {
      return parseYamlDocument(text, file, shown);
    }
    return {
      file,
      shown,
      data: read.data ?? null,
      lineOf: lineFinder(text, file, shown, read.locate),
    };
  }
  return parseYamlDocument(text, file, shown);
}

/**
 * Lines for text already read as plain data, located on first use: by js-yaml's node positions
 * (yaml-lines.ts) where they are sure, else by the full reader.
 */
function lineFinder(
  text: string,
  file: string,
  shown: string,
  located: LocateLine | null = null,
): (path: JsonPath) => number {
  const full = lazy(() => parseYamlDocument(text, file, shown));
  const fast = lazy((): LocateLine => {
    try {
      return located ?? locateLines(text);
    } catch {
      return () => null;
    }
  });
  return (path) => fast()(path) ?? full().lineOf(path);
}

/** A NUL or another character YAML cannot hold is bad input at its line, not a parser crash. */
function checkRepresentable(text: string, shown: string): void {
  const match = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.exec(text);
  if (match === null) return;
  const line = text.slice(0, match.index).split("\n").length;
  const code = `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  throw new InputError(
    at(
      shown,
      line,
      `contains the control character ${code}, which YAML cannot hold; remove it (or write it as an escape inside double quotes)`,
    ),
  );
}
