import type { JsonPath } from "../types/json.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import type { Document, LineCounter } from "yaml";
import { createRequire } from "node:module";
import { CORE_SCHEMA, load as loadPlain } from "js-yaml";
import { InputError, at } from "../errors.js";
import { lazy } from "../text/lazy.js";
import { locateLines, readLocated, type LocateLine } from "./yaml-lines.js";

/** The full reader (yaml), loaded only when a file needs it: a plain read never does. */
const fullReader = lazy(() => createRequire(import.meta.url)("yaml") as typeof import("yaml"));

/** A parsed YAML file that can point back at its own lines. */
export interface YamlFile {
  /** Absolute path. */
  file: string;
  /** The path as shown in messages: relative to the working directory when inside it. */
  shown: string;
  /** Plain data (objects, arrays, scalars); null for an empty file. */
  data: unknown;
  /**
   * 1-based line of the value at `path`. A path ending in an object key points at the key's line;
   * a path that leaves the document points at the deepest part that exists.
   */
  lineOf(path: JsonPath): number;
}

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

/** The full reader: the document with every node's position; a syntax error is one line at its place. */
export function parseYamlDocument(text: string, file: string, shown: string): YamlFile {
  const lineCounter = new (fullReader().LineCounter)();
  const doc = fullReader().parseDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
  });
  const error = doc.errors[0];
  if (error) {
    const line = lineCounter.linePos(error.pos[0]).line;
    const indented = findOverIndentedKey(text, line);
    if (indented !== null) throw new InputError(at(shown, indented.line, indented.message));
    throw new InputError(
      at(shown, line, `YAML syntax error: ${describeYamlError(error.code, error.message)}`),
    );
  }
  return {
    file,
    shown,
    data: toData(doc, lineCounter, shown),
    lineOf: (path) => lineCounter.linePos(offsetOf(doc, path)).line,
  };
}

/** Expanded aliases allowed per document: enough for any real file, far too few for an alias bomb. */
const MAX_ALIAS_COUNT = 100;

/** The document as plain data; an alias that names no anchor, or too many expansions, is bad input. */
function toData(doc: Document, lines: LineCounter, shown: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const alias = firstAlias(doc.contents);
    const line = alias === null ? 1 : lines.linePos(alias).line;
    if (/excessive alias count/i.test(message)) {
      throw new InputError(
        at(
          shown,
          line,
          `YAML aliases expand too far (more than ${MAX_ALIAS_COUNT}, an alias bomb?); write the values out`,
        ),
      );
    }
    throw new InputError(
      at(
        shown,
        line,
        `YAML: ${message.split("\n")[0]}; every *alias must name an &anchor defined above it`,
      ),
    );
  }
}

/** The offset of the first alias node (the likely culprit), or null. */
function firstAlias(node: unknown): number | null {
  const { isAlias, isMap, isSeq } = fullReader();
  if (isAlias(node)) return node.range?.[0] ?? null;
  const children: unknown[] = isMap(node)
    ? node.items.flatMap((pair) => [pair.key, pair.value])
    : isSeq(node)
      ? node.items
      : [];
  for (const child of children) {
    const found = firstAlias(child);
    if (found !== null) return found;
  }
  return null;
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

const KEY_LINE = /^(\s*)(?:- )?([A-Za-z_][\w.-]*):(\s|$)/;

/**
 * The commonest YAML mistake in plain words: a key indented deeper than the key above it (which
 * holds a value, so nothing can nest under it). The parser reports it as "nested mappings are not
 * allowed…" or "all mapping items must start at the same column", often a line off; this names
 * the key that moved. Looks at the lines around the parser's.
 */
function findOverIndentedKey(text: string, near: number): { line: number; message: string } | null {
  const lines = text.split("\n");
  for (let i = Math.max(1, near - 2); i < Math.min(lines.length, near + 2); i++) {
    const key = KEY_LINE.exec(lines[i]);
    if (key === null) continue;
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === "") j--;
    const above = j >= 0 ? KEY_LINE.exec(lines[j]) : null;
    // The key above holds a value on its own line (`goal: y`), so it cannot take nested keys.
    if (above === null || lines[j].slice(above[0].length).trim() === "") continue;
    const column = (m: RegExpExecArray, line: string) =>
      m[1].length + (line.slice(m[1].length).startsWith("- ") ? 2 : 0);
    const own = column(key, lines[i]);
    const theirs = column(above, lines[j]);
    if (own <= theirs) continue;
    return {
      line: i + 1,
      message: `"${key[2]}:" is indented deeper (column ${own + 1}) than "${above[2]}:" on the line above (column ${theirs + 1}); keys of one mapping start at the same column — unindent it`,
    };
  }
  return null;
}

function describeYamlError(code: string, message: string): string {
  if (code === "MULTIPLE_DOCS")
    return "the file holds more than one document (a second ---); keep one";
  return message.split("\n")[0].trim();
}

/** Source offset of the node at `path`, or of its deepest existing ancestor. */
function offsetOf(doc: Document, path: JsonPath): number {
  let node: unknown = doc.contents;
  let offset = startOf(node) ?? 0;
  for (const key of path) {
    const step = stepInto(resolveAlias(node, doc), key);
    if (step === null) break;
    node = step.node;
    offset = step.offset ?? offset;
  }
  return offset;
}

interface Step {
  node: unknown;
  offset: number | null;
}

function stepInto(node: unknown, key: string | number): Step | null {
  const { isMap, isScalar, isSeq } = fullReader();
  if (isMap(node)) {
    const pair = node.items.find(
      (item) => isScalar(item.key) && String(item.key.value) === String(key),
    );
    return pair ? { node: pair.value, offset: startOf(pair.key) ?? startOf(pair.value) } : null;
  }
  if (isSeq(node) && typeof key === "number") {
    const item: unknown = node.items[key];
    return item === undefined ? null : { node: item, offset: startOf(item) };
  }
  return null;
}

function resolveAlias(node: unknown, doc: Document): unknown {
  return fullReader().isAlias(node) ? node.resolve(doc) : node;
}

function startOf(node: unknown): number | null {
  const { isAlias, isMap, isScalar, isSeq } = fullReader();
  if (isScalar(node) || isMap(node) || isSeq(node) || isAlias(node)) return node.range?.[0] ?? null;
  return null;
}
