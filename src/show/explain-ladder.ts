/**
 * The ladder of one case, rung by rung, each with its status over the scored trials and one
 * sentence of evidence; and the retriever's ranking of the exposed tools.
 */
import { STAGES, isControl } from "../types.js";
import type { Stage, TrialRecord } from "../types.js";
import type { CaseFacts, LadderStep, RankedTool, StepStatus } from "../types/explain.js";
import { formatCounts, formatDecimal } from "../render/format.js";

/**
 * What the record keeps of the retriever's ranking — its top (the kept tools and a few below the
 * cut) and every acceptable tool — best first; null without scores.
 */
export function rankTools(record: TrialRecord): RankedTool[] | null {
  const { retrieval } = record;
  if (retrieval === null) return null;
  const visible = new Set(record.visible_order);
  const acceptable = new Set(record.acceptable);
  const byName = new Map(
    [...retrieval.top, ...retrieval.acceptable].map((tool) => [tool.name, tool]),
  );
  return [...byName.values()]
    .sort((a, b) => a.rank - b.rank)
    .map((tool) => ({
      ...tool,
      kept: visible.has(tool.name),
      acceptable: acceptable.has(tool.name),
    }));
}

/** The best-ranked acceptable tool, or null when none was exposed. */
export function bestAcceptable(ranking: RankedTool[]): RankedTool | null {
  return ranking.find((tool) => tool.acceptable) ?? null;
}

function statusAt(stage: Stage, scored: TrialRecord[]): StepStatus {
  const index = STAGES.indexOf(stage);
  const reached = scored.filter(
    (t) => t.failed_stage === null || STAGES.indexOf(t.failed_stage) >= index,
  );
  const failed = reached.filter((t) => t.failed_stage === stage).length;
  if (reached.length === 0) return "not_reached";
  if (failed === 0) return "passed";
  return failed === reached.length ? "failed" : "mixed";
}

const NOT_REACHED: Record<Stage, string> = {
  coverage: "not reached: every trial errored",
  exposure: "not reached: coverage failed",
  discovery: "not reached: exposure failed",
  selection: "not reached: discovery failed",
};

type Describe = (f: CaseFacts, failed: boolean) => string;

const DESCRIBE: Record<Stage, Describe> = {
  coverage: (f, failed) => {
    const size = `${f.registry.tools} tools in the registry (+${f.registry.controls} controls)`;
    return failed
      ? `${size}; none of the acceptable tools (${f.acceptable.join(", ")}) exists`
      : `${size}; acceptable present: ${f.registry.acceptable_present.join(", ")}`;
  },
  exposure: (f, failed) => {
    const { phase, policy, exposed, hidden, hidden_acceptable } = f.exposure;
    if (phase === null) return `no phase: all ${exposed} tools exposed`;
    const known = policy === null ? ` (policy not in run.json)` : "";
    const counts = `phase ${phase}${known} exposed ${exposed} of ${f.registry.tools} tools and hid ${hidden}`;
    if (!failed) return counts;
    const hiddenAcceptable = hidden_acceptable.map(
      (tool) => `${tool.name} (${tool.rules.join(" + ") || "unknown rule"})`,
    );
    return `${counts}; it hid every acceptable tool: ${hiddenAcceptable.join(", ")}`;
  },
  discovery: (f, failed) => {
    const { ranking, k, exposed } = f.discovery;
    const searched = f.trial_views.filter((v) => v.error === null && v.search !== undefined);
    if (searched.length > 0) {
      // Tool search: the visible set is what the searches loaded.
      const loaded = searched.filter(
        (v) => v.failed_stage === null || v.failed_stage === "selection",
      ).length;
      return `searches loaded an acceptable tool in ${loaded} of ${searched.length} trials (${exposed} exposed tools behind search; the trials list each query)`;
    }
    const ordinaryVisible = f.visible_order.filter((name) => !isControl(name)).length;
    if (ranking === null) {
      return failed
        ? `no acceptable tool among the ${ordinaryVisible} visible tools`
        : `no retriever: all ${exposed} exposed tools visible`;
    }
    const best = bestAcceptable(ranking);
    const kept = `the retriever kept ${ordinaryVisible} of ${exposed} at k=${k ?? "?"}`;
    if (best === null) {
      const controls = f.acceptable.filter(
        (name) => isControl(name) && f.visible_order.includes(name),
      );
      return controls.length > 0
        ? `${kept}; ${controls.join(", ")} is a control, always visible (controls never use k)`
        : `${kept}; no acceptable tool was exposed to rank`;
    }
    const where = `${best.name} ranked #${best.rank} (score ${formatDecimal(best.score)})`;
    return failed ? `${kept}; ${where}, below the cut at #${ordinaryVisible}` : `${kept}; ${where}`;
  },
  selection: (f) => {
    const reached = f.trial_views.filter(
      (v) => v.error === null && (v.failed_stage === null || v.failed_stage === "selection"),
    );
    const right = reached.filter((v) => v.failed_stage === null).length;
    const wrong: Record<string, number> = {};
    for (const v of reached.filter((t) => t.failed_stage === "selection")) {
      const chosen = `${v.selected ?? "(no call)"}${v.level === "inside" ? " (inside the right agent)" : ""}`;
      wrong[chosen] = (wrong[chosen] ?? 0) + 1;
    }
    if (f.expected_calls !== undefined) {
      const types: Record<string, number> = {};
      for (const v of reached)
        if (v.selection_error !== null)
          types[v.selection_error] = (types[v.selection_error] ?? 0) + 1;
      const why = Object.keys(types).length === 0 ? "" : `; failed: ${formatCounts(types)}`;
      return `${right} of ${reached.length} trials made exactly the expected calls${why}`;
    }
    const instead = Object.keys(wrong).length === 0 ? "" : `; instead: ${formatCounts(wrong)}`;
    return `${right} of ${reached.length} trials chose an acceptable tool${instead}`;
  },
};

export function buildLadder(facts: CaseFacts, scored: TrialRecord[]): LadderStep[] {
  return STAGES.map((stage) => {
    const status = statusAt(stage, scored);
    const unreached = scored.length === 0 ? NOT_REACHED.coverage : NOT_REACHED[stage];
    const text = status === "not_reached" ? unreached : DESCRIBE[stage](facts, status !== "passed");
    return { stage, status, text };
  });
}
