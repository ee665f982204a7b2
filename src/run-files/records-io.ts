import { classifyRecord } from "../classify/classify-trial.js";
import { closeSync, existsSync, openSync, readFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { InputError, at } from "../errors.js";
import { lazy } from "../text/lazy.js";
import { sameList } from "../text/same-list.js";
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { compiledAhead } from "../json-schema/compile.js";
import { trialKey, type TrialRecord } from "../types.js";
import {
  type StoredRecord,
  SETS_FILE,
  isReferenced,
  openRecordEncoder,
  readSets,
  resolveSets,
  summariseScores,
} from "./record-form.js";
import { forEachLine } from "./read-lines.js";
import { openLineAppender } from "./line-appender.js";

/**
 * How a trial record is checked: its first problem only (a bad line is one error), keys the schema
 * does not name allowed (records of other tools); the schema is route-eval's own, checked by its
 * tests, so Ajv need not check it again. `npm run build` compiles it ahead with these options
 * (scripts/build.js): a report or a run starts without Ajv.
 */
export const RECORD_AJV_OPTIONS = {
  strict: false,
  allErrors: false,
  validateSchema: false,
} as const;

const require = createRequire(import.meta.url);
const recordValidator = lazy((): ValidateFunction => {
  const schema: unknown = JSON.parse(
    readFileSync(new URL("../../schemas/record.schema.json", import.meta.url), "utf8"),
  );
  const ahead = compiledAhead("record", schema);
  if (ahead !== null) return ahead;
  const { Ajv2020 } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  return new Ajv2020(RECORD_AJV_OPTIONS).compile(schema as object);
});

export interface RecordWriter {
  append(record: TrialRecord): void;
  close(): void;
}

/**
 * Appends one JSON line per finished trial, each event-loop turn's lines in one write
 * (line-appender.ts: a crash loses nothing written before the turn it happens in); each new set
 * goes to sets.jsonl, at once, before the first record that names it.
 */
export function openRecordWriter(file: string): RecordWriter {
  const sets = join(dirname(file), SETS_FILE);
  const encoder = openRecordEncoder(sets, readSets(sets).keys());
  const lines = openLineAppender(file);
  return {
    append: (record) => lines.append(JSON.stringify(encoder.encode(record)) + "\n"),
    close: () => {
      try {
        lines.close();
      } finally {
        encoder.close();
      }
    },
  };
}

/** Replaces records.jsonl with `records` (in the referenced form), atomically. */
export function rewriteRecords(file: string, records: Iterable<TrialRecord>): void {
  const temp = `${file}.${process.pid}.tmp`;
  closeSync(openSync(temp, "w"));
  const writer = openRecordWriter(temp);
  try {
    for (const record of records) writer.append(record);
  } finally {
    writer.close();
  }
  renameSync(temp, file);
}

export interface ReadOptions {
  /** Drop an unterminated, unparseable last line (a torn write) instead of failing. */
  dropTornTail?: boolean;
  /** Keep the first record of a (case_id, trial) seen twice instead of failing (--resume repairs). */
  keepFirstDuplicate?: boolean;
  /** Told of each line dropped by the two options above. */
  onDrop?: (line: number) => void;
}

/**
 * Parses records.jsonl line by line (never the whole file as one string, so a run of any size
 * reads back); a malformed line is an InputError naming its line number. A scored record's
 * ladder verdict is taken from its sets, whatever tool wrote it (classifyRecord): the sets are
 * the truth, so metrics, diff and show trust every record they are given.
 */
export function readRecords(file: string, options: ReadOptions = {}): TrialRecord[] {
  const records: TrialRecord[] = [];
  forEachRecord(file, options, (record) => void records.push(record));
  return records;
}

/** readRecords one record at a time, none kept: `onRecord` is told each in file order. */
export function forEachRecord(
  file: string,
  options: ReadOptions,
  onRecord: (record: TrialRecord) => void,
): void {
  if (!existsSync(file))
    throw new InputError(`${file}: no such file (expected a run directory holding records.jsonl)`);
  const intern = createArrayInterner();
  const setsFile = join(dirname(file), SETS_FILE);
  const sets = lazy(() => readSets(setsFile));
  const context: LineContext = { file, intern, setOf: (id) => sets().get(id) };
  /** (case_id, trial) → the line that holds it: a trial is one decision, recorded once. */
  const lineOf = new Map<string, number>();
  forEachLine(file, (line, number, last) => {
    if (line.trim() === "") return;
    const torn = last && options.dropTornTail === true;
    const record = parseRecordLine(context, number, line, torn);
    if (record === null) {
      options.onDrop?.(number);
      return;
    }
    // A counterfactual re-asks a failed trial: its identity is the trial it re-asks, the kind and the repeat.
    const cf = record.counterfactual;
    const key =
      cf === undefined
        ? trialKey(record.case_id, record.trial)
        : `${trialKey(cf.of.case_id, cf.of.trial)}\u0000${cf.kind}\u0000${cf.repeat}`;
    const first = lineOf.get(key);
    if (first === undefined) {
      lineOf.set(key, number);
      onRecord(record.error === null ? withClassification(record) : record);
    } else if (options.keepFirstDuplicate !== true) {
      throw new InputError(
        at(
          file,
          number,
          `case "${record.case_id}" trial ${record.trial} is recorded twice (also at line ${first}); each (case_id, trial) appears once — remove one`,
        ),
      );
    } else {
      options.onDrop?.(number);
    }
  });
}

/** The record with failed_stage, selection_error and violated as its sets say (the same object when it already agrees). */
function withClassification(record: TrialRecord): TrialRecord {
  const c = classifyRecord(record);
  const agrees =
    c.failed_stage === record.failed_stage &&
    c.selection_error === record.selection_error &&
    c.violated === record.violated &&
    (c.call_set === undefined || JSON.stringify(c.call_set) === JSON.stringify(record.call_set)) &&
    (c.hierarchy === undefined || c.hierarchy.level === record.hierarchy?.level);
  return agrees ? record : { ...record, ...c };
}

interface LineContext {
  file: string;
  intern: Interner;
  setOf: (id: string) => string[] | undefined;
}

function parseRecordLine(
  { file, intern, setOf }: LineContext,
  line: number,
  text: string,
  torn: boolean,
): TrialRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (torn) return null;
    throw new InputError(
      at(
        file,
        line,
        `not valid JSON (${(error as Error).message}); each line must be one trial record`,
      ),
    );
  }
  const validateRecord = recordValidator();
  if (!validateRecord(value)) {
    const e = validateRecord.errors?.[0];
    const path = e === undefined ? "" : e.instancePath.replace(/^\//, "").replace(/\//g, ".");
    const detail =
      e?.keyword === "required"
        ? `missing required field "${String(e.params.missingProperty)}"`
        : `${path || "(record)"} ${e?.message ?? "is invalid"}`;
    throw new InputError(at(file, line, `trial record: ${detail}`));
  }
  if (!isReferenced(value as object))
    return normalizeRecord(value as InlineRecord, intern.lists, intern.acceptable);
  const stored = value as StoredRecord;
  const resolved = resolveSets(stored, setOf);
  if ("missing" in resolved) {
    throw new InputError(
      at(
        file,
        line,
        `trial record names ${resolved.missing}, which is not in ${SETS_FILE} beside it; keep a run's ${SETS_FILE} with its records.jsonl`,
      ),
    );
  }
  // normalizeRecord copies fields by name, so the set ids stay behind on the parsed object.
  // The shared sets come resolved to one array per set; the visible order is the trial's own.
  return normalizeRecord(
    Object.assign(stored as unknown as InlineRecord, resolved.lists),
    unshared,
    intern.acceptable,
  );
}

