/**
 * The quarantine file, kept in the repository: cases `diff` reports but never gates (flaky ones,
 * while someone fixes them). Read with a line for every bad entry; written back (with
 * --update-quarantine) with the flaky cases of a diff added, existing entries and reasons kept.
 *
 *   # route-eval diff --quarantine: cases reported, never gated
 *   quarantine:
 *     - case: refund-partial
 *       reason: "flaky: 3/5 → 5/5 (2026-12-02)"
 */
import { existsSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { stringify } from "yaml";
import { InputError, at } from "../errors.js";
import { readYamlFile } from "../config/yaml-document.js";
import type { Diff } from "../types/diff.js";

/** Looked for in the working directory when --quarantine is not given. */
export const DEFAULT_QUARANTINE = "route-eval.quarantine.yaml";

export interface QuarantineEntry {
  case: string;
  reason?: string;
}

export interface Quarantine {
  /** As shown in messages (relative to the working directory). */
  file: string;
  entries: QuarantineEntry[];
  cases: Set<string>;
}

/** The quarantine file: the one named, else ./route-eval.quarantine.yaml when present, else null. */
export function readQuarantine(named: string | undefined, cwd: string): Quarantine | null {
  const file = named ?? DEFAULT_QUARANTINE;
  if (named === undefined && !existsSync(resolve(cwd, file))) return null;
  const yaml = readYamlFile(file, cwd);
  const data = yaml.data as { quarantine?: unknown } | null;
  const fail = (path: (string | number)[], message: string): never => {
    throw new InputError(
      at(yaml.shown, yaml.lineOf(path), `${path.join(".") || "(top level)"}: ${message}`),
    );
  };
  if (data === null || typeof data !== "object" || Array.isArray(data))
    fail([], "expected a mapping with a quarantine: list of {case, reason}");
  const list = (data as { quarantine?: unknown }).quarantine ?? [];
  if (!Array.isArray(list)) fail(["quarantine"], "expected a list of {case, reason}");
  const entries = (list as unknown[]).map((item, i): QuarantineEntry => {
    if (typeof item === "string" && item.trim() !== "") return { case: item };
    if (item === null || typeof item !== "object" || Array.isArray(item))
      return fail(["quarantine", i], "expected {case: ID, reason: TEXT} or a case id");
    const entry = item as Record<string, unknown>;
    if (typeof entry.case !== "string" || entry.case.trim() === "")
      fail(["quarantine", i, "case"], "expected a case id");
    if (entry.reason !== undefined && typeof entry.reason !== "string")
      fail(["quarantine", i, "reason"], "expected text");
    const unknown = Object.keys(entry).filter((key) => key !== "case" && key !== "reason");
    if (unknown.length > 0)
      fail(["quarantine", i, unknown[0]], "unknown key (expected case, reason)");
    return {
      case: entry.case as string,
      ...(entry.reason === undefined ? {} : { reason: entry.reason as string }),
    };
  });
  return { file: yaml.shown, entries, cases: new Set(entries.map((e) => e.case)) };
}

/** The least share of a case's trials its minority outcome must have, in both runs, to be quarantined. */
export const DEFAULT_QUARANTINE_THRESHOLD = 0.2;

/**
 * Whether a case's own trials disagree beyond the threshold in both runs: its minority outcome (the
 * correct ones, or the wrong ones) at least `threshold` of its scored trials, in BASE and in
 * CURRENT. A case that wobbled once, or changed from one run to the other, is not flaky by this.
 */
export function isQuarantinable(
  test: { base: { correct: number; scored: number }; current: { correct: number; scored: number } },
  threshold: number,
): boolean {
  const split = (side: { correct: number; scored: number }) =>
    side.scored >= 2 &&
    Math.min(side.correct, side.scored - side.correct) / side.scored >= threshold;
  return split(test.base) && split(test.current);
}

/**
 * The file with the diff's cases that are flaky beyond the threshold added (existing entries and
 * their reasons kept), at the path named or the default; returns the cases added.
 */
export function updateQuarantine(
  diff: Diff,
  existing: Quarantine | null,
  named: string | undefined,
  cwd: string,
  today: string,
  threshold = DEFAULT_QUARANTINE_THRESHOLD,
): string[] {
  const entries = [...(existing?.entries ?? [])];
  const have = new Set(entries.map((e) => e.case));
  const added: string[] = [];
  for (const id of diff.noise.flaky) {
    if (have.has(id)) continue;
    const test = diff.flips.find((f) => f.case_id === id)?.test;
    if (test === null || test === undefined || !isQuarantinable(test, threshold)) continue;
    const counts = `${test.base.correct}/${test.base.scored} → ${test.current.correct}/${test.current.scored}`;
    entries.push({ case: id, reason: `flaky: ${counts} (${today})` });
    added.push(id);
  }
  const header =
    "# route-eval diff --quarantine: cases reported, never gated. Remove a case once it is stable.\n";
  writeFileSync(
    resolve(cwd, named ?? DEFAULT_QUARANTINE),
    `${header}${stringify({ quarantine: entries })}`,
  );
  return added;
}
