/**
 * report.json as text: the same report always serialises to the same bytes. Object keys are
 * sorted recursively (integer-like keys first, as JSON.stringify orders them), except that
 * `schema_version` leads at the top level: the contract's version is the first thing a reader sees.
 */
import { sortKeys } from "../text/canonical-json.js";
import type { Report } from "../types.js";

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

/** report.json: stable key order, 2-space indent, trailing newline. A report is rendered once (report.json and `-f json` share it). */
export function renderJson(report: Report): string {
  let text = rendered.get(report);
  if (text === undefined) rendered.set(report, (text = `${stableStringify(report, 2)}\n`));
  return text;
}

/** Reports are not changed once built, so their text is kept for a second reader. */
const rendered = new WeakMap<Report, string>();
