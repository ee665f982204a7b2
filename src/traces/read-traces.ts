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
import { readSpan, type SpanSkip } from "./read-span.js";
import { addAttributes, normaliseId, type Attributes } from "./otlp-values.js";
import { isObject, TraceShapeError } from "./trace-messages.js";

/** What a reading went through. */
export interface TraceCounts {
  files: number;
  /** Spans and pairs read. */
  calls: number;
  /** Spans that are not model calls (agents, tool runs, retrievals). */
  skipped: number;
  /** Model-call spans with none of their content (an SDK's own span beside an instrumentation's, content capture off). */
  without_content: number;
  /** Spans of a shape this reader does not know: each skipped, the first few named on stderr. */
  malformed: number;
  turns: number;
}

/** How many malformed spans are named one by one; the rest are counted. */
const NAMED_MALFORMED = 5;

/** One span's or pair's outcome, handed to the counts. */
type Read = TracedTurn | SpanSkip;

export function readTraces(
  files: string[],
  cwd: string,
  onTurn: (turn: TracedTurn) => void,
  onWarning: (message: string) => void = () => undefined,
): TraceCounts {
  if (files.length === 0)
    throw new InputError(
      "no trace files given: name one or more (OTLP JSON/JSONL, spans, or request/response pairs)",
    );
  const counts: TraceCounts = {
    files: 0,
    calls: 0,
    skipped: 0,
    without_content: 0,
    malformed: 0,
    turns: 0,
  };
  const seen = new Map<string, number>();
  // Said once the reading is done: a file of nothing but malformed spans is one error instead.
  const warnings: string[] = [];
  let firstMalformed: string | null = null;
  const sink: Sink = {
    read: (read) => {
      counts.calls += 1;
      if ("skip" in read) {
        if (read.skip === "other") counts.skipped += 1;
        else counts.without_content += 1;
        seen.set(read.seen, (seen.get(read.seen) ?? 0) + 1);
      } else {
        counts.turns += 1;
        onTurn(read);
      }
    },
    malformed: (message) => {
      counts.malformed += 1;
      firstMalformed ??= message;
      if (counts.malformed <= NAMED_MALFORMED) warnings.push(`${message}; the span is skipped`);
    },
  };
  for (const file of files) {
    const absolute = resolve(cwd, file);
    const shown = showPath(absolute, cwd);
    if (!existsSync(absolute)) throw new InputError(`${shown}: trace file not found`);
    if (!statSync(absolute).isFile()) throw new InputError(`${shown}: not a file`);
    counts.files += 1;
    readFile(absolute, shown, sink);
  }
  if (counts.malformed > NAMED_MALFORMED)
    warnings.push(
      `${counts.malformed} spans skipped in all as malformed (the first ${NAMED_MALFORMED} named above)`,
    );
  if (counts.turns === 0 && counts.calls === 0 && firstMalformed !== null)
    throw new InputError(firstMalformed);
  if (counts.turns === 0 && counts.calls > 0) throw new InputError(nothingRead(counts, seen));
  warnings.forEach(onWarning);
  return counts;
}

/** Why spans were read and no model call came of them: what they were, and what to do. */
function nothingRead(counts: TraceCounts, seen: Map<string, number>): string {
  const what = [...seen]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, 4)
    .map(([description, n]) => `${n} ${description}`)
    .join("; ");
  const spans = `${counts.calls} span${counts.calls === 1 ? "" : "s"}`;
  if (counts.without_content > 0)
    return `no model call with its content in ${spans} (${what}): ${counts.without_content} model-call span${counts.without_content === 1 ? "" : "s"} carry no messages — turn on the instrumentation's content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true for OpenTelemetry's), and export its log records into the same file when it writes the content there`;
  return `no model call recognised in ${spans} (${what}); route-eval reads OpenTelemetry GenAI (gen_ai.*), OpenInference (LLM spans, Phoenix exports) and Vercel AI SDK (ai.*.doGenerate) spans, and request/response pairs`;
}

interface Sink {
  read(read: Read): void;
  malformed(message: string): void;
}

/** Thrown from the line loop when the first line is not JSON on its own: the file is one document. */
class WholeDocument extends Error {}

