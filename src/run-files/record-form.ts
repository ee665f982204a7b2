/**
 * The two on-disk forms of a trial record, and the one in-memory form (TrialRecord).
 *
 * - **Referenced** (written since records format 2): the registry's names, the phase's exposed set
 *   and — when it does not vary per trial — the visible set are named by content id
 *   (`registry_set`, `exposed_set`, `visible_set`) and kept once each in `sets.jsonl` beside
 *   records.jsonl; the retriever's ranking is kept as its top and the acceptable tools' ranks
 *   (`retrieval`). A record's size does not depend on the registry's.
 * - **Inline** (format 1, and other tools' records): `registry_names`, `exposed_names`,
 *   `retrieved_names`, `visible_order` and `retrieval_scores` (a score per exposed tool) in
 *   every record. Read as ever; the scores become the same ranking summary.
 */
import { closeSync, existsSync, openSync, writeSync } from "node:fs";
import { InputError, at } from "../errors.js";
import { forEachLine } from "./read-lines.js";
import { compareText } from "../text/compare-text.js";
import { shortContentHash } from "../text/content-hash.js";
import {
  type RankedName,
  type RetrievalSummary,
  RUNNERS_UP,
  type TrialRecord,
  isControl,
} from "../types.js";

/** Beside records.jsonl: one `{"id", "names"}` line per distinct set, appended before its first use. */
export const SETS_FILE = "sets.jsonl";

/** A record as it is written: the shared sets by id, everything per trial inline. */
export type StoredRecord = Omit<
  TrialRecord,
  "registry_names" | "exposed_names" | "retrieved_names" | "visible_order"
> & {
  registry_set: string;
  exposed_set: string;
  visible_set?: string;
  visible_order?: string[];
};

/** A record's lists written by set id (or, for the visible order that varies, after them). */
const INLINE_LISTS = new Set([
  "registry_names",
  "exposed_names",
  "retrieved_names",
  "visible_order",
]);

export interface SetLine {
  id: string;
  names: string[];
}

/**
 * Turns records into their referenced form, appending each set not yet in `setsFile` (known ids
 * are read from it first, so a resumed run appends only new sets). A set's id is the content
 * hash of its names; the same array object is hashed once.
 */
export function openRecordEncoder(
  setsFile: string,
  known: Iterable<string>,
): { encode(record: TrialRecord): StoredRecord; close(): void } {
  const written = new Set(known);
  const ids = new WeakMap<readonly string[], string>();
  let fd: number | null = null;
  const idOf = (names: string[]): string => {
    let id = ids.get(names);
    if (id === undefined) {
      id = shortContentHash(names);
      ids.set(names, id);
    }
    if (!written.has(id)) {
      fd ??= openSync(setsFile, "a");
      writeSync(fd, JSON.stringify({ id, names } satisfies SetLine) + "\n");
      written.add(id);
    }
    return id;
  };
  return {
    encode: (record) => {
      // Copied key by key (a rest pattern and spreads cost twice as much, per trial): the record's
      // own keys in its order, the inline lists left out, the set ids last.
      const stored: Record<string, unknown> = {};
      for (const key in record) if (!INLINE_LISTS.has(key)) stored[key] = Reflect.get(record, key);
      stored.registry_set = idOf(record.registry_names);
      stored.exposed_set = idOf(record.exposed_names);
      // Without a retriever or a shuffle the visible set is the phase's, the same in every trial.
      if (record.retrieval_k === null && record.tools_shuffled !== true)
        stored.visible_set = idOf(record.visible_order);
      else stored.visible_order = record.visible_order;
      return stored as StoredRecord;
    },
    close: () => {
      if (fd !== null) closeSync(fd);
    },
  };
}

/** Whether a parsed line is in the referenced form. */
export function isReferenced(value: object): value is StoredRecord {
  return "registry_set" in value;
}

/** The inline lists a referenced record names, resolved; a name missing from sets.jsonl is returned as such. */
export function resolveSets(
  record: StoredRecord,
  setOf: (id: string) => string[] | undefined,
):
  | {
      lists: Pick<
        TrialRecord,
        "registry_names" | "exposed_names" | "retrieved_names" | "visible_order"
      >;
    }
  | { missing: string } {
  const registry = setOf(record.registry_set);
  if (registry === undefined) return { missing: `registry_set "${record.registry_set}"` };
  const exposed = setOf(record.exposed_set);
  if (exposed === undefined) return { missing: `exposed_set "${record.exposed_set}"` };
  let visible = record.visible_order;
  if (record.visible_set !== undefined) {
    visible = setOf(record.visible_set);
    if (visible === undefined) return { missing: `visible_set "${record.visible_set}"` };
  }
  if (visible === undefined)
    return { missing: "visible_order (neither visible_order nor visible_set is given)" };
  return {
    lists: {
      registry_names: registry,
      exposed_names: exposed,
      retrieved_names: visible,
      visible_order: visible,
    },
  };
}

/**
 * An inline record's `retrieval_scores` as the ranking summary a referenced record keeps: by
 * score, ties with the kept tools first (the retriever kept them), then by name.
 */
export function summariseScores(
  scores: Record<string, number>,
  record: Pick<TrialRecord, "acceptable" | "retrieved_names" | "retrieval_k">,
): RetrievalSummary {
  const kept = new Set(record.retrieved_names);
  const ranking = Object.keys(scores)
    .filter((name) => !isControl(name))
    .sort(
      (a, b) =>
        scores[b] - scores[a] || Number(kept.has(b)) - Number(kept.has(a)) || compareText(a, b),
    );
  const placed = (name: string, index: number): RankedName => ({
    name,
    rank: index + 1,
    score: scores[name],
  });
  const acceptable = new Set(record.acceptable);
  const k = record.retrieval_k ?? ranking.length;
  return {
    candidates: ranking.length,
    top: ranking.slice(0, k + RUNNERS_UP).map(placed),
    acceptable: ranking.flatMap((name, index) =>
      acceptable.has(name) ? [placed(name, index)] : [],
    ),
  };
}

/** sets.jsonl: id → names; empty when the file does not exist (a run in the inline form). */
export function readSets(file: string): Map<string, string[]> {
  const sets = new Map<string, string[]>();
  if (!existsSync(file)) return sets;
  forEachLine(file, (line, number, last) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (last) return; // a torn last line: its set was never referenced (records are written after their sets)
      throw new InputError(
        at(
          file,
          number,
          `not valid JSON (${(error as Error).message}); each line must be one {"id", "names"} set`,
        ),
      );
    }
    if (!isSetLine(value))
      throw new InputError(at(file, number, `expected {"id": string, "names": [string, ...]}`));
    sets.set(value.id, value.names);
  });
  return sets;
}

function isSetLine(value: unknown): value is SetLine {
  if (value === null || typeof value !== "object") return false;
  const { id, names } = value as Partial<SetLine>;
  return (
    typeof id === "string" &&
    Array.isArray(names) &&
    names.every((name) => typeof name === "string")
  );
}
