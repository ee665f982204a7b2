/**
 * The acceptance rule of route-eval tune (docs/tune.md): a revision is kept only when
 *   1. held-out end-to-end accuracy rises beyond noise — the exact one-sided sign test over
 *      held-out cases (did more cases' share of correct trials rise than fall?), Holm-adjusted
 *      across the round's candidates, below alpha;
 *   2. no held-out case falls beyond its own trial noise (one-sided Fisher p < the guard's alpha,
 *      not adjusted: a guard leans toward rejecting);
 *   3. no other tool's accuracy falls (its blast radius): over the cases of each other tool, in
 *      either split, neither the pooled share falls beyond noise nor any one case does.
 * Of the candidates that pass, the one that raised held-out accuracy most is accepted; the rest
 * are proposed again next round, against the registry that includes it.
 */
import type {
  BlastHit,
  CandidateEvidence,
  CaseDrop,
  CaseScore,
  SplitDelta,
  TuneBounds,
  TuneCandidate,
} from "../types/tune.js";
import type { Case } from "../types.js";
import { clusterRate, t975 } from "../metrics/wilson.js";
import { fisherDrop, holm } from "../diff/case-noise.js";
import { signTestUp } from "../diff/mcnemar.js";
import { compareText } from "../text/compare-text.js";
import { formatP } from "../render/format.js";
import type { CaseSplit } from "./split-cases.js";

/** The rule's two levels, as tune's flags set them. */
type JudgeSettings = Pick<TuneBounds, "alpha" | "guard_alpha">;

export type Scores = ReadonlyMap<string, CaseScore>;

/** The evidence on one candidate: its run's case scores against the base run's (p_holm set by judgeRound). */
export function weighCandidate(
  tool: string,
  cases: readonly Case[],
  split: CaseSplit,
  before: Scores,
  after: Scores,
  settings: JudgeSettings,
): CandidateEvidence {
  const ids = (side: Set<string>) => cases.map((c) => c.id).filter((id) => side.has(id));
  const heldOut = ids(split.held_out);
  const held = splitDelta(heldOut, before, after);
  const p = signTestUp(held.up.length, held.down.length);
  const regressions = heldOut.flatMap((id) => dropOf(id, before, after, settings.guard_alpha));
  return {
    tune: splitDelta(ids(split.tune), before, after),
    held_out: held,
    test: { up: held.up.length, down: held.down.length, p_value: p, p_holm: p },
    regressions,
    blast: blastRadius(tool, cases, before, after, settings.guard_alpha),
  };
}

/**
 * Holm across the round's candidates, each one's verdict and reasons, and the one accepted (or
 * null): candidates are updated in place.
 */
export function judgeRound(candidates: TuneCandidate[], settings: JudgeSettings): string | null {
  const adjusted = holm(candidates.map((c) => c.evidence.test.p_value));
  candidates.forEach((c, i) => {
    c.evidence.test.p_holm = adjusted[i];
    c.reasons = reasonsAgainst(c.evidence, settings);
    c.verdict = c.reasons.length === 0 ? "passed" : "rejected";
  });
  const passing = candidates
    .filter((c) => c.verdict === "passed")
    .sort(
      (a, b) =>
        (b.evidence.held_out.delta ?? 0) - (a.evidence.held_out.delta ?? 0) ||
        a.evidence.test.p_holm - b.evidence.test.p_holm ||
        compareText(a.id, b.id),
    );
  const best = passing[0];
  if (best === undefined) return null;
  best.verdict = "accepted";
  for (const other of passing.slice(1))
    other.reasons = [
      `passed, but ${best.id} raised held-out accuracy more; proposed again next round against the registry with it`,
    ];
  return best.id;
}

function reasonsAgainst(evidence: CandidateEvidence, settings: JudgeSettings): string[] {
  const reasons: string[] = [];
  const { test, held_out } = evidence;
  if ((held_out.delta ?? 0) <= 0 || test.p_holm >= settings.alpha)
    reasons.push(
      `held-out accuracy did not rise beyond noise: ${test.up} case${test.up === 1 ? "" : "s"} rose, ${test.down} fell (sign test p ${formatP(test.p_value)}, Holm ${formatP(test.p_holm)}, needs < ${settings.alpha})`,
    );
  if (evidence.regressions.length > 0)
    reasons.push(
      `held-out case${evidence.regressions.length === 1 ? "" : "s"} fell beyond trial noise: ${evidence.regressions.map((r) => `${r.case_id} ${r.before.correct}/${r.before.scored} → ${r.after.correct}/${r.after.scored}`).join(", ")}`,
    );
  for (const hit of evidence.blast)
    reasons.push(
      `blast radius: ${hit.tool} fell from ${hit.before.numerator}/${hit.before.denominator} to ${hit.after.numerator}/${hit.after.denominator}${hit.cases.length > 0 ? ` (${hit.cases.join(", ")})` : ""}`,
    );
  return reasons;
}

