/**
 * report.json as text: the same report always serialises to the same bytes. Object keys are
 * sorted recursively, except that `schema_version` leads at the top level (the contract's version
 * is the first thing a reader sees).
 */
import type { Report } from "../types.js";
import { compareKeys } from "./format.js";

const LEADING_KEY = "schema_version";

function orderKeys(keys: string[], top: boolean): string[] {
  const sorted = [...keys].sort(compareKeys);
  if (!top || !sorted.includes(LEADING_KEY)) return sorted;
  return [LEADING_KEY, ...sorted.filter((key) => key !== LEADING_KEY)];
}

/** Like JSON.stringify: undefined, functions and symbols are dropped from objects, null in arrays. */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

function serialise(value: unknown, pad: string, depth: number): string {
  if (value === null || isOmitted(value)) return "null";
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : "null";
  if (typeof value === "bigint") throw new TypeError("stableStringify: cannot serialise a bigint");
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = pad === "" ? "" : `\n${pad.repeat(depth + 1)}`;
  const outer = pad === "" ? "" : `\n${pad.repeat(depth)}`;
  const colon = pad === "" ? ":" : ": ";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => serialise(item, pad, depth + 1));
    return `[${inner}${items.join(`,${inner}`)}${outer}]`;
  }
  const record = Object.fromEntries(Object.entries(value));
  const keys = orderKeys(Object.keys(record), depth === 0).filter((key) => !isOmitted(record[key]));
  if (keys.length === 0) return "{}";
  const members = keys.map((key) => `${JSON.stringify(key)}${colon}${serialise(record[key], pad, depth + 1)}`);
  return `{${inner}${members.join(`,${inner}`)}${outer}}`;
}

/**
 * JSON with object keys in a stable order at every depth: integer-like keys ascending, then the
 * others in code-unit order; a top-level `schema_version` comes first. `indent` as JSON.stringify.
 */
export function stableStringify(value: unknown, indent = 0): string {
  return serialise(value, " ".repeat(Math.max(0, Math.min(10, indent))), 0);
}

/** report.json: stable key order, 2-space indent, trailing newline. */
export function renderJson(report: Report): string {
  return `${stableStringify(report, 2)}\n`;
}
