/**
 * Lines of plain YAML without the full reader: js-yaml reads the text once more with a listener
 * that records where each node opens, and a path is walked over those nodes. Ten times cheaper
 * than a positioned parse on a large registry, where lint needs a line for nearly every tool and
 * a run one for every case. It answers only where it is sure of agreeing with the full reader
 * (yaml-document.ts); anywhere else (a mapping key with no value node, a null sequence item) it
 * says so and the caller asks the full reader.
 */
import { CORE_SCHEMA, load } from "js-yaml";
import type { JsonPath } from "../types/json.js";

/** 1-based line of the value at `path` (see YamlFile.lineOf), or null: ask the full reader. */
export type LocateLine = (path: JsonPath) => number | null;

interface Node {
  /** Its first character: js-yaml opens a key, an item and the root where their text begins. */
  start: number;
  /** Nodes read inside it: items of a sequence; keys and values, alternately, of a mapping. */
  children: Node[] | null;
  /** The node's value once read (for a mapping or sequence, the very object in the data). */
  value: unknown;
}

export function locateLines(text: string): LocateLine {
  return readLocated(text).locate;
}

/** The text read as plain data (js-yaml, core schema), and the lines of its nodes, in one pass. */
export function readLocated(text: string): { data: unknown; locate: LocateLine } {
  const top: Node[] = [];
  const open: Node[] = [];
  let input = text;
  const data = load(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === "open") {
        const node: Node = { start: state.position, children: null, value: undefined };
        const parent = open[open.length - 1];
        if (parent === undefined) top.push(node);
        else (parent.children ??= []).push(node);
        open.push(node);
      } else {
        const node = open.pop();
        if (node !== undefined) node.value = state.result;
        input = state.input;
      }
    },
  });
  const lineStarts = [0];
  for (let i = input.indexOf("\n"); i !== -1; i = input.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let [low, high] = [0, lineStarts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle] <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const locate: LocateLine = (path) => {
    const root = top[0];
    if (root === undefined) return null;
    let node = root;
    let offset = root.start;
    for (const key of path) {
      const step = stepInto(node, key);
      if (step === UNSURE) return null;
      if (step === null) break;
      node = step.node;
      offset = step.at.start;
    }
    return lineAt(offset);
  };
  return { data, locate };
}

const UNSURE = Symbol("unsure");

/** The child at `key` and the node whose start locates it (a mapping's key, a sequence's item). */
function stepInto(read: Node, key: string | number): { node: Node; at: Node } | null | typeof UNSURE {
  const { value, children } = unwrap(read);
  if (Array.isArray(value)) {
    if (typeof key !== "number") return null;
    if (children === null || children.length !== value.length) return value.length === 0 ? null : UNSURE;
    const item = children[key];
    if (item === undefined) return null;
    return item.value === null ? UNSURE : { node: item, at: item };
  }
  if (value === null || typeof value !== "object") return null;
  const size = Object.keys(value).length;
  if ((children?.length ?? 0) !== 2 * size) return UNSURE;
  for (let i = 0; children !== null && i < children.length; i += 2) {
    const name = children[i].value;
    if (name !== null && typeof name === "object") return UNSURE;
    if (String(name) === String(key)) return { node: children[i + 1], at: children[i] };
  }
  return null;
}

/**
 * The node that read the collection. A block mapping is tried first wherever one may start, and
 * its would-be first key, when no colon follows, is the whole node (`{"a": 1}` at the top of a
 * JSON file): the same object, one level down.
 */
function unwrap(node: Node): Node {
  let inner = node;
  while (inner.children !== null && inner.children.length === 1 && inner.children[0].value === inner.value) inner = inner.children[0];
  return inner;
}
