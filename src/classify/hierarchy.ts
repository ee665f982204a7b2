/**
 * Hierarchical decisions (docs/targets.md): `acceptable: target > tool`, scored at the first level
 * that failed. The ladder judges the level the model was offered first (the agents, or a server's
 * tools); past it, an agent's pick of its own tools is judged, and a wrong tool is told apart by
 * whether it lay in a right target.
 */
import { ABSTAIN, ASK } from "../types.js";
import type { HierarchyRecord, SelectionError } from "../types.js";
import { classifyTrial, type Classification, type TrialSets } from "./classify-trial.js";

/** The hierarchy's facts at record time: which target was chosen, what was picked inside it. */
export function describeHierarchy(
  spec: { by: "agent" | "server"; paths: [string, string][] },
  selected: string | null,
  inside: { offered: string[]; selected: string | null } | null,
  serverOf: (tool: string) => string | null,
): Omit<HierarchyRecord, "level"> {
  if (spec.by === "server")
    return {
      ...spec,
      target: selected === null ? null : serverOf(selected),
      inside: selected,
    };
  return {
    ...spec,
    target: selected,
    inside: inside?.selected ?? null,
    ...(inside === null ? {} : { offered: inside.offered }),
  };
}

/** The ladder, then the level: a selection failure is the target's when no path starts at the target chosen, else the tool's inside. */
export function classifyHierarchy(
  t: TrialSets,
  h: Omit<HierarchyRecord, "level">,
): Classification & { level: HierarchyRecord["level"] } {
  const ladder = classifyTrial(t);
  const rightTarget = h.paths.some(([target]) => target === h.target);
  if (h.by === "server")
    return {
      ...ladder,
      level: ladder.failed_stage !== "selection" ? null : rightTarget ? "inside" : "target",
    };
  if (ladder.failed_stage !== null)
    return { ...ladder, level: ladder.failed_stage === "selection" ? "target" : null };
  const right = h.paths.some(([target, tool]) => target === h.target && tool === h.inside);
  if (right) return { ...ladder, level: null };
  return {
    failed_stage: "selection",
    selection_error: typeInside(h),
    violated: ladder.violated || (h.inside !== null && t.forbidden.includes(h.inside)),
    level: "inside",
  };
}

/** Why the agent's pick inside was wrong, in the ladder's types. */
function typeInside(h: Omit<HierarchyRecord, "level">): SelectionError {
  if (h.inside === null) return "no_call";
  if (h.offered !== undefined && !h.offered.includes(h.inside)) return "phantom_tool";
  if (h.inside === ABSTAIN) return "abstained";
  if (h.inside === ASK) return "asked";
  return "wrong_tool";
}
