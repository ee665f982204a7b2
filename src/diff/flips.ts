/**
 * How each case moved between two runs (fixed, regressed, still failing, new, removed…) and its
 * reliability class in each (always-pass / flaky / always-fail over its scored trials).
 */
import { CORRECT } from "../render/format.js";
import { compareText } from "../text/compare-text.js";
import { STAGES } from "../types.js";
import type { CaseRow } from "../types.js";
import { FLIP_KINDS } from "../types/diff.js";
import type {
  CaseFlip,
  CaseSide,
  FlipKind,
  ReliabilityClass,
  ReliabilitySummary,
} from "../types/diff.js";

const ERRORED = "errored";

export function classifyReliability(row: CaseRow): ReliabilityClass {
  const scored = row.trials - row.errored;
  if (scored === 0) return "errored";
  if (row.correct === scored) return "always_pass";
  return row.correct === 0 ? "always_fail" : "flaky";
}

/** The most frequent failed stage (ties to the earlier rung), else "correct" or "errored". */
function mainStage(row: CaseRow): string {
  if (row.trials === row.errored) return ERRORED;
  let main: string = CORRECT;
  let most = 0;
  for (const stage of STAGES) {
    const count = row.stages[stage] ?? 0;
    if (count > most) [main, most] = [stage, count];
  }
  return main;
}

export function describeSide(row: CaseRow): CaseSide {
  return {
    passed: row.passed,
    reliability: classifyReliability(row),
    stage: mainStage(row),
    scored: row.trials - row.errored,
    correct: row.correct,
    stages: row.stages,
    selections: row.selections,
  };
}

export function classifyFlip(base: CaseSide | null, current: CaseSide | null): FlipKind {
  if (base === null) return "new";
  if (current === null) return "removed";
  if (base.scored === 0 || current.scored === 0) return "errored";
  if (base.passed) return current.passed ? "still_passing" : "regressed";
  return current.passed ? "fixed" : "still_failing";
}

const KIND_ORDER = new Map<FlipKind, number>(FLIP_KINDS.map((kind, i) => [kind, i]));

/** Every case of either run, regressions first, then by case id. */
export function computeFlips(baseRows: CaseRow[], currentRows: CaseRow[]): CaseFlip[] {
  const before = new Map(baseRows.map((row) => [row.case_id, describeSide(row)]));
  const after = new Map(currentRows.map((row) => [row.case_id, describeSide(row)]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const flips = ids.map((case_id): CaseFlip => {
    const base = before.get(case_id) ?? null;
    const current = after.get(case_id) ?? null;
    return { case_id, kind: classifyFlip(base, current), base, current };
  });
  const rank = (kind: FlipKind): number => KIND_ORDER.get(kind) ?? 0;
  return flips.sort((a, b) => rank(a.kind) - rank(b.kind) || compareText(a.case_id, b.case_id));
}

export function countKinds(flips: { kind: FlipKind }[]): Record<FlipKind, number> {
  const counts: Record<FlipKind, number> = {
    regressed: 0,
    fixed: 0,
    still_failing: 0,
    new: 0,
    removed: 0,
    errored: 0,
    still_passing: 0,
  };
  for (const flip of flips) counts[flip.kind] += 1;
  return counts;
}

function countClasses(sides: CaseSide[]): Record<ReliabilityClass, number> {
  const counts: Record<ReliabilityClass, number> = {
    always_pass: 0,
    flaky: 0,
    always_fail: 0,
    errored: 0,
  };
  for (const side of sides) counts[side.reliability] += 1;
  return counts;
}

/** Class counts over each run's cases, and the shared cases whose class changed. */
export function summariseReliability(flips: CaseFlip[]): ReliabilitySummary {
  const changed: ReliabilitySummary["changed"] = [];
  for (const { case_id, base, current } of flips) {
    if (base !== null && current !== null && base.reliability !== current.reliability) {
      changed.push({ case_id, base: base.reliability, current: current.reliability });
    }
  }
  changed.sort((a, b) => compareText(a.case_id, b.case_id));
  return {
    base: countClasses(flips.flatMap((f) => (f.base === null ? [] : [f.base]))),
    current: countClasses(flips.flatMap((f) => (f.current === null ? [] : [f.current]))),
    changed,
  };
}
