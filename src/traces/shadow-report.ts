/**
 * What a shadow replay found: for every decision of the candidate (turn × trial), production's
 * choice against the candidate's — the moves table (a confusion matrix in long form, the turns
 * behind each cell kept for `show`), what became a question, an abstention or no call, and the
 * candidate-set size per turn. No labels: production's own decision is the reference.
 */
import { CONTROL_NAMES, type ShadowCell, type ShadowReport, type TrialRecord } from "../types.js";
import { clusterMeanOf, clusterRateOf } from "../metrics/wilson.js";
import { compareText } from "../text/compare-text.js";
import { ABSTAIN, ASK } from "../types.js";
import { describeChoice, NO_CALL, type ProductionDecision } from "./turn-cases.js";

/** Turns named per cell (the rest are counted). */
const TURNS_PER_CELL = 20;

/**
 * A turn once a decision of it is counted: production's decision and what the candidate's
 * decisions add up to, one object in production's map in place of the decision (a million turns,
 * one map). Each interval's cluster is a turn (a traced turn is asked alone, never as a
 * conversation's turn); production's side of a figure is its decision times n.
 */
interface CountedTurn extends ProductionDecision {
  n: number;
  moved: number;
  callsCandidate: number;
  parallelCandidate: number;
  /** Ordinary tools the candidate showed (controls apart). */
  visible: number;
}

const isCounted = (turn: ProductionDecision): turn is CountedTurn => "n" in turn;

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

/** `production` is the tally's from here on: a turn's decision is replaced by its counted turn. */
export function createShadowTally(production: Map<string, ProductionDecision>): ShadowTally {
  const cells = new Map<string, ShadowCell>();
  const became = { question: 0, abstention: 0, no_call: 0 };
  let errored = 0;
  let decisions = 0;
  let model: string | null = null;
  const add = (r: TrialRecord) => {
    model ??= r.model;
    if (r.error !== null) errored += 1;
    const held = production.get(r.case_id);
    if (r.error !== null || held === undefined) return;
    let decision: CountedTurn;
    if (isCounted(held)) decision = held;
    else {
      const { label, offered, calls } = held;
      decision = {
        label,
        offered,
        calls,
        n: 0,
        moved: 0,
        callsCandidate: 0,
        parallelCandidate: 0,
        visible: 0,
      };
      production.set(r.case_id, decision);
    }
    decisions += 1;
    const from = decision.label;
    const to = describeChoice(r.selected);
    const moved = (r.selected ?? NO_CALL) !== from;
    const key = JSON.stringify([from, to]);
    let cell = cells.get(key);
    if (cell === undefined) cells.set(key, (cell = { from, to, moved, count: 0, turns: [] }));
    cell.count += 1;
    // A full cell is not searched: a million turns fall in a few dozen cells.
    if (cell.turns.length < TURNS_PER_CELL && !cell.turns.includes(r.case_id))
      cell.turns.push(r.case_id);
    if (from !== NO_CALL && !CONTROL_NAMES.some((c) => c === from)) {
      if (r.selected === ASK) became.question += 1;
      if (r.selected === ABSTAIN) became.abstention += 1;
      if (r.selected === null) became.no_call += 1;
    }
    decision.n += 1;
    if (moved) decision.moved += 1;
    decision.callsCandidate += r.tool_calls;
    if (r.tool_calls > 1) decision.parallelCandidate += 1;
    decision.visible = r.visible_order.filter(
      (name) => !CONTROL_NAMES.some((c) => c === name),
    ).length;
  };
  const report = (about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">): ShadowReport => {
    // The turns counted, in case-id order, so an interval's last digits never depend on the order records came in.
    const sums: CountedTurn[] = [];
    for (const id of [...production.keys()].sort(compareText)) {
      const turn = production.get(id) as ProductionDecision;
      if (isCounted(turn)) sums.push(turn);
    }
    // Each turn read as it is: a million turns make no object per turn per figure.
    const rate = (hits: (t: CountedTurn) => number) => clusterRateOf(sums, (t) => t.n, hits);
    const mean = (total: (t: CountedTurn) => number) => clusterMeanOf(sums, (t) => t.n, total);
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
      set_size: setSizes(sums),
      calls: {
        production: mean((t) => t.calls * t.n),
        candidate: mean((t) => t.callsCandidate),
        parallel: {
          production: rate((t) => (t.calls > 1 ? t.n : 0)),
          candidate: rate((t) => t.parallelCandidate),
        },
      },
    };
  };
  return { add, report, model: () => model };
}

/** Ordinary tools shown per counted turn (controls apart): production's offered set and the candidate's visible one. */
function setSizes(turns: readonly CountedTurn[]): ShadowReport["set_size"] {
  const mean = (value: (t: CountedTurn) => number) =>
    turns.length === 0
      ? null
      : Math.round((turns.reduce((sum, t) => sum + value(t), 0) / turns.length) * 100) / 100;
  return {
    production: mean((t) => t.offered),
    candidate: mean((t) => t.visible),
    fewer: turns.filter((t) => t.visible < t.offered).length,
    more: turns.filter((t) => t.visible > t.offered).length,
  };
}
