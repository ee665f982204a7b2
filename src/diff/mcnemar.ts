/**
 * Exact paired tests. McNemar's exact test on discordant pairs is a two-sided binomial (sign)
 * test: under "no change", each discordant pair is equally likely to go either way.
 */
import type { PairedTest } from "../types/diff.js";

/** ln C(n, i) for i = 0..m, by the recurrence C(n, i) = C(n, i − 1)·(n − i + 1)/i. */
function logBinomials(n: number, m: number): number[] {
  const out = [0];
  for (let i = 1; i <= m; i++) out.push(out[i - 1] + Math.log((n - i + 1) / i));
  return out;
}

/**
 * p = min(1, 2·Σ_{i=0}^{min(b,c)} C(b+c, i) / 2^(b+c)); 1 when there are no discordant pairs.
 * Summed in log space so that thousands of discordant pairs neither overflow nor underflow.
 */
export function exactMcNemar(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`exactMcNemar: counts must be whole numbers ≥ 0, got ${b} and ${c}`);
  }
  const n = b + c;
  if (n === 0) return 1;
  const logs = logBinomials(n, Math.min(b, c)).map((l) => l - n * Math.LN2);
  const peak = logs.reduce((max, l) => Math.max(max, l), -Infinity);
  const tail = Math.exp(peak) * logs.reduce((sum, l) => sum + Math.exp(l - peak), 0);
  return Math.min(1, 2 * tail);
}

/** The paired test of `up` against `down` out of `pairs`. */
export function pairedTest(up: number, down: number, pairs: number): PairedTest {
  return { up, down, pairs, p_value: exactMcNemar(up, down) };
}

/**
 * The fewest discordant pairs that can reach p < alpha at all: they must all go one way, and
 * then p = 2 / 2^m. At alpha = 0.05 that is 6 (p = 0.031; 5 gives 0.0625).
 */
export function minDiscordantPairs(alpha: number): number | null {
  if (!(alpha > 0 && alpha <= 1)) return null;
  let m = 1;
  while (exactMcNemar(m, 0) >= alpha) m += 1;
  return m;
}

/**
 * The exact one-sided sign test that more pairs went up than down: p = P(X ≥ up) for X ~
 * Binomial(up + down, 1/2); 1 when no pair moved. Five of five up gives 0.031, six 0.016.
 */
export function signTestUp(up: number, down: number): number {
  if (!Number.isInteger(up) || !Number.isInteger(down) || up < 0 || down < 0)
    throw new RangeError(`signTestUp: counts must be whole numbers ≥ 0, got ${up} and ${down}`);
  const n = up + down;
  if (n === 0) return 1;
  // P(X ≥ up) = P(X ≤ down) by symmetry: the same log-space tail as exactMcNemar's.
  const logs = logBinomials(n, down).map((l) => l - n * Math.LN2);
  const peak = logs.reduce((max, l) => Math.max(max, l), -Infinity);
  return Math.min(1, Math.exp(peak) * logs.reduce((sum, l) => sum + Math.exp(l - peak), 0));
}
