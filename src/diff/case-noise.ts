/**
 * Is a case's change beyond its own trial noise? Per case, Fisher's exact test on its two runs'
 * trials (one-sided: did the current run's success rate drop?), with the family-wise error
 * controlled across the cases tested by Holm's step-down adjustment. A case whose own trials
 * disagree (some correct, some not) in either run is flaky; a quarantined case is tested and
 * reported like any other, but never gated.
 */
import type { CaseFlip, NoiseSummary } from "../types/diff.js";

/** ln n! for n = 0..max, built once per call site by the recurrence. */
function logFactorials(max: number): number[] {
  const out = [0];
  for (let i = 1; i <= max; i++) out.push(out[i - 1] + Math.log(i));
  return out;
}

/**
 * One-sided Fisher's exact test that the current rate is lower than the base's: under "no
 * change", the current run's share of the K successes of both runs is hypergeometric, and
 * p = P(X ≤ observed). 1 when the current run did no worse.
 */
export function fisherDrop(
  baseCorrect: number,
  baseN: number,
  currentCorrect: number,
  currentN: number,
): number {
  for (const [name, value] of [
    ["baseCorrect", baseCorrect],
    ["baseN", baseN],
    ["currentCorrect", currentCorrect],
    ["currentN", currentN],
  ] as const) {
    if (!Number.isInteger(value) || value < 0)
      throw new RangeError(`fisherDrop: ${name} must be a whole number ≥ 0, got ${value}`);
  }
  if (baseCorrect > baseN || currentCorrect > currentN)
    throw new RangeError("fisherDrop: more successes than trials");
  if (baseN === 0 || currentN === 0) return 1;
  const n = baseN + currentN;
  const k = baseCorrect + currentCorrect;
  const lf = logFactorials(n);
  const choose = (a: number, b: number) => lf[a] - lf[b] - lf[a - b];
  const total = choose(n, currentN);
  const low = Math.max(0, currentN - (n - k));
  let p = 0;
  for (let x = low; x <= Math.min(currentCorrect, k); x++)
    p += Math.exp(choose(k, x) + choose(n - k, currentN - x) - total);
  return Math.min(1, p);
}

/**
 * Holm's step-down adjusted p-values, in the input order: the i-th smallest is multiplied by
 * (m − i), made monotone, capped at 1. Reject where adjusted < alpha: the family-wise error
 * rate over all m tests is at most alpha.
 */
export function holm(pValues: number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((a, b) => a.p - b.p || a.i - b.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  for (const [rank, { p, i }] of order.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  }
  return adjusted;
}

/** The smallest p a one-sided drop test can reach with these trials (all correct before, none after). */
export function smallestDropP(baseN: number, currentN: number): number {
  return fisherDrop(baseN, baseN, 0, currentN);
}

/** The fewest trials per case (the same on each side) with which one case going from all correct to none reaches Holm p < α among `tested` cases. */
export function trialsNeeded(tested: number, alpha: number): number {
  let n = 1;
  while (smallestDropP(n, n) * Math.max(1, tested) >= alpha && n < 1000) n += 1;
  return n;
}

export interface NoiseOptions {
  alpha: number;
  /** Case ids in the quarantine file, and the file's path. */
  quarantine?: { file: string; cases: Set<string> } | null;
  /** Per case, the base side's extra trials asked by --remeasure-base (and how many per case). */
  remeasure?: { perCase: number; tallies: Map<string, { correct: number; scored: number }> } | null;
}

/**
 * Tests every case scored in both runs, Holm across them, and marks each flip with its test and
 * quarantine; returns the summary the gate and the renderings read.
 */
export function testCaseNoise(flips: CaseFlip[], options: NoiseOptions): NoiseSummary {
  const quarantine = options.quarantine?.cases ?? new Set<string>();
  const extra =
    options.remeasure?.tallies ?? new Map<string, { correct: number; scored: number }>();
  const tested = flips.filter(
    (f) => f.base !== null && f.current !== null && f.base.scored > 0 && f.current.scored > 0,
  );
  const sides = tested.map((f) => {
    const more = extra.get(f.case_id) ?? { correct: 0, scored: 0 };
    const base = {
      correct: (f.base?.correct ?? 0) + more.correct,
      scored: (f.base?.scored ?? 0) + more.scored,
    };
    const current = { correct: f.current?.correct ?? 0, scored: f.current?.scored ?? 0 };
    return { base, current };
  });
  const pValues = sides.map(({ base, current }) =>
    fisherDrop(base.correct, base.scored, current.correct, current.scored),
  );
  const adjusted = holm(pValues);
  for (const flip of flips) {
    flip.test = null;
    flip.quarantined = quarantine.has(flip.case_id);
  }
  tested.forEach((flip, i) => {
    flip.test = {
      ...sides[i],
      p_value: pValues[i],
      p_holm: adjusted[i],
      beyond_noise: adjusted[i] < options.alpha,
    };
  });
  const flaky = tested
    .filter(
      (f, i) =>
        isFlaky(sides[i].base) ||
        isFlaky(sides[i].current) ||
        f.base?.reliability === "flaky" ||
        f.current?.reliability === "flaky",
    )
    .map((f) => f.case_id);
  const stable = (f: CaseFlip) =>
    f.base !== null &&
    f.current !== null &&
    f.base.reliability === f.current.reliability &&
    (f.base.reliability === "always_pass" || f.base.reliability === "always_fail") &&
    !flaky.includes(f.case_id);
  const present = flips.filter((f) => f.quarantined);
  const reachable = sides.map(({ base, current }) => smallestDropP(base.scored, current.scored));
  const best =
    reachable.length === 0 ? null : Math.min(1, Math.min(...reachable) * reachable.length);
  return {
    test: "one-sided Fisher exact per case",
    correction: "holm",
    alpha: options.alpha,
    tested: tested.length,
    regressed: tested
      .filter((f) => f.test?.beyond_noise === true && f.quarantined !== true)
      .map((f) => f.case_id),
    within_noise: flips
      .filter((f) => f.kind === "regressed" && f.test?.beyond_noise !== true)
      .map((f) => f.case_id),
    flaky,
    quarantined: present.map((f) => f.case_id),
    stable_quarantined: present.filter(stable).map((f) => f.case_id),
    best_reachable: best,
    trials_needed:
      best !== null && best >= options.alpha ? trialsNeeded(tested.length, options.alpha) : null,
    remeasured: options.remeasure?.perCase ?? null,
    quarantine_file: options.quarantine?.file ?? null,
  };
}

function isFlaky(side: { correct: number; scored: number }): boolean {
  return side.correct > 0 && side.correct < side.scored;
}
