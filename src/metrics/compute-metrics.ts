/**
 * Every metric of docs/metrics.md from trial records, through their case tallies (case-tally.ts).
 * Pure. Errored trials are counted and excluded from every rate, pass^k, consistency figure and
 * confusion table.
 */
import { RATE_NAMES, type RateName } from "../types/rates.js";
import {
  CALL_SET_ERRORS,
  POSITION_THIRDS,
  SELECTION_ERRORS,
  type CallSetMetrics,
  type HierarchyMetrics,
  type SelectionErrorCounts,
  STAGES,
  type ConversationMetrics,
  type Metrics,
  type PositionThird,
  type Rate,
  type SelectionError,
  type Stage,
  type Success,
  type ToolSearchMetrics,
  type TrialRecord,
} from "../types.js";
import type { CaseTally } from "./case-tally.js";
import { clustersOf, sumOf, tallyCases } from "./record-tally.js";
import { computeConfusions } from "./confusions.js";
import { computeReliability } from "./reliability.js";
import { computeInputTokens, computeRetrievalQuality } from "./retrieval-quality.js";
import { compareText } from "../text/compare-text.js";
import { clusterRateOf, membersOf, type Cluster } from "./wilson.js";
import { computeConversations } from "./conversations.js";
import { computeToolSearch } from "./tool-search.js";
import { computeCallSets } from "./call-sets.js";
import { computeHierarchy } from "./hierarchy.js";

/** All metrics of a set of records (a run, or one breakdown's subset); pass^k by the run's `success`. */
export function computeMetrics(records: TrialRecord[], success: Success = "selection"): Metrics {
  return metricsOfCases(tallyCases(records), success);
}

/** A trial-level rate over the clusters, from its cases' counts. */
function perCluster(
  clusters: readonly Cluster[],
  n: (c: CaseTally) => number,
  s: (c: CaseTally) => number,
): Rate {
  return clusterRateOf(
    clusters,
    (cases) => sumOf(cases, n),
    (cases) => sumOf(cases, s),
  );
}

/** Each rate of the table over the clusters: their cases' counts added up once (a cluster is mostly one case). */
function countRates(clusters: readonly Cluster[]): Record<RateName, Rate> {
  const counts = clusters.map((cluster) => {
    const cases = membersOf(cluster);
    if (cases.length === 1) return cases[0].rates;
    const sum = new Array<number>(cases[0].rates.length).fill(0);
    for (const c of cases) for (let i = 0; i < sum.length; i++) sum[i] += c.rates[i];
    return sum;
  });
  const rates = {} as Record<RateName, Rate>;
  RATE_NAMES.forEach((name, r) => {
    rates[name] = clusterRateOf(
      counts,
      (c) => c[2 * r],
      (c) => c[2 * r + 1],
    );
  });
  return rates;
}

/** The metrics of the cases (in case order) whose tallies are given, pass^k by `success`. */
export function metricsOfCases(cases: readonly CaseTally[], success: Success): Metrics {
  const clusters = clustersOf(cases);
  const trials = sumOf(cases, (c) => c.trials);
  const scored = sumOf(cases, (c) => c.scored);
  const rates = countRates(clusters);
  const visible = sumOf(cases, (c) => c.visible);
  return {
    trials,
    errored: trials - scored,
    scored,
    ...rates,
    tool_recall_at_k: computeRecallAtK(clusters),
    mean_visible: scored === 0 ? null : visible / scored,
    failure_profile: Object.fromEntries(
      STAGES.map((stage) => [stage, sumOf(cases, (c) => c.stages[stage])]),
    ) as Record<Stage, number>,
    selection_errors: countSelectionErrors(cases),
    ...computeConfusions(cases),
    ...computeReliability(cases, success),
    retrieval: computeRetrievalQuality(clusters),
    input_tokens: computeInputTokens(cases),
    selection_by_position: Object.fromEntries(
      POSITION_THIRDS.map((third, i) => [
        third,
        perCluster(
          clusters,
          (c) => c.thirds[2 * i],
          (c) => c.thirds[2 * i + 1],
        ),
      ]),
    ) as Record<PositionThird, Rate>,
    ...withConversations(
      computeConversations(
        cases.flatMap((c) => c.turns ?? []),
        success,
      ),
    ),
    ...withToolSearch(computeToolSearch(clusters)),
    ...withCallSets(computeCallSets(clusters)),
    ...withHierarchy(computeHierarchy(clusters)),
  };
}

/** Selection failures by type; a call-set type only when some trial had it (so a run without call sets reports as before). */
function countSelectionErrors(cases: readonly CaseTally[]): SelectionErrorCounts {
  const counts = Object.fromEntries(
    SELECTION_ERRORS.map((e) => [e, sumOf(cases, (c) => c.selectionErrors[e])]),
  ) as Record<SelectionError, number>;
  for (const type of CALL_SET_ERRORS) if (counts[type] === 0) delete counts[type];
  return counts;
}

function withHierarchy(hierarchy: HierarchyMetrics | null): { hierarchy?: HierarchyMetrics } {
  return hierarchy === null ? {} : { hierarchy };
}

function withCallSets(callSets: CallSetMetrics | null): { call_sets?: CallSetMetrics } {
  return callSets === null ? {} : { call_sets: callSets };
}

/** Over exposed trials, by retriever budget: "all" for trials without a retriever; numeric keys ascending, "all" last. */
function computeRecallAtK(clusters: readonly Cluster[]): Record<string, Rate> {
  const keys = new Set<string>();
  for (const cluster of clusters)
    for (const c of membersOf(cluster))
      for (let i = 0; i < c.recallAtK.length; i++) keys.add(c.recallAtK[i].k);
  const sorted = [...keys].sort(
    (a, b) =>
      (a === "all" ? 1 : 0) - (b === "all" ? 1 : 0) || Number(a) - Number(b) || compareText(a, b),
  );
  /** A case's count at budget k: its n or s there (0 where it had none). */
  const at = (c: CaseTally, k: string, pick: "n" | "s") => {
    for (let i = 0; i < c.recallAtK.length; i++)
      if (c.recallAtK[i].k === k) return c.recallAtK[i][pick];
    return 0;
  };
  return Object.fromEntries(
    sorted.map((k) => [
      k,
      perCluster(
        clusters,
        (c) => at(c, k, "n"),
        (c) => at(c, k, "s"),
      ),
    ]),
  );
}

function withToolSearch(toolSearch: ToolSearchMetrics | null): { tool_search?: ToolSearchMetrics } {
  return toolSearch === null ? {} : { tool_search: toolSearch };
}

function withConversations(conversations: ConversationMetrics | null): {
  conversations?: ConversationMetrics;
} {
  return conversations === null ? {} : { conversations };
}
