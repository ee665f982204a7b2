/**
 * The full YAML reader (yaml, with node positions): what a message about a file needs when the
 * plain read (yaml-document.ts) cannot place it — a syntax error at its line, an alias that names
 * no anchor or expands too often, the line of any JSON path.
 */
import type { JsonPath } from "../types/json.js";
import type { Document, LineCounter } from "yaml";
import { InputError, at } from "../errors.js";
import { lazyRequire } from "../text/lazy.js";

/** The full reader (yaml), loaded only when a file needs it: a plain read never does. */
const fullReader = lazyRequire<typeof import("yaml")>("yaml");

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
