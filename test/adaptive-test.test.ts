/**
 * The adaptive trials' test: the beta-binomial mixture e-processes against a target θ, checked
 * against hand-computed values and the research note's figures, and its error rates measured on
 * simulated cases with known p (seeded): a case at or below θ is certified "pass" at most α of
 * the time, over 200 repetitions, even looked at after every trial.
 */
import { describe, expect, it } from "vitest";
import {
  decideCase,
  logBetaInc,
  logEvidence,
  logGamma,
  trialsToCertifyPass,
} from "../src/metrics/e-process.js";
import { deriveSeed, seededRandom } from "../src/text/seeded-random.js";

describe("the e-processes", () => {
  it("compute ln Γ and the regularized incomplete beta", () => {
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 12);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 12);
    // I_0.3(2, 5) = 1 − Σ_{j<2} C(6,j) 0.3^j 0.7^(6−j) = 1 − 0.7^6 − 6·0.3·0.7^5
    expect(Math.exp(logBetaInc(0.3, 2, 5))).toBeCloseTo(1 - 0.7 ** 6 - 6 * 0.3 * 0.7 ** 5, 12);
    // I_x(a, b) = P(Binomial(a + b − 1, x) ≥ a): I_0.9(30, 2) = 31·0.9^30·0.1 + 0.9^31
    expect(Math.exp(logBetaInc(0.9, 30, 2))).toBeCloseTo(31 * 0.9 ** 30 * 0.1 + 0.9 ** 31, 12);
  });

  it("match the closed forms of all-correct and all-wrong runs", () => {
    // E⁺ after n correct: (1 − θ^(n+1)) / ((n+1)(1−θ)θⁿ);  E⁻ after n wrong: (1 − (1−θ)^(n+1)) / ((n+1)θ(1−θ)ⁿ)
    for (const n of [1, 5, 20, 43]) {
      expect(Math.exp(logEvidence(n, 0, 0.9).pass)).toBeCloseTo(
        (1 - 0.9 ** (n + 1)) / ((n + 1) * 0.1 * 0.9 ** n),
        8,
      );
      expect(
        Math.exp(logEvidence(0, n, 0.9).fail) / ((1 - 0.1 ** (n + 1)) / ((n + 1) * 0.9 * 0.1 ** n)),
      ).toBeCloseTo(1, 10);
    }
  });

  it("certify a pass after the research note's numbers of clean trials, and a fail fast", () => {
    expect(trialsToCertifyPass(0.9, 0.05)).toBe(43);
    expect(trialsToCertifyPass(0.8, 0.05)).toBe(20);
    expect(decideCase([false, false], 0.9, 0.05)).toMatchObject({ decision: "fail", trials: 2 });
    expect(decideCase(Array(50).fill(true), 0.9, 0.05)).toMatchObject({
      decision: "pass",
      trials: 43,
      successes: 43,
    });
    expect(decideCase([true, true, true], 0.9, 0.05).decision).toBe("undecided");
  });
});

describe("error rates on simulated cases with known p", () => {
  const simulate = (p: number, rep: number, cap: number) => {
    const random = seededRandom(deriveSeed("adaptive-sim", p, rep));
    return Array.from({ length: cap }, () => random() < p);
  };

  it("a case at p = θ is falsely certified 'pass' at most α of the time (200 repetitions, every trial looked at)", () => {
    for (const theta of [0.8, 0.9]) {
      let falsePass = 0;
      for (let rep = 0; rep < 200; rep++)
        if (decideCase(simulate(theta, rep, 400), theta, 0.05).decision === "pass") falsePass += 1;
      // The criterion: over 200 repetitions the false-pass rate stays ≤ α (seeded: 10 and 8 here).
      expect(falsePass / 200).toBeLessThanOrEqual(0.05);
    }
  });

  it("a clearly failing case stops within a few trials; a clearly passing one near the floor", () => {
    const used = (p: number) =>
      Array.from({ length: 200 }, (_, rep) => decideCase(simulate(p, rep, 200), 0.9, 0.05));
    const failing = used(0.5);
    expect(failing.every((v) => v.decision === "fail")).toBe(true);
    expect(failing.reduce((sum, v) => sum + v.trials, 0) / 200).toBeLessThan(12);
    const passing = used(1);
    expect(passing.every((v) => v.decision === "pass" && v.trials === 43)).toBe(true);
  });
});
