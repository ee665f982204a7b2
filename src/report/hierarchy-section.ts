/** The report's Routing targets section (docs/targets.md#hierarchical-cases): the same lines and table in every format. */
import { plural } from "../render/format.js";
import { RATE_ALIGN, rateRow, section, type Section } from "../render/section.js";
import type { HierarchyMetrics } from "../types.js";

/** Hierarchical decisions: did a wrong choice fail at the target, or inside it? */
export function buildHierarchySection(m: HierarchyMetrics): Section {
  return section(
    "Routing targets",
    [
      `${plural(m.decisions, "decision")} whose case wrote acceptable: target > tool; a wrong choice is scored at the first level that failed (the agent or server, then the tool inside it)`,
    ],
    {
      head: ["measure", "population", "count", "rate", "95% CI"],
      align: RATE_ALIGN,
      rows: [
        rateRow("wrong target", m.wrong_target),
        rateRow("wrong tool inside", m.wrong_inside),
        rateRow("right tool | right target", m.right_inside_given_target),
      ],
    },
    [],
  );
}
