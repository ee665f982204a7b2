/**
 * report.json as text: the same report always serialises to the same bytes. Object keys are
 * sorted recursively (integer-like keys first, as JSON.stringify orders them), except that
 * `schema_version` leads at the top level: the contract's version is the first thing a reader sees.
 */
import { sortKeys } from "../text/canonical-json.js";
import type { CaseRow, Report } from "../types.js";

const LEADING_KEY = "schema_version";

/** JSON with object keys in a stable order at every depth; a top-level `schema_version` comes first. */
export function stableStringify(value: unknown, indent = 0): string {
  const sorted = sortKeys(value);
  if (
    sorted === null ||
    typeof sorted !== "object" ||
    Array.isArray(sorted) ||
    !(LEADING_KEY in sorted)
  ) {
    return JSON.stringify(sorted, null, indent) ?? "null";
  }
  const { [LEADING_KEY]: version, ...rest } = sorted as Record<string, unknown>;
  return JSON.stringify({ [LEADING_KEY]: version, ...rest }, null, indent);
}

/** report.json: stable key order, 2-space indent, trailing newline (renderJsonChunks, joined). */
export function renderJson(report: Report): string {
  return [...renderJsonChunks(report)].join("");
}

/**
 * report.json in pieces, byte for byte what `stableStringify(report, 2)` and a newline write: each
 * top-level member written alone, and the items of a top-level list (the case rows) one at a time
 * — so a report of 100,000 cases is never sorted, nor held as text, whole.
 * `rows`, when given, are the case rows, read one at a time as they are written (a report that
 * makes its rows when read: metrics/case-rows.ts eachCaseRow).
 */
export function* renderJsonChunks(report: Report, rows?: Iterable<CaseRow>): Generator<string> {
  const keys = Object.keys(report).sort();
  const ordered =
    LEADING_KEY in report ? [LEADING_KEY, ...keys.filter((k) => k !== LEADING_KEY)] : keys;
  let first = true;
  for (const key of ordered) {
    const streamed = key === "cases" && rows !== undefined;
    const value: unknown = streamed ? rows : Reflect.get(report, key);
    const head = `${first ? "{" : ","}\n  ${JSON.stringify(key)}: `;
    if (streamed || Array.isArray(value)) {
      first = false;
      let items = 0;
      for (const item of value as Iterable<unknown>)
        yield `${items++ === 0 ? `${head}[` : ","}\n    ${indented(item, "\n    ") ?? "null"}`;
      yield items === 0 ? `${head}[]` : "\n  ]";
      continue;
    }
    const text = indented(value, "\n  ");
    if (text === undefined) continue;
    first = false;
    yield `${head}${text}`;
  }
  yield first ? "{}\n" : "\n}\n";
}

/** A value's stable JSON (2-space indent) as it reads nested at a depth: its lines after the first indented by `newline`. */
function indented(value: unknown, newline: string): string | undefined {
  return JSON.stringify(sortKeys(value), null, 2)?.replace(/\n/g, newline);
}