function readFile(absolute: string, shown: string, sink: Sink): void {
  const logs = logRecordsBySpan(absolute);
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
      readValue(value, shown, line, sink, logs);
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
    readValue(value, shown, 1, sink, logs, true);
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

/**
 * OTLP log records by the span they belong to (hex span id): OpenTelemetry's JS instrumentations
 * write a call's messages as log records (`gen_ai.user.message`, `gen_ai.choice`, …), exported
 * apart from the span and in any order, so a file holding `resourceLogs` is read for them first.
 */
function logRecordsBySpan(absolute: string): Map<string, JsonValue[]> {
  const bySpan = new Map<string, JsonValue[]>();
  const add = (value: JsonValue) => {
    if (!isObject(value) || !Array.isArray(value.resourceLogs)) return;
    for (const resource of value.resourceLogs) {
      const scopes =
        isObject(resource) && Array.isArray(resource.scopeLogs) ? resource.scopeLogs : [];
      for (const scope of scopes) {
        const records = isObject(scope) && Array.isArray(scope.logRecords) ? scope.logRecords : [];
        for (const record of records) {
          if (!isObject(record)) continue;
          const span = normaliseId(record.spanId ?? record.span_id, 8);
          if (span === null) continue;
          const ofSpan = bySpan.get(span);
          if (ofSpan === undefined) bySpan.set(span, [record]);
          else ofSpan.push(record);
        }
      }
    }
  };
  try {
    forEachLine(absolute, (text) => {
      if (!text.includes('"resourceLogs"')) return;
      try {
        add(JSON.parse(text) as JsonValue);
      } catch {
        // Not JSON on its own: the main pass says where.
      }
    });
  } catch {
    // An unreadable file: the main pass says why.
  }
  return bySpan;
}

/** One JSON value of a trace file: a list of values, an OTLP export, a request/response pair, a span, or a Phoenix span page. */
function readValue(
  value: JsonValue,
  shown: string,
  line: number,
  sink: Sink,
  logs: Map<string, JsonValue[]>,
  document = false,
): void {
  const where = { file: shown, line };
  const hint = document ? " (line of the document's start)" : "";
  const problem = (path: string, error: TraceShapeError) => {
    // A path relative to the value joins the value's own path.
    const full = [path, error.path]
      .filter((p) => p !== "")
      .join(".")
      .replace(/\.\[/g, "[");
    return at(shown, line, `${full === "" ? "(root)" : full}: ${error.message}${hint}`);
  };
  const one = (item: JsonValue, path: string) => {
    try {
      readOne(item, path, where, sink, logs, problem);
    } catch (error) {
      if (!(error instanceof TraceShapeError)) throw error;
      throw new InputError(problem(path, error));
    }
  };
  if (Array.isArray(value)) value.forEach((item, i) => one(item, `[${i}]`));
  // Phoenix's GET /v1/projects/{id}/spans: {"data": [span, …], "next_cursor": …}.
  else if (isObject(value) && Array.isArray(value.data) && "next_cursor" in value)
    value.data.forEach((item, i) => one(item, `data[${i}]`));
  else one(value, "");
}

function readOne(
  value: JsonValue,
  path: string,
  where: { file: string; line: number },
  sink: Sink,
  logs: Map<string, JsonValue[]>,
  problem: (path: string, error: TraceShapeError) => string,
): void {
  if (!isObject(value))
    throw new TraceShapeError(
      "",
      "expected an object: an OTLP export, a span or a request/response pair",
    );
  if (Array.isArray(value.resourceSpans)) {
    readExport(value.resourceSpans, where, sink, logs, (p, e) =>
      problem(path === "" ? p : `${path}.${p}`, e),
    );
    return;
  }
  // Log records alone: read with the spans they belong to.
  if (Array.isArray(value.resourceLogs)) return;
  if (isPair(value)) {
    sink.read(readPair(value, where));
    return;
  }
  if (
    "attributes" in value &&
    ("span_id" in value || "spanId" in value || "context" in value || "name" in value)
  ) {
    // A malformed span is skipped and counted; the file goes on.
    try {
      sink.read(readSpan(value, new Map(), where, false, logs));
    } catch (error) {
      if (!(error instanceof TraceShapeError)) throw error;
      sink.malformed(problem(path, error));
    }
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
  sink: Sink,
  logs: Map<string, JsonValue[]>,
  problem: (path: string, error: TraceShapeError) => string,
): void {
  resourceSpans.forEach((resourceSpan, r) => {
    const base = `resourceSpans[${r}]`;
    if (!isObject(resourceSpan)) throw new TraceShapeError(base, "expected a ResourceSpans object");
    const resource: Attributes = new Map();
    const resourceObject: JsonObject = isObject(resourceSpan.resource) ? resourceSpan.resource : {};
    try {
      addAttributes(resource, resourceObject.attributes, "attributes");
    } catch (error) {
      if (error instanceof TraceShapeError)
        throw new TraceShapeError(
          `${base}.resource.${error.path}`.replace(/\.$/, ""),
          error.message,
        );
      throw error;
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
        try {
          if (!isObject(span)) throw new TraceShapeError("", "expected a span object");
          sink.read(readSpan(span, resource, where, true, logs));
        } catch (error) {
          // A malformed span is skipped and counted; the export goes on.
          if (!(error instanceof TraceShapeError)) throw error;
          sink.malformed(problem(path, error));
        }
      });
    });
  });
}
