/**
 * What a shadow replay found: for every decision of the candidate (turn × trial), production's
 * choice against the candidate's — the moves table (a confusion matrix in long form, the turns
 * behind each cell kept for `show`), what became a question, an abstention or no call, and the
 * candidate-set size per turn. No labels: production's own decision is the reference.
 */
import { CONTROL_NAMES, type ShadowCell, type ShadowReport, type TrialRecord } from "../types.js";
import { meanOf, rateOf } from "../metrics/wilson.js";
import { compareText } from "../text/compare-text.js";
import { ABSTAIN, ASK } from "../types.js";
import { describeChoice, NO_CALL, type ProductionDecision } from "./turn-cases.js";

/** Turns named per cell (the rest are counted). */
const TURNS_PER_CELL = 20;

export function buildShadowReport(
  records: TrialRecord[],
  production: Map<string, ProductionDecision>,
  about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">,
): ShadowReport {
  const scored = records.filter((r) => r.error === null && production.has(r.case_id));
  const from = (r: TrialRecord) => (production.get(r.case_id) as ProductionDecision).label;
  const to = (r: TrialRecord) => describeChoice(r.selected);
  const isMove = (r: TrialRecord) => (r.selected ?? NO_CALL) !== from(r);
  const cells = new Map<string, ShadowCell>();
  for (const r of scored) {
    const key = JSON.stringify([from(r), to(r)]);
    let cell = cells.get(key);
    if (cell === undefined)
      cells.set(key, (cell = { from: from(r), to: to(r), moved: isMove(r), count: 0, turns: [] }));
    cell.count += 1;
    if (!cell.turns.includes(r.case_id) && cell.turns.length < TURNS_PER_CELL)
      cell.turns.push(r.case_id);
  }
  const ordered = [...cells.values()].sort(
    (a, b) =>
      Number(b.moved) - Number(a.moved) ||
      b.count - a.count ||
      compareText(a.from, b.from) ||
      compareText(a.to, b.to),
  );
  const fromCall = scored.filter(
    (r) => from(r) !== NO_CALL && !CONTROL_NAMES.some((c) => c === from(r)),
  );
  const sizes = perTurnSizes(scored, production);
  const productionCalls = (r: TrialRecord) =>
    (production.get(r.case_id) as ProductionDecision).calls;
  return {
    kind: "shadow",
    ...about,
    decisions: scored.length,
    errored: records.filter((r) => r.error !== null).length,
    moved: rateOf(scored, isMove),
    cells: ordered,
    became: {
      question: fromCall.filter((r) => r.selected === ASK).length,
      abstention: fromCall.filter((r) => r.selected === ABSTAIN).length,
      no_call: fromCall.filter((r) => r.selected === null).length,
    },
    set_size: sizes,
    calls: {
      production: meanOf(scored, (r) => productionCalls(r)),
      candidate: meanOf(scored, (r) => r.tool_calls),
      parallel: {
        production: rateOf(scored, (r) => productionCalls(r) > 1),
        candidate: rateOf(scored, (r) => r.tool_calls > 1),
      },
    },
  };
}

/** Ordinary tools shown per turn (controls apart): production's offered set and the candidate's visible one. */
function perTurnSizes(
  records: TrialRecord[],
  production: Map<string, ProductionDecision>,
): ShadowReport["set_size"] {
  const candidate = new Map<string, number>();
  for (const r of records)
    candidate.set(
      r.case_id,
      r.visible_order.filter((name) => !CONTROL_NAMES.some((c) => c === name)).length,
    );
  const turns = [...candidate.keys()];
  const mean = (values: number[]) =>
    values.length === 0
      ? null
      : Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100;
  const offered = (id: string) => (production.get(id) as ProductionDecision).offered;
  return {
    production: mean(turns.map(offered)),
    candidate: mean(turns.map((id) => candidate.get(id) as number)),
    fewer: turns.filter((id) => (candidate.get(id) as number) < offered(id)).length,
    more: turns.filter((id) => (candidate.get(id) as number) > offered(id)).length,
  };
}
