/**
 * What a shadow replay found: for every decision of the candidate (turn × trial), production's
 * choice against the candidate's — the moves table (a confusion matrix in long form, the turns
 * behind each cell kept for `show`), what became a question, an abstention or no call, and the
 * candidate-set size per turn. No labels: production's own decision is the reference.
 */
import { CONTROL_NAMES, type ShadowCell, type ShadowReport, type TrialRecord } from "../types.js";
import { clusterMeanOf, clusterOf, clusterRateOf } from "../metrics/wilson.js";
import { compareText } from "../text/compare-text.js";
import { ABSTAIN, ASK } from "../types.js";
import { describeChoice, NO_CALL, type ProductionDecision } from "./turn-cases.js";

/** Turns named per cell (the rest are counted). */
const TURNS_PER_CELL = 20;

/** What a turn's (or a conversation's) scored decisions add up to: each interval's cluster (one flat object a turn). */
interface TurnSums {
  n: number;
  moved: number;
  callsProduction: number;
  callsCandidate: number;
  parallelProduction: number;
  parallelCandidate: number;
}

/**
 * The shadow report counted as the run keeps each record, so a shadow of any size holds per-turn
 * sums rather than its records: the moves, what became a question, an abstention or no call, and
 * each turn's candidate set size.
 */
export interface ShadowTally {
  add(record: TrialRecord): void;
  report(about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">): ShadowReport;
  /** The model of the first record counted (null before any). */
  model(): string | null;
}

export function createShadowTally(production: Map<string, ProductionDecision>): ShadowTally {
  const cells = new Map<string, ShadowCell>();
  const clusters = new Map<string, TurnSums>();
  /** Ordinary tools the candidate showed each turn (controls apart). */
  const visible = new Map<string, number>();
  const became = { question: 0, abstention: 0, no_call: 0 };
  let errored = 0;
  let decisions = 0;
  let model: string | null = null;
  const add = (r: TrialRecord) => {
    model ??= r.model;
    if (r.error !== null) errored += 1;
    const decision = production.get(r.case_id);
    if (r.error !== null || decision === undefined) return;
    decisions += 1;
    const from = decision.label;
    const to = describeChoice(r.selected);
    const moved = (r.selected ?? NO_CALL) !== from;
    const key = JSON.stringify([from, to]);
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { from, to, moved, count: 0, turns: [] }));
    cell.count += 1;
    if (!cell.turns.includes(r.case_id) && cell.turns.length < TURNS_PER_CELL)
      cell.turns.push(r.case_id);
    if (from !== NO_CALL && !CONTROL_NAMES.some((c) => c === from)) {
      if (r.selected === ASK) became.question += 1;
      if (r.selected === ABSTAIN) became.abstention += 1;
      if (r.selected === null) became.no_call += 1;
    }
    const cluster = clusterOf(r);
    let sums = clusters.get(cluster);
    if (sums === undefined)
      clusters.set(
        cluster,
        (sums = {
          n: 0,
          moved: 0,
          callsProduction: 0,
          callsCandidate: 0,
          parallelProduction: 0,
          parallelCandidate: 0,
        }),
      );
    sums.n += 1;
    if (moved) sums.moved += 1;
    sums.callsProduction += decision.calls;
    sums.callsCandidate += r.tool_calls;
    if (decision.calls > 1) sums.parallelProduction += 1;
    if (r.tool_calls > 1) sums.parallelCandidate += 1;
    visible.set(
      r.case_id,
      r.visible_order.filter((name) => !CONTROL_NAMES.some((c) => c === name)).length,
    );
  };
  const report = (about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">): ShadowReport => {
    // In cluster order, so an interval's last digits never depend on the order records came in.
    const sums = [...clusters.entries()].sort(([a], [b]) => compareText(a, b)).map(([, t]) => t);
    // Read by index: a million turns make no object per turn per figure.
    const rate = (hits: (t: TurnSums) => number) =>
      clusterRateOf(
        sums.length,
        (i) => sums[i].n,
        (i) => hits(sums[i]),
      );
    const mean = (total: (t: TurnSums) => number) =>
      clusterMeanOf(
        sums.length,
        (i) => sums[i].n,
        (i) => total(sums[i]),
      );
    return {
      kind: "shadow",
      ...about,
      decisions,
      errored,
      moved: rate((t) => t.moved),
      cells: [...cells.values()].sort(
        (a, b) =>
          Number(b.moved) - Number(a.moved) ||
          b.count - a.count ||
          compareText(a.from, b.from) ||
          compareText(a.to, b.to),
      ),
      became: { ...became },
      set_size: setSizes(visible, production),
      calls: {
        production: mean((t) => t.callsProduction),
        candidate: mean((t) => t.callsCandidate),
        parallel: {
          production: rate((t) => t.parallelProduction),
          candidate: rate((t) => t.parallelCandidate),
        },
      },
    };
  };
  return { add, report, model: () => model };
}

/** Ordinary tools shown per turn (controls apart): production's offered set and the candidate's visible one. */
function setSizes(
  candidate: Map<string, number>,
  production: Map<string, ProductionDecision>,
): ShadowReport["set_size"] {
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
