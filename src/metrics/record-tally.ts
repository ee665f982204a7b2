/**
 * Trial records counted as they come — a run's as it writes them, a records file's as it is read
 * — into per-case tallies (case-tally.ts) and the few run-wide sums a report needs, so that a run
 * or a report of any size holds no record in memory. The metrics of the tallies do not depend on
 * the order the records came in.
 */
import type { Report, TrialRecord } from "../types.js";
import { compareText } from "../text/compare-text.js";
import { addRecord, newTally, type CaseTally } from "./case-tally.js";
import { expandTally, settleTally, type SettledTally } from "./settle-tally.js";
import { SettledStore } from "./settled-store.js";
import type { Cluster } from "./wilson.js";
import { SharedValues } from "./shared-values.js";

/** Tokens of the answered trials, as the cost estimate counts them. */
export interface AnsweredTokens {
  input: number;
  output: number;
  /** Trials whose input count is route-eval's estimate. */
  estimated: number;
  /** Trials without an output count. */
  missing: number;
}

/** Records between settlings: a case no record came to in the last two is settled. */
const SETTLE_EVERY = 1024;

export class RecordTally {
  /**
   * `trials`: how many records each case will have, when the run knows (asked a fixed number of
   * times): a case is settled at its last one, before its tally outlives the young generation —
   * a run of a million cases asked once then makes no tally the collector must move and sweep.
   */
  constructor(private readonly trials: number | null = null) {}

  /** Cases whose records are still counted. */
  private readonly open = new Map<string, CaseTally>();
  /** Cases done (counted at their last trial, or no record came to them for a while): packed. */
  private readonly settled = new SettledStore();
  private readonly shared = new SharedValues();
  /** Cases counted since the last settling, and in the window before it. */
  private recent = new Set<CaseTally>();
  private before = new Set<CaseTally>();
  private readonly erroredTrials: Report["errored"] = [];
  /** Records counted. */
  count = 0;
  readonly answered: AnsweredTokens = { input: 0, output: 0, estimated: 0, missing: 0 };
  /** How often each endpoint, model and retriever budget appears (what a run without run.json is described by). */
  readonly seen = {
    endpoint: new Map<string, number>(),
    model: new Map<string, number>(),
    k: new Map<string, number>(),
  };

  add(r: TrialRecord): void {
    let tally = this.open.get(r.case_id);
    if (tally === undefined) {
      const settled = this.settled.take(r.case_id);
      tally = settled === undefined ? newTally(r) : expandTally(settled);
      this.open.set(r.case_id, tally);
    }
    addRecord(tally, r);
    if (tally.trials === this.trials) {
      this.settle(tally);
      this.recent.delete(tally);
      this.before.delete(tally);
    } else this.recent.add(tally);
    this.count += 1;
    if (this.count % SETTLE_EVERY === 0) this.settleQuiet();
    countSeen(this.seen.endpoint, r.endpoint);
    countSeen(this.seen.model, r.model);
    if (r.retrieval_k !== null) countSeen(this.seen.k, String(r.retrieval_k));
    if (r.error !== null) {
      this.erroredTrials.push({ case_id: r.case_id, trial: r.trial, error: r.error });
      return;
    }
    const usage = r.usage;
    if (usage.input_tokens !== null) this.answered.input += usage.input_tokens;
    else {
      this.answered.input += usage.input_tokens_estimated ?? 0;
      this.answered.estimated += 1;
    }
    if (usage.output_tokens !== null) this.answered.output += usage.output_tokens;
    else this.answered.missing += 1;
  }

  private settle(tally: CaseTally): void {
    this.open.delete(tally.caseId);
    this.settled.put(settleTally(tally, this.shared));
  }

  /** Settles the cases counted in the window before this one and not in it (most are done). */
  private settleQuiet(): void {
    for (const tally of this.before) if (!this.recent.has(tally)) this.settle(tally);
    this.before = this.recent;
    this.recent = new Set();
  }

  /** The tally of a case, if a record of it was counted. */
  get(caseId: string): CaseTally | undefined {
    const open = this.open.get(caseId);
    if (open !== undefined) return open;
    const settled = this.settled.find(caseId);
    return settled === undefined ? undefined : expandTally(settled);
  }

  /** The case tallies in case order. */
  cases(): CaseTally[] {
    return this.settledCases().map(expandTally);
  }

  /** The case tallies in case order, each settled (as a run holds it; expandTally reads one). */
  settledCases(): SettledTally[] {
    for (const tally of this.open.values()) this.settle(tally);
    this.recent.clear();
    this.before.clear();
    return this.settled.sorted();
  }

  /** The errored trials by case and trial. */
  errored(): Report["errored"] {
    return [...this.erroredTrials].sort(
      (a, b) => compareText(a.case_id, b.case_id) || a.trial - b.trial,
    );
  }
}

function countSeen(counts: Map<string, number>, value: string): void {
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

/** The records counted. */
export function tallyRecords(
  records: Iterable<TrialRecord>,
  trials: number | null = null,
): RecordTally {
  const tally = new RecordTally(trials);
  for (const r of records) tally.add(r);
  return tally;
}

/** One tally per case of the records, in case order. */
export function tallyCases(records: Iterable<TrialRecord>): CaseTally[] {
  return tallyRecords(records).cases();
}

/** Each cluster's total of a count its cases keep. */
export function sumPerCluster(
  clusters: readonly Cluster[],
  count: (c: CaseTally) => number,
): number[] {
  return clusters.map((cases) => sumOf(cases, count));
}

/** A count summed over the cases (of a cluster, or any), in their order. */
export function sumOf(cases: Cluster, count: (c: CaseTally) => number): number {
  if (!Array.isArray(cases)) return count(cases as CaseTally);
  let total = 0;
  for (const c of cases as readonly CaseTally[]) total += count(c);
  return total;
}

/** The cases of each cluster (a conversation's turns; otherwise a case alone), clusters in order. */
export function clustersOf(cases: readonly CaseTally[]): readonly Cluster[] {
  // Most runs have no conversation: each case its own cluster, named by its id, in case order.
  let alone = true;
  let last = "";
  for (let i = 0; i < cases.length && alone; i++) {
    const id = cases[i].caseId;
    alone = cases[i].cluster === id && (i === 0 || compareText(last, id) < 0);
    last = id;
  }
  if (alone) return cases;
  const byCluster = new Map<string, CaseTally[]>();
  for (const tally of cases) {
    const cluster = byCluster.get(tally.cluster);
    if (cluster === undefined) byCluster.set(tally.cluster, [tally]);
    else cluster.push(tally);
  }
  return [...byCluster.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([, tallies]) => tallies);
}
