/**
 * Figures over sums a case keeps in slots (tool search's, call sets'): each cluster's sum of a
 * slot, the share of one slot's count in another's (a rate clustered by case), and a slot's
 * mean per decision (a cluster-robust mean).
 */
import type { MeanEstimate, Rate } from "../types.js";
import type { CaseTally } from "./case-tally.js";
import { sumPerCluster } from "./record-tally.js";
import { clusterMean, clusterRate, type Cluster } from "./wilson.js";

export interface SlotFigures {
  /** Each cluster's decisions (the slot given as the decisions'). */
  decisions: number[];
  /** Each cluster's sum of a slot. */
  perCluster: (slot: number) => number[];
  /** Of the count in `of`, the share in `hit`. */
  share: (of: number, hit: number) => Rate;
  /** A slot's sum per decision. */
  mean: (slot: number) => MeanEstimate;
}

export function slotFigures(
  clusters: readonly Cluster[],
  sumsOf: (c: CaseTally) => Float64Array | null,
  decisionsSlot: number,
): SlotFigures {
  const perCluster = (slot: number) => sumPerCluster(clusters, (c) => sumsOf(c)?.[slot] ?? 0);
  const decisions = perCluster(decisionsSlot);
  return {
    decisions,
    perCluster,
    share: (of, hit) => {
      const n = perCluster(of);
      const s = perCluster(hit);
      return clusterRate(n.map((count, i) => ({ n: count, s: s[i] })));
    },
    mean: (slot) => {
      const sums = perCluster(slot);
      return clusterMean(decisions.map((n, i) => ({ n, sum: sums[i] })));
    },
  };
}
