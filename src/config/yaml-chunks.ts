/**
 * A large YAML file read a slice of items at a time: when a file's last top-level key holds a
 * block sequence of many items (a case file's `cases:`), its data is never whole — each slice of
 * CHUNK_ITEMS items is read as a document of its own (`cases:` and the slice's lines), made into
 * what it holds, and let go. A slice reads as the file does: its data has the file's other keys,
 * its lines are the file's, its paths count from the slice's first item.
 */
import { InputError } from "../errors.js";
import type { JsonPath } from "../types/json.js";
import { FULL_READER_ONLY, parseYaml, type FileText, type YamlFile } from "./yaml-document.js";

/** Items per slice, and the fewest a sequence needs to be read in slices. */
export const CHUNK_ITEMS = 1_000;

/** One slice of the sequence: its data and lines as the file's, `at` the file's index of its first item. */
export interface SequenceChunk {
  at: number;
  yaml: YamlFile;
}

/**
 * The slices of `key`'s items, or null when the file is not read so: JSON, a file a plain read
 * does not take (anchors, tags…), a sequence of CHUNK_ITEMS items or fewer, a key that is not the
 * file's last, or lines the split cannot be sure of (a document marker, a flow sequence). A slice
 * that does not read as the items counted in it throws an InputError: the caller reads the whole
 * file instead, whose own reading names any problem.
 */
export function readSequenceChunks(read: FileText, key: string): Iterable<SequenceChunk> | null {
  const { file, shown, text } = read;
  if (/\.json$/i.test(file) || FULL_READER_ONLY.test(text)) return null;
  const starts = itemStarts(text, key);
  if (starts === null || starts.length <= CHUNK_ITEMS) return null;
  return sliceItems(text, starts, key, file, shown);
}

function* sliceItems(
  text: string,
  starts: number[],
  key: string,
  file: string,
  shown: string,
): Generator<SequenceChunk> {
  // The file before its first item: the other keys, `key:` read as null.
  const head = parseYaml(text.slice(0, starts[0]), file, shown, false);
  if (typeof head.data !== "object" || head.data === null || Array.isArray(head.data))
    throw new InputError(`${shown}: not read in slices`);
  let line = 1;
  let counted = 0;
  for (let first = 0; first < starts.length; first += CHUNK_ITEMS) {
    const from = starts[first];
    for (
      let at = text.indexOf("\n", counted);
      at !== -1 && at < from;
      at = text.indexOf("\n", at + 1)
    )
      line += 1;
    counted = from;
    const end = first + CHUNK_ITEMS < starts.length ? starts[first + CHUNK_ITEMS] : text.length;
    const slice = parseYaml(`${key}:\n${text.slice(from, end)}`, file, shown, true);
    const items = (slice.data as Record<string, unknown> | null)?.[key];
    if (!Array.isArray(items) || items.length !== Math.min(CHUNK_ITEMS, starts.length - first))
      throw new InputError(`${shown}: not read in slices`);
    // The slice's line 2 is the file's `line`.
    const shift = line - 2;
    const lineOf = (path: JsonPath): number =>
      path.length > 1 && path[0] === key ? slice.lineOf(path) + shift : head.lineOf(path);
    yield { at: first, yaml: { file, shown, data: { ...head.data, [key]: items }, lineOf } };
  }
}

/**
 * Where each item of the top-level block sequence under `key:` begins (the offset of its line), or
 * null when `key:` does not open such a sequence as the file's last key, or a line could be misread
 * (a document marker, a tab-indented line). A line within an item is deeper than its `-` (YAML's
 * indentation: a scalar's next line too), so a line as deep as the `-` that opens with one opens
 * the next item.
 */
function itemStarts(text: string, key: string): number[] | null {
  const opening = new RegExp(`^${key}:[ \\t]*(#.*)?$`, "m").exec(text);
  if (opening === null || /^(---|\.\.\.)/m.test(text)) return null;
  const starts: number[] = [];
  let indent = -1;
  for (let at = text.indexOf("\n", opening.index); at !== -1;) {
    const from = at + 1;
    at = text.indexOf("\n", from);
    const end = at === -1 ? text.length : at;
    let column = from;
    while (column < end && text.charCodeAt(column) === 32) column += 1;
    const first = column < end ? text[column] : "";
    // Blank lines and comments belong to no item (a block scalar's line is deeper than its `-`).
    if (first === "" || first === "\r" || first === "#") continue;
    if (first === "\t") return null;
    const depth = column - from;
    const after = column + 1 < end ? text[column + 1] : "";
    const opensItem = first === "-" && (after === "" || after === " " || after === "\r");
    if (indent === -1) {
      if (!opensItem) return null;
      indent = depth;
    }
    if (depth > indent) continue;
    // Anything else ends the sequence: a key after it is not read in slices.
    if (depth < indent || !opensItem) return null;
    starts.push(from);
  }
  return starts;
}
