/**
 * The one trace reader: files of JSON Lines (one OTLP export, span or request/response pair per
 * line — read line by line, in memory bounded by the longest line) or one JSON document (a
 * pretty-printed export, or a list). Every model call becomes a traced turn, handed over as it is
 * read; spans that are not model calls are counted and skipped. A shape this reader does not
 * know stops it with one line naming the file, the line and the JSON path.
 */
import { MAX_JSON_DEPTH, nestsDeeper } from "../text/json-depth.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { showPath } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { forEachLine } from "../run-files/read-lines.js";
import type { JsonObject, JsonValue, TracedTurn } from "../types.js";
import { isPair, readPair } from "./read-pair.js";
import { readSpan } from "./read-span.js";
import { addAttributes, type Attributes } from "./otlp-values.js";
import { isObject, TraceShapeError } from "./trace-messages.js";

/** What a reading went through. */
export interface TraceCounts {
  files: number;
  /** Spans and pairs read. */
  calls: number;
  /** Spans that are not model calls (agents, tool runs, retrievals). */
  skipped: number;
  turns: number;
}

export function readTraces(
  files: string[],
  cwd: string,
  onTurn: (turn: TracedTurn) => void,
): TraceCounts {
  if (files.length === 0)
    throw new InputError(
      "no trace files given: name one or more (OTLP JSON/JSONL, spans, or request/response pairs)",
    );
  const counts: TraceCounts = { files: 0, calls: 0, skipped: 0, turns: 0 };
  const emit = (turn: TracedTurn | null) => {
    counts.calls += 1;
    if (turn === null) counts.skipped += 1;
    else {
      counts.turns += 1;
      onTurn(turn);
    }
  };
  for (const file of files) {
    const absolute = resolve(cwd, file);
    const shown = showPath(absolute, cwd);
    if (!existsSync(absolute)) throw new InputError(`${shown}: trace file not found`);
    if (!statSync(absolute).isFile()) throw new InputError(`${shown}: not a file`);
    counts.files += 1;
    readFile(absolute, shown, emit);
  }
  return counts;
}

/** Thrown from the line loop when the first line is not JSON on its own: the file is one document. */
class WholeDocument extends Error {}

function readFile(absolute: string, shown: string, emit: (turn: TracedTurn | null) => void): void {
  let seen = false;
  try {
    forEachLine(absolute, (text, line) => {
      if (text.trim() === "") return;
      let value: JsonValue;
      try {
        value = JSON.parse(text) as JsonValue;
      } catch (error) {
        if (!seen) throw new WholeDocument();
        throw new InputError(
          at(
            shown,
            line,
            `not valid JSON (${error instanceof Error ? error.message : String(error)}); a JSON Lines trace holds one JSON value per line`,
          ),
        );
      }
      seen = true;
      refuseDeep(value, shown, line);
      readValue(value, shown, line, emit);
    });
  } catch (error) {
    if (!(error instanceof WholeDocument)) throw error;
    const text = readFileSync(absolute, "utf8");
    let value: JsonValue;
    try {
      value = JSON.parse(text) as JsonValue;
    } catch (parseError) {
      const message = parseError instanceof Error ? parseError.message : String(parseError);
      const position = /position (\d+)/.exec(message);
      const line = position === null ? null : text.slice(0, Number(position[1])).split("\n").length;
      throw new InputError(at(shown, line, `not valid JSON (${message})`));
    }
    refuseDeep(value, shown, null);
    readValue(value, shown, 1, emit, true);
  }
}

/** A value nested past MAX_JSON_DEPTH is refused at its line (every reader after this one recurses). */
function refuseDeep(value: JsonValue, shown: string, line: number | null): void {
  if (nestsDeeper(value))
    throw new InputError(
      at(
        shown,
        line,
        `JSON nested deeper than ${MAX_JSON_DEPTH} levels; route-eval reads trace values up to that depth`,
      ),
    );
}

/** One JSON value of a trace file: a list of values, an OTLP export, a request/response pair, or a span. */
function readValue(
  value: JsonValue,
  shown: string,
  line: number,
  emit: (turn: TracedTurn | null) => void,
  document = false,
): void {
  const where = { file: shown, line };
  const one = (item: JsonValue, path: string, itemLine: number) => {
    try {
      readOne(item, path, { ...where, line: itemLine }, emit);
    } catch (error) {
      if (!(error instanceof TraceShapeError)) throw error;
      // A path relative to the value joins the value's own path.
      const full = [path, error.path]
        .filter((p) => p !== "")
        .join(".")
        .replace(/\.\[/g, "[");
      const hint = document ? " (line of the document's start)" : "";
      throw new InputError(
        at(shown, itemLine, `${full === "" ? "(root)" : full}: ${error.message}${hint}`),
      );
    }
  };
  if (Array.isArray(value)) value.forEach((item, i) => one(item, `[${i}]`, line));
  else one(value, "", line);
}

function readOne(
  value: JsonValue,
  path: string,
  where: { file: string; line: number },
  emit: (turn: TracedTurn | null) => void,
): void {
  if (!isObject(value))
    throw new TraceShapeError(
      "",
      "expected an object: an OTLP export, a span or a request/response pair",
    );
  if (Array.isArray(value.resourceSpans)) {
    readExport(value.resourceSpans, where, emit);
    return;
  }
  if (isPair(value)) {
    emit(readPair(value, where));
    return;
  }
  if (
    "attributes" in value &&
    ("span_id" in value || "spanId" in value || "context" in value || "name" in value)
  ) {
    emit(readSpan(value, new Map(), where, false));
    return;
  }
  const keys = Object.keys(value).slice(0, 5).join(", ");
  throw new TraceShapeError(
    "",
    `not a trace this reader knows (keys: ${keys || "none"}): expected an OTLP export {"resourceSpans": […]}, a span {"name", "attributes", …} or a request/response pair {"request": {…}, "response": {…}}`,
  );
}

/** An OTLP ExportTraceServiceRequest: every span of every scope, with its resource's attributes. */
function readExport(
  resourceSpans: JsonValue[],
  where: { file: string; line: number },
  emit: (turn: TracedTurn | null) => void,
): void {
  resourceSpans.forEach((resourceSpan, r) => {
    const base = `resourceSpans[${r}]`;
    const failAt = (error: unknown, path: string): never => {
      if (error instanceof TraceShapeError)
        throw new TraceShapeError(`${path}.${error.path}`.replace(/\.$/, ""), error.message);
      throw error;
    };
    if (!isObject(resourceSpan)) throw new TraceShapeError(base, "expected a ResourceSpans object");
    const resource: Attributes = new Map();
    const resourceObject: JsonObject = isObject(resourceSpan.resource) ? resourceSpan.resource : {};
    try {
      addAttributes(resource, resourceObject.attributes, "attributes");
    } catch (error) {
      failAt(error, `${base}.resource`);
    }
    const scopes = Array.isArray(resourceSpan.scopeSpans)
      ? resourceSpan.scopeSpans
      : Array.isArray(resourceSpan.instrumentationLibrarySpans)
        ? resourceSpan.instrumentationLibrarySpans
        : [];
    scopes.forEach((scope, s) => {
      const spans = isObject(scope) && Array.isArray(scope.spans) ? scope.spans : [];
      spans.forEach((span, i) => {
        const path = `${base}.scopeSpans[${s}].spans[${i}]`;
        if (!isObject(span)) throw new TraceShapeError(path, "expected a span object");
        try {
          emit(readSpan(span, resource, where, true));
        } catch (error) {
          failAt(error, path);
        }
      });
    });
  });
}