/** Accuracy over `ids` before and after, and the cases whose share of correct trials moved. */
export function splitDelta(ids: readonly string[], before: Scores, after: Scores): SplitDelta {
  const tally = (scores: Scores) =>
    clusterRate(
      ids.map((id) => ({ n: scores.get(id)?.scored ?? 0, s: scores.get(id)?.correct ?? 0 })),
    );
  const b = tally(before);
  const a = tally(after);
  const up: string[] = [];
  const down: string[] = [];
  for (const id of ids) {
    const x = share(before.get(id));
    const y = share(after.get(id));
    if (x === null || y === null || x === y) continue;
    (y > x ? up : down).push(id);
  }
  return { before: b, after: a, ...pairedDifference(ids, before, after), up, down };
}

/**
 * The change in accuracy over the same cases, and its paired 95% interval: each case's change in
 * its share of correct trials, weighted by its trials, with a t interval on the cases (the case is
 * the unit; its trials are not independent). With the same trials everywhere the change is the
 * pooled one's. Paired, it is as narrow as the pairing earns, unlike an interval from the two
 * sides' own intervals.
 */
function pairedDifference(
  ids: readonly string[],
  before: Scores,
  after: Scores,
): { delta: number | null; interval: [number, number] | null } {
  const pairs = ids.flatMap((id) => {
    const x = before.get(id);
    const y = after.get(id);
    if (x === undefined || y === undefined || x.scored === 0 || y.scored === 0) return [];
    return [{ d: y.correct / y.scored - x.correct / x.scored, w: (x.scored + y.scored) / 2 }];
  });
  const n = pairs.length;
  if (n === 0) return { delta: null, interval: null };
  const total = pairs.reduce((sum, p) => sum + p.w, 0);
  const delta = pairs.reduce((sum, p) => sum + p.w * p.d, 0) / total;
  if (n < 2) return { delta, interval: null };
  const variance =
    (pairs.reduce((sum, p) => sum + (p.w * (p.d - delta)) ** 2, 0) / total ** 2) * (n / (n - 1));
  const half = t975(n - 1) * Math.sqrt(variance);
  return { delta, interval: [Math.max(-1, delta - half), Math.min(1, delta + half)] };
}

function share(score: CaseScore | undefined): number | null {
  return score === undefined || score.scored === 0 ? null : score.correct / score.scored;
}

function dropOf(id: string, before: Scores, after: Scores, alpha: number): CaseDrop[] {
  const b = before.get(id);
  const a = after.get(id);
  if (b === undefined || a === undefined || b.scored === 0 || a.scored === 0) return [];
  const p = fisherDrop(b.correct, b.scored, a.correct, a.scored);
  return p < alpha ? [{ case_id: id, before: b, after: a, p_value: p }] : [];
}

/** Every other tool whose cases (both splits; not the revised tool's own) fell beyond noise. */
function blastRadius(
  revised: string,
  cases: readonly Case[],
  before: Scores,
  after: Scores,
  alpha: number,
): BlastHit[] {
  const byTool = new Map<string, string[]>();
  for (const c of cases) {
    if (c.acceptable.includes(revised)) continue;
    for (const tool of c.acceptable) byTool.set(tool, [...(byTool.get(tool) ?? []), c.id]);
  }
  const hits: BlastHit[] = [];
  for (const tool of [...byTool.keys()].sort(compareText)) {
    const ids = byTool.get(tool) ?? [];
    const { before: b, after: a } = splitDelta(ids, before, after);
    const p = fisherDrop(b.numerator, b.denominator, a.numerator, a.denominator);
    const fell = ids.flatMap((id) => dropOf(id, before, after, alpha)).map((d) => d.case_id);
    if (fell.length > 0 || (p < alpha && (a.value ?? 0) < (b.value ?? 0)))
      hits.push({ tool, before: b, after: a, p_value: p, cases: fell });
  }
  return hits;
}
