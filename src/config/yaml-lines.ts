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

/**
 * The nodes js-yaml read, by id in the order they opened: where each begins (js-yaml opens a key,
 * an item and the root at their first character), its value once read (for a mapping or a
 * sequence, the very object in the data), and for each mapping or sequence the nodes read inside
 * it: its items, or its keys and values alternately. Flat arrays: a large registry has a million
 * nodes.
 */
interface Nodes {
  starts: number[];
  values: unknown[];
  children: (number[] | null)[];
}

export function locateLines(text: string): LocateLine {
  return readLocated(text).locate;
}

/** The text read as plain data (js-yaml, core schema), and the lines of its nodes, in one pass. */
export function readLocated(text: string): { data: unknown; locate: LocateLine } {
  const nodes: Nodes = { starts: [], values: [], children: [] };
  // The ids read inside the open nodes, in order, and where each open node's own begin.
  const pending: number[] = [];
  const marks: number[] = [];
  let input = text;
  const data = load(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === "open") {
        pending.push(nodes.starts.push(state.position) - 1);
        nodes.values.push(undefined);
        nodes.children.push(null);
        marks.push(pending.length);
        return;
      }
      const mark = marks.pop() ?? 0;
      const id = pending[mark - 1];
      const value = state.result;
      nodes.values[id] = value;
      if (value !== null && typeof value === "object") nodes.children[id] = pending.slice(mark);
      pending.length = mark;
      input = state.input;
    },
  });
  const lineStarts = [0];
  for (let i = input.indexOf("\n"); i !== -1; i = input.indexOf("\n", i + 1))
    lineStarts.push(i + 1);
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
    if (nodes.starts.length === 0) return null;
    let node = 0;
    let offset = nodes.starts[0];
    for (const key of path) {
      const step = stepInto(nodes, node, key);
      if (step === UNSURE) return null;
      if (step === null) break;
      node = step.node;
      offset = nodes.starts[step.at];
    }
    return lineAt(offset);
  };
  return { data, locate };
}

const UNSURE = Symbol("unsure");

/** The child at `key` and the node whose start locates it (a mapping's key, a sequence's item). */
function stepInto(
  nodes: Nodes,
  read: number,
  key: string | number,
): { node: number; at: number } | null | typeof UNSURE {
  const id = unwrap(nodes, read);
  const value = nodes.values[id];
  const children = nodes.children[id];
  if (Array.isArray(value)) {
    if (typeof key !== "number") return null;
    if (children === null || children.length !== value.length)
      return value.length === 0 ? null : UNSURE;
    const item = children[key];
    if (item === undefined) return null;
    return nodes.values[item] === null ? UNSURE : { node: item, at: item };
  }
  if (value === null || typeof value !== "object") return null;
  const size = Object.keys(value).length;
  if ((children?.length ?? 0) !== 2 * size) return UNSURE;
  for (let i = 0; children !== null && i < children.length; i += 2) {
    const name = nodes.values[children[i]];
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
function unwrap(nodes: Nodes, id: number): number {
  let inner = id;
  for (
    let children = nodes.children[inner];
    children !== null && children.length === 1 && nodes.values[children[0]] === nodes.values[inner];
    children = nodes.children[inner]
  ) {
    inner = children[0];
  }
  return inner;
}
