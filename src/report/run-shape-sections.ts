/**
 * The sections a run's shape adds to its summary: conversations (success over whole
 * conversations, the ladder by turn) and adaptive trials (each case's decision and the calls saved).
 */
import type { AdaptiveSummary } from "../types/report.js";
import { STAGES, type ConversationMetrics } from "../types.js";
import { compareKeys, formatCi, formatPercent, formatRate, plural } from "../render/format.js";
import { compareText } from "../text/compare-text.js";
import { section, type Cell, type Section, type TableData } from "../render/section.js";

/** Conversation cases: success over whole conversations, the ladder by turn, where they first fail. */
export function buildConversationSection(c: ConversationMetrics): Section {
  const trials = c.success.denominator;
  const passK = Object.keys(c.pass_hat_k).sort(compareKeys);
  const last = passK[passK.length - 1];
  const lines = [
    `${plural(c.conversations, "conversation")}, each turn asked with ${c.on_policy === undefined ? "the gold history of the turns before it" : "the model's own earlier replies (on-policy)"}; a conversation's trial succeeds when every turn of it is correct`,
    `conversation success ${formatRate(c.success)} of ${plural(trials, "scored trial")} ${formatCi(c.success.ci)}${last === undefined || last === "1" ? "" : ` · pass^${last} ${formatRate(c.pass_hat_k[last])} over conversations`}`,
  ];
  const rows = c.by_turn.map((t): Cell[] => [
    `turn ${t.turn}`,
    String(t.scored),
    `${formatPercent(t.scored === 0 ? null : t.correct / t.scored)} (${t.correct})`,
    ...STAGES.map((stage) => String(t.failure_profile[stage])),
  ]);
  const table: TableData = {
    head: ["turn", "scored", "correct", ...STAGES],
    align: ["left", "right", "right", "right", "right", "right", "right"],
    rows,
  };
  const first = Object.entries(c.first_failure).map(([turn, n]) =>
    turn === "none" ? `none ×${n}` : `turn ${turn} ×${n}`,
  );
  const notes = [
    `first failure: ${first.length === 0 ? "no scored trial" : first.join(" · ")}`,
    `exposure lag: ${c.exposure_lag} selection failure${c.exposure_lag === 1 ? "" : "s"} at the turn that added an acceptable tool (the model answered as if it were absent)`,
    ...(c.on_policy === undefined
      ? []
      : [
          `after a wrong turn: ${plural(c.on_policy.after_miss, "later turn")}, ${c.on_policy.recovered} recovered, ${c.on_policy.downstream_failures} failed downstream`,
          ...(c.on_policy.unstubbed > 0
            ? [
                `${plural(c.on_policy.unstubbed, "turn")} had a call in its history that the case gives no result for (an error result was fed; give results:)`,
              ]
            : []),
        ]),
  ];
  return section("Conversations", lines, table, notes);
}

const MAX_ADAPTIVE_ROWS = 40;

/** "4.2e+3", "0.51": an e-value as the bar 1/α is written. */
function formatEvidence(e: number): string {
  return e >= 1000 || (e > 0 && e < 0.01) ? e.toExponential(1) : e.toFixed(2);
}

/** Adaptive trials: the plan, each case's decision (undecided and failing first) and the calls against the fixed plan. */
export function buildAdaptiveSection(a: AdaptiveSummary): Section {
  const cases = a.cases.length;
  const order = { undecided: 0, fail: 1, pass: 2 } as const;
  const rows = [...a.cases].sort(
    (x, y) => order[x.decision] - order[y.decision] || compareText(x.case_id, y.case_id),
  );
  const floor =
    a.certify_pass_floor === null
      ? ""
      : `; certifying a pass takes at least ${a.certify_pass_floor} trials, all correct`;
  const lines = [
    `each case asked one trial at a time until a ${a.test.split(" (")[0]} decided it against θ = ${formatDecimalPlain(a.target)} (${a.source}), or ${a.max_trials} trials; α ${a.alpha} split across ${plural(cases, "case")} (${formatDecimalPlain(a.case_alpha)} each)${floor}`,
    `decided pass ${a.pass} · decided fail ${a.fail} · undecided ${a.undecided} (of ${plural(cases, "case")})`,
    `calls: ${a.calls} of the fixed plan's ${a.fixed_plan_calls} (${plural(cases, "case")} × ${a.max_trials}): ${formatPercent(a.saved)} (${a.fixed_plan_calls - a.calls}/${a.fixed_plan_calls}) fewer`,
  ];
  const table: TableData = {
    head: ["case", "decision", "correct", "e pass", "e fail"],
    align: ["left", "left", "right", "right", "right"],
    rows: rows
      .slice(0, MAX_ADAPTIVE_ROWS)
      .map((c) => [
        c.case_id,
        c.decision,
        `${c.correct}/${c.trials}`,
        formatEvidence(c.e_pass),
        formatEvidence(c.e_fail),
      ]),
  };
  const notes = [
    `a decision is made when an e-value reaches 1/α per case = ${formatEvidence(1 / a.case_alpha)}; it is anytime-valid: looking after every trial does not raise the error`,
  ];
  if (rows.length > MAX_ADAPTIVE_ROWS)
    notes.push(`… and ${rows.length - MAX_ADAPTIVE_ROWS} more (report.json lists every case)`);
  return section("Adaptive trials", lines, table, notes);
}

function formatDecimalPlain(x: number): string {
  return Number(x.toPrecision(3)).toString();
}
