/**
 * What a shadow replay found: for every decision of the candidate (turn × trial), production's
 * choice against the candidate's — the moves table (a confusion matrix in long form, the turns
 * behind each cell kept for `show`), what became a question, an abstention or no call, and the
 * candidate-set size per turn. No labels: production's own decision is the reference.
 */
import {
  ABSTAIN,
  ASK,
  isControl,
  type ShadowCell,
  type ShadowReport,
  type TrialRecord,
} from "../types.js";
import { ClusterMoments } from "../metrics/cluster-moments.js";
import { compareText } from "../text/compare-text.js";
import {
  describeChoice,
  NO_CALL,
  type ProductionDecision,
  type ProductionDecisions,
} from "./production-decisions.js";

/** Turns named per cell (the rest are counted). */
const TURNS_PER_CELL = 20;

/**
 * A turn while its decisions are counted: production's decision and what the candidate's
 * decisions add up to so far. Once its last trial is counted, it is added to the report's sums
 * and let go: a shadow of a million turns holds the turns being asked, not a million. Each interval's cluster is a turn (a traced turn is
 * asked alone, never as a conversation's turn); production's side of a figure is its decision times n.
 */
interface CountedTurn extends ProductionDecision {
  /** Records counted, errored ones too. */
  records: number;
  /** Decisions counted (records without an error). */
  n: number;
  moved: number;
  callsCandidate: number;
  parallelCandidate: number;
  /** Ordinary tools the candidate showed (controls apart), in the last decision counted. */
  visible: number;
}

/**
 * The shadow report counted as the run keeps each record, so a shadow of any size holds sums
 * rather than its records: the moves, what became a question, an abstention or no call, and the
 * candidate set sizes.
 */
export interface ShadowTally {
  add(record: TrialRecord): void;
  report(about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">): ShadowReport;
  /** The model of the first record counted (null before any). */
  model(): string | null;
  /** Turns held: counted, and not all their trials yet. */
  held(): number;
}

/**
 * A turn's decision is taken from `production` at its first record, and the turn let go once its
 * `trials` records are counted.
 */
export function createShadowTally(production: ProductionDecisions, trials: number): ShadowTally {
  /** The turns being counted, by case id. */
  const counting = new Map<string, CountedTurn>();
  /** Production's choice → the candidate's → their cell. */
  const cells = new Map<string, Map<string, ShadowCell>>();
  const became = { question: 0, abstention: 0, no_call: 0 };
  let errored = 0;
  let decisions = 0;
  let model: string | null = null;
  const moved = new ClusterMoments();
  const calls = { production: new ClusterMoments(), candidate: new ClusterMoments() };
  const parallel = { production: new ClusterMoments(), candidate: new ClusterMoments() };
  const sizes = { turns: 0, offered: 0, visible: 0, fewer: 0, more: 0 };
  /** A turn's sums added to the report's (the sums are whole numbers: the order turns end in never shows). */
  const settle = (t: CountedTurn) => {
    if (t.n === 0) return;
    moved.add(t.n, t.moved);
    calls.production.add(t.n, t.calls * t.n);
    calls.candidate.add(t.n, t.callsCandidate);
    parallel.production.add(t.n, t.calls > 1 ? t.n : 0);
    parallel.candidate.add(t.n, t.parallelCandidate);
    sizes.turns += 1;
    sizes.offered += t.offered;
    sizes.visible += t.visible;
    if (t.visible < t.offered) sizes.fewer += 1;
    if (t.visible > t.offered) sizes.more += 1;
  };
  const add = (r: TrialRecord) => {
    model ??= r.model;
    let decision = counting.get(r.case_id);
    if (decision === undefined) {
      const held = production.take(r.case_id);
      if (held === undefined) {
        if (r.error !== null) errored += 1;
        return;
      }
      const { label, offered, calls } = held;
      decision = {
        label,
        offered,
        calls,
        records: 0,
        n: 0,
        moved: 0,
        callsCandidate: 0,
        parallelCandidate: 0,
        visible: 0,
      };
      counting.set(r.case_id, decision);
    }
    decision.records += 1;
    if (r.error !== null) errored += 1;
    else count(decision, r);
    if (decision.records >= trials) {
      settle(decision);
      counting.delete(r.case_id);
    }
  };
  const count = (decision: CountedTurn, r: TrialRecord) => {
    decisions += 1;
    const from = decision.label;
    const to = describeChoice(r.selected);
    const isMove = (r.selected ?? NO_CALL) !== from;
    let row = cells.get(from);
    if (row === undefined) cells.set(from, (row = new Map()));
    let cell = row.get(to);
    if (cell === undefined) row.set(to, (cell = { from, to, moved: isMove, count: 0, turns: [] }));
    cell.count += 1;
    // A full cell is not searched: a million turns fall in a few dozen cells.
    if (cell.turns.length < TURNS_PER_CELL && !cell.turns.includes(r.case_id))
      cell.turns.push(r.case_id);
    if (from !== NO_CALL && !isControl(from)) {
      if (r.selected === ASK) became.question += 1;
      if (r.selected === ABSTAIN) became.abstention += 1;
      if (r.selected === null) became.no_call += 1;
    }
    decision.n += 1;
    if (isMove) decision.moved += 1;
    decision.callsCandidate += r.tool_calls;
    if (r.tool_calls > 1) decision.parallelCandidate += 1;
    let visible = 0;
    for (const name of r.visible_order) if (!isControl(name)) visible += 1;
    decision.visible = visible;
  };
  const report = (about: Pick<ShadowReport, "candidate" | "run_dir" | "turns">): ShadowReport => {
    // Turns with fewer records than trials (a record that was never made) are counted as they are.
    for (const turn of counting.values()) settle(turn);
    counting.clear();
    const mean = (total: number) =>
      sizes.turns === 0 ? null : Math.round((total / sizes.turns) * 100) / 100;
    return {
      kind: "shadow",
      ...about,
      decisions,
      errored,
      moved: moved.rate(),
      cells: [...cells.values()]
        .flatMap((row) => [...row.values()])
        .sort(
          (a, b) =>
            Number(b.moved) - Number(a.moved) ||
            b.count - a.count ||
            compareText(a.from, b.from) ||
            compareText(a.to, b.to),
        ),
      became: { ...became },
      set_size: {
        production: mean(sizes.offered),
        candidate: mean(sizes.visible),
        fewer: sizes.fewer,
        more: sizes.more,
      },
      calls: {
        production: calls.production.mean(),
        candidate: calls.candidate.mean(),
        parallel: {
          production: parallel.production.rate(),
          candidate: parallel.candidate.rate(),
        },
      },
    };
  };
  return { add, report, model: () => model, held: () => counting.size };
}