type Intern = (names: string[]) => string[];

interface Interner {
  /** Inline records repeat the registry, exposed and (without a retriever) visible lists in every line. */
  lists: Intern;
  /** Every trial of a case repeats its acceptable list; one array per distinct list lets labels be cached per list. */
  acceptable: Intern;
}

const unshared: Intern = (names) => names;

/**
 * Sharing one array per distinct list keeps a large inline run's records small enough to hold in
 * memory (records are read-only past this boundary, so sharing is safe). Referenced records need
 * no list interner: their sets are shared by id, and their visible order differs per trial (an
 * interner there only misses — the report bench measured it at a fifth of the read time).
 */
function createArrayInterner(): Interner {
  const byLength = new Map<number, string[][]>();
  const acceptable = new Map<string, string[]>();
  return {
    lists: (names) => {
      let candidates = byLength.get(names.length);
      if (candidates === undefined) byLength.set(names.length, (candidates = []));
      const known = candidates.find((candidate) => sameList(candidate, names));
      if (known !== undefined) return known;
      candidates.unshift(names);
      if (candidates.length > INTERNED_PER_LENGTH) candidates.pop();
      return names;
    },
    acceptable: (names) => {
      const key = names.join("\u0000");
      const known = acceptable.get(key);
      if (known !== undefined) return known;
      acceptable.set(key, names);
      return names;
    },
  };
}

