/**
 * The anytime-valid test behind adaptive trials: per case, two one-sided beta-binomial mixture
 * e-processes against the target θ (Robbins' mixture; research note `adaptive-trials.md`, R4).
 *
 *   to certify p > θ:  E⁺ₙ = ∫_θ¹ LRₙ(q) dq/(1−θ),   LRₙ(q) = qˢ(1−q)ᶠ / (θˢ(1−θ)ᶠ)
 *   to certify p < θ:  E⁻ₙ = ∫₀^θ LRₙ(q) dq/θ
 *
 * Under any p ≤ θ, E⁺ is a nonnegative supermartingale (each factor has expectation ≤ 1), so by
 * Ville's inequality P(∃n: E⁺ₙ ≥ 1/α) ≤ α: the case may be looked at after every trial and
 * stopped at the first n where either crosses 1/α, and a pass is false at most α of the time.
 * Closed form: ∫_a^b qˢ(1−q)ᶠ dq = B(s+1, f+1)·(I_b − I_a), the regularized incomplete beta.
 */

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9; relative error below 1e-13). */
export function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0];
  for (let i = 1; i < 9; i++) sum += c[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** ln B(a, b). */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** The continued fraction of the incomplete beta (modified Lentz). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10_000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** ln I_x(a, b), the regularized incomplete beta, computed on the side where it does not cancel. */
export function logBetaInc(x: number, a: number, b: number): number {
  if (x <= 0) return -Infinity;
  if (x >= 1) return 0;
  const front = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  if (x < (a + 1) / (a + b + 2)) return front + Math.log(betaFraction(a, b, x)) - Math.log(a);
  return Math.log1p(-Math.exp(front + Math.log(betaFraction(b, a, 1 - x)) - Math.log(b)));
}

/** ln E⁺ and ln E⁻ after `s` successes and `f` failures, against θ. */
export function logEvidence(s: number, f: number, theta: number): { pass: number; fail: number } {
  const base = logBeta(s + 1, f + 1) - s * Math.log(theta) - f * Math.log1p(-theta);
  return {
    // ∫_θ¹ = B·(1 − I_θ(s+1, f+1)) = B·I_{1−θ}(f+1, s+1)
    pass: base + logBetaInc(1 - theta, f + 1, s + 1) - Math.log1p(-theta),
    fail: base + logBetaInc(theta, s + 1, f + 1) - Math.log(theta),
  };
}

export type CaseDecision = "pass" | "fail" | "undecided";

export interface CaseVerdict {
  decision: CaseDecision;
  /** Trials the decision rests on (the prefix at which it stopped, or all of them). */
  trials: number;
  successes: number;
  /** The e-values at that point. */
  e_pass: number;
  e_fail: number;
}

/**
 * The first prefix of `outcomes` (in trial order) at which either e-process crosses 1/α: pass or
 * fail there; else undecided after them all. A pure function of the sequence, so a replay of the
 * same outcomes stops at the same trial.
 */
export function decideCase(
  outcomes: readonly boolean[],
  theta: number,
  alpha: number,
): CaseVerdict {
  const bar = -Math.log(alpha);
  let s = 0;
  let evidence = { pass: 0, fail: 0 };
  for (let n = 1; n <= outcomes.length; n++) {
    if (outcomes[n - 1]) s += 1;
    evidence = logEvidence(s, n - s, theta);
    if (evidence.pass >= bar)
      return {
        decision: "pass",
        trials: n,
        successes: s,
        e_pass: Math.exp(evidence.pass),
        e_fail: Math.exp(evidence.fail),
      };
    if (evidence.fail >= bar)
      return {
        decision: "fail",
        trials: n,
        successes: s,
        e_pass: Math.exp(evidence.pass),
        e_fail: Math.exp(evidence.fail),
      };
  }
  return {
    decision: "undecided",
    trials: outcomes.length,
    successes: s,
    e_pass: Math.exp(evidence.pass),
    e_fail: Math.exp(evidence.fail),
  };
}

/** The fewest all-correct trials that certify a pass against θ at α (research note: 43 at θ 0.9, α 0.05). */
export function trialsToCertifyPass(theta: number, alpha: number, max = 100_000): number | null {
  for (let n = 1; n <= max; n++) if (logEvidence(n, 0, theta).pass >= -Math.log(alpha)) return n;
  return null;
}
