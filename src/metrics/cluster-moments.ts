/**
 * A cluster rate or mean (metrics/wilson.ts) from running sums, for clusters counted as they end
 * and let go (a shadow's turns).
 */
import type { MeanEstimate, Rate } from "../types.js";
import { meanOfClusterSums, rateOfSums, type PooledSums } from "./wilson.js";

/**
 * Clusters counted as they end, in memory that does not grow with them: each adds its trials n
 * and its value v to Σn, Σv, Σn², Σnv and Σv², and the rate or mean is clusterRateOf's or
 * clusterMeanOf's over the same clusters. For whole values (below 2⁵³) Σ (v − share·n)² is found
 * from the sums in exact integer arithmetic, so the last digits of an interval never depend on
 * the order the clusters came in; other values are read in floating point.
 */
export class ClusterMoments {
  private present = 0;
  private total = 0;
  private sum = 0;
  private nn = 0;
  private nv = 0;
  private vv = 0;

  add(n: number, value: number): void {
    if (!(n > 0)) return;
    this.present += 1;
    this.total += n;
    this.sum += value;
    this.nn += n * n;
    this.nv += n * value;
    this.vv += value * value;
  }

  rate(): Rate {
    return rateOfSums(this.sums());
  }

  mean(): MeanEstimate {
    return meanOfClusterSums(this.sums());
  }

  private sums(): PooledSums {
    const { present, total, sum, nn, nv, vv } = this;
    if (total === 0) return { present, total, sum, squares: 0 };
    if (![sum, nn, nv, vv].every(Number.isSafeInteger)) {
      const share = sum / total;
      return {
        present,
        total,
        sum,
        squares: Math.max(0, vv - 2 * share * nv + share * share * nn),
      };
    }
    // Σ (v − S/T·n)² = (T²·Σv² − 2·S·T·Σnv + S²·Σn²) / T², its numerator whole.
    const [t, s] = [BigInt(total), BigInt(sum)];
    const numerator = t * t * BigInt(vv) - 2n * s * t * BigInt(nv) + s * s * BigInt(nn);
    return { present, total, sum, squares: Number(numerator) / (total * total) };
  }
}