/** Distinct lists kept per length; inline runs repeat few lists, and a miss only costs memory. */
const INTERNED_PER_LENGTH = 16;

type RequiredField =
  | "case_id"
  | "trial"
  | "acceptable"
  | "registry_names"
  | "exposed_names"
  | "retrieved_names"
  | "selected";

/** A record as read, in either form once its sets are resolved: `retrieval_scores` only in the inline form. */
type InlineRecord = Partial<TrialRecord> &
  Pick<TrialRecord, RequiredField> & { retrieval_scores?: Record<string, number> | null };

/**
 * Fills the optional fields that records written by other tools may leave out. Every field is
 * copied by name into one object literal (one shape for every record: a spread of a parsed object
 * costs more than the parse).
 */
function normalizeRecord(r: InlineRecord, intern: Intern, internAcceptable: Intern): TrialRecord {
  const scores = r.retrieval_scores;
  const retrieval =
    r.retrieval ??
    (scores === null || scores === undefined
      ? null
      : summariseScores(scores, {
          acceptable: r.acceptable,
          retrieved_names: r.retrieved_names,
          retrieval_k: r.retrieval_k ?? null,
        }));
  const usage = r.usage;
  return {
    case_id: r.case_id,
    trial: r.trial,
    goal: r.goal,
    phase: r.phase ?? null,
    family: r.family ?? null,
    tags: r.tags ?? [],
    acceptable: internAcceptable(r.acceptable),
    forbidden: r.forbidden ?? [],
    registry_names: intern(r.registry_names),
    exposed_names: intern(r.exposed_names),
    retrieved_names: intern(r.retrieved_names),
    visible_order: intern(r.visible_order ?? r.retrieved_names),
    retrieval_k: r.retrieval_k ?? null,
    selected: r.selected,
    arguments: r.arguments ?? null,
    argument_errors: r.argument_errors ?? null,
    argument_match: r.argument_match ?? null,
    failed_stage: r.failed_stage ?? null,
    must_see: r.must_see ?? [],
    must_not_see: r.must_not_see ?? [],
    retrieval,
    selection_error: r.selection_error ?? null,
    violated: r.violated ?? false,
    response_text: r.response_text ?? null,
    tool_calls: r.tool_calls ?? (r.selected === null ? 0 : 1),
    usage: {
      input_tokens: usage?.input_tokens ?? null,
      output_tokens: usage?.output_tokens ?? null,
      ...(usage?.input_tokens_estimated === undefined
        ? {}
        : { input_tokens_estimated: usage.input_tokens_estimated }),
    },
    latency_ms: r.latency_ms ?? null,
    ...(r.recorded_latency_ms === undefined ? {} : { recorded_latency_ms: r.recorded_latency_ms }),
    endpoint: r.endpoint ?? "unknown",
    model: r.model ?? "unknown",
    request_hash: r.request_hash ?? "",
    error: r.error ?? null,
    provider_request_id: r.provider_request_id,
    retries: r.retries,
    acceptable_positions: r.acceptable_positions,
    tools_shuffled: r.tools_shuffled,
    calls: r.calls,
    counterfactual: r.counterfactual,
    turn: r.turn,
    search: r.search,
    call_set: r.call_set,
    hierarchy: r.hierarchy,
  };
}
