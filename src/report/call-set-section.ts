/** The report's Call sets section (docs/call-sets.md#metrics): the same lines, table and notes in every format. */
import { formatCount, plural } from "../render/format.js";
import { RATE_ALIGN, rateRow, section, type Cell, type Section } from "../render/section.js";
import type { CallSetMetrics } from "../types.js";
import { formatMean } from "./tool-search-section.js";
import { CALL_SET_GATES, CALL_SET_LABELS } from "../gates/gate-names.js";

/** Call sets: were the expected calls made, only they, in order, and in how many steps. */
export function buildCallSetSection(m: CallSetMetrics): Section {
  const lines = [
    `${plural(m.decisions, "decision")} whose case expected calls (calls:); selection passes when every expected call was made, no extra call, the order kept`,
    "recall: of the expected calls, those made; precision: of the calls made (look-ups allow_extra permits apart), those expected; the case is the unit of every interval",
  ];
  const rows: Cell[][] = [
    ...CALL_SET_GATES.map((name) => rateRow(CALL_SET_LABELS[name], m[name])),
    rateRow("order kept (sequence)", m.order_kept),
    rateRow("step limit reached", m.step_limit),
  ];
  const notes = [
    `calls per decision: ${formatMean(m.calls_per_decision, 2)} (${formatCount(m.calls_per_decision.total)} calls) · model calls (steps) per decision: ${formatMean(m.steps_per_decision, 2)}`,
  ];
  return section(
    "Call sets",
    lines,
    { head: ["measure", "population", "count", "rate", "95% CI"], align: RATE_ALIGN, rows },
    notes,
  );
}
