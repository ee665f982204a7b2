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
 * it: its items, or its keys and values alternately (a run of `childIds` from `firstChild`; -1: a
 * scalar). Whole numbers in typed arrays: 100,000 cases are a million nodes.
 */
interface Nodes {
  starts: IntList;
  values: unknown[];
  firstChild: IntList;
  childCount: IntList;
  childIds: IntList;
}

/** A growing list of whole numbers below 2³¹ (offsets, node ids): 4 bytes each. */
class IntList {
  private items = new Int32Array(1024);
  length = 0;

  /** Adds `value`; its index. */
  push(value: number): number {
    if (this.length === this.items.length) {
      const more = new Int32Array(2 * this.items.length);
      more.set(this.items);
      this.items = more;
    }
    this.items[this.length] = value;
    return this.length++;
  }

  at(index: number): number {
    return this.items[index];
  }

  set(index: number, value: number): void {
    this.items[index] = value;
  }
}

export function locateLines(text: string): LocateLine {
  return readLocated(text).locate;
}

/** The text read as plain data (js-yaml, core schema), and the lines of its nodes, in one pass. */
export function readLocated(text: string): { data: unknown; locate: LocateLine } {
  const nodes: Nodes = {
    starts: new IntList(),
    values: [],
    firstChild: new IntList(),
    childCount: new IntList(),
    childIds: new IntList(),
  };
  // The ids read inside the open nodes, in order, and where each open node's own begin.
  const pending: number[] = [];
  const marks: number[] = [];
  let input = text;
  const data = load(text, {
    schema: CORE_SCHEMA,
    listener(event, state) {
      if (event === "open") {
        pending.push(nodes.starts.push(state.position));
        nodes.values.push(undefined);
        nodes.firstChild.push(-1);
        nodes.childCount.push(0);
        marks.push(pending.length);
        return;
      }
      const mark = marks.pop() ?? 0;
      const id = pending[mark - 1];
      const value = state.result;
      nodes.values[id] = value;
      if (value !== null && typeof value === "object") {
        nodes.firstChild.set(id, nodes.childIds.length);
        nodes.childCount.set(id, pending.length - mark);
        for (let k = mark; k < pending.length; k++) nodes.childIds.push(pending[k]);
      }
      pending.length = mark;
      input = state.input;
    },
  });
  const lineStarts = new IntList();
  lineStarts.push(0);
  for (let i = input.indexOf("\n"); i !== -1; i = input.indexOf("\n", i + 1))
    lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let [low, high] = [0, lineStarts.length - 1];
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts.at(middle) <= offset) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const locate: LocateLine = (path) => {
    if (nodes.starts.length === 0) return null;
    let node = 0;
    let offset = nodes.starts.at(0);
    for (const key of path) {
      const step = stepInto(nodes, node, key);
      if (step === UNSURE) return null;
      if (step === null) break;
      node = step.node;
      offset = nodes.starts.at(step.at);
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
  const first = nodes.firstChild.at(id);
  const count = first === -1 ? 0 : nodes.childCount.at(id);
  if (Array.isArray(value)) {
    if (typeof key !== "number") return null;
    if (first === -1 || count !== value.length) return value.length === 0 ? null : UNSURE;
    if (!(key >= 0 && key < count)) return null;
    const item = nodes.childIds.at(first + key);
    return nodes.values[item] === null ? UNSURE : { node: item, at: item };
  }
  if (value === null || typeof value !== "object") return null;
  const size = Object.keys(value).length;
  if (count !== 2 * size) return UNSURE;
  for (let i = 0; i < count; i += 2) {
    const name = nodes.values[nodes.childIds.at(first + i)];
    if (name !== null && typeof name === "object") return UNSURE;
    if (String(name) === String(key))
      return { node: nodes.childIds.at(first + i + 1), at: nodes.childIds.at(first + i) };
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
  while (
    nodes.firstChild.at(inner) !== -1 &&
    nodes.childCount.at(inner) === 1 &&
    nodes.values[nodes.childIds.at(nodes.firstChild.at(inner))] === nodes.values[inner]
  )
    inner = nodes.childIds.at(nodes.firstChild.at(inner));
  return inner;
}
