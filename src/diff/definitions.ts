/**
 * Tools whose model-facing definition changed between two runs (by the hash and text each report
 * keeps), a word-level diff of the description, and the blast radius: the cases whose visible set
 * contained the tool, and how their outcomes moved.
 */
import { compareText } from "../text/compare-text.js";
import type { CaseRow, DefinitionInfo, TrialRecord } from "../types.js";
import type { BlastRadius, CaseFlip, DefinitionChange, DefinitionSide } from "../types/diff.js";
import { countKinds } from "./flips.js";
import { diffWords } from "./word-diff.js";

/** Which cases saw each tool, in each run. */
export interface ToolSightings {
  basis: BlastRadius["basis"];
  base: Map<string, Set<string>>;
  current: Map<string, Set<string>>;
}

function note(map: Map<string, Set<string>>, tool: string, caseId: string): void {
  const cases = map.get(tool) ?? new Set<string>();
  cases.add(caseId);
  map.set(tool, cases);
}

/** Tool → the cases in which any trial was shown it (visible_order). */
export function sightingsFromRecords(records: TrialRecord[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const r of records) for (const tool of r.visible_order) note(map, tool, r.case_id);
  return map;
}

/** Without records: tool → the cases that name it as acceptable or forbidden, or selected it. */
export function sightingsFromRows(rows: CaseRow[]): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const tool of [...row.acceptable, ...row.forbidden, ...Object.keys(row.selections)])
      note(map, tool, row.case_id);
  }
  return map;
}

function toSide(info: DefinitionInfo | undefined): DefinitionSide | null {
  if (info === undefined) return null;
  return {
    family: info.family,
    effect: info.effect,
    open_world: info.open_world,
    hash: info.hash,
    description: info.description,
  };
}

/** The fields that differ; input_schema is inferred when the hash moved and the text did not. */
function changedFields(a: DefinitionSide, b: DefinitionSide): string[] {
  const fields: string[] = [];
  if (a.description !== b.description) fields.push("description");
  else if (a.hash !== b.hash) fields.push("input_schema");
  for (const key of ["family", "effect", "open_world"] as const)
    if (a[key] !== b[key]) fields.push(key);
  return fields;
}

function measureBlast(tool: string, flips: CaseFlip[], sightings: ToolSightings): BlastRadius {
  const saw = new Set([
    ...(sightings.base.get(tool) ?? []),
    ...(sightings.current.get(tool) ?? []),
  ]);
  const hit = flips.filter((flip) => saw.has(flip.case_id));
  const sum = (side: "base" | "current", field: "correct" | "scored"): number =>
    hit.reduce((total, flip) => total + (flip[side]?.[field] ?? 0), 0);
  return {
    basis: sightings.basis,
    cases: hit.map((flip) => ({ case_id: flip.case_id, kind: flip.kind })),
    counts: countKinds(hit),
    base: { correct: sum("base", "correct"), scored: sum("base", "scored") },
    current: { correct: sum("current", "correct"), scored: sum("current", "scored") },
  };
}

/** Changed, added and removed tools by name; empty when either run recorded no definitions. */
export function findDefinitionChanges(
  base: Record<string, DefinitionInfo>,
  current: Record<string, DefinitionInfo>,
  flips: CaseFlip[],
  sightings: ToolSightings,
): DefinitionChange[] {
  if (Object.keys(base).length === 0 || Object.keys(current).length === 0) return [];
  const names = [...new Set([...Object.keys(base), ...Object.keys(current)])].sort(compareText);
  const changes: DefinitionChange[] = [];
  for (const tool of names) {
    const before = toSide(Object.hasOwn(base, tool) ? base[tool] : undefined);
    const after = toSide(Object.hasOwn(current, tool) ? current[tool] : undefined);
    const fields =
      before === null || after === null ? ["definition"] : changedFields(before, after);
    if (fields.length === 0) continue;
    changes.push({
      tool,
      change: before === null ? "added" : after === null ? "removed" : "changed",
      base: before,
      current: after,
      fields,
      words: diffWords(before?.description ?? "", after?.description ?? ""),
      blast_radius: measureBlast(tool, flips, sightings),
    });
  }
  return changes;
}
