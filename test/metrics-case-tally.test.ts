/**
 * The run's metrics and every breakdown slice come from per-case tallies, each case's records
 * counted once. These check the tallies' merges against counting the slice's records again, on
 * random runs with conversations, rankings and tool search; and that ranking quality is summed
 * in one order (case by case, trial by trial), whatever order the records came in.
 */
import { describe, expect, it } from "vitest";
import { computeBreakdowns } from "../src/metrics/breakdowns.js";
import { RecordTally, tallyCases, tallyRecords } from "../src/metrics/record-tally.js";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import { scoreRanks } from "../src/metrics/retrieval-quality.js";
import { seededRandom } from "../src/text/seeded-random.js";
import type { TrialRecord } from "../src/types.js";
import { classified } from "./support/records.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];
const TOOLS = ["get_order", "find_orders", "cancel_order", "refund_order", "track_parcel"];

function randomRun(seed: number): TrialRecord[] {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
  const some = <T>(items: readonly T[], p: number): T[] => items.filter(() => rand() < p);
  const records: TrialRecord[] = [];
  for (let c = 0; c < 14; c++) {
    // Cases 10–13 are the turns of two conversations, asked 4 trials each.
    const turn =
      c >= 10
        ? {
            conversation: `conv-${c % 2}`,
            index: 1 + Math.floor((c - 10) / 2),
            of: 2,
            added: [],
            removed: [],
            withheld: [],
            added_now: [],
          }
        : undefined;
    const at = {
      case_id: turn === undefined ? `case-${c}` : `${turn.conversation}@${turn.index}`,
      phase: pick([null, "desk", "ops"]),
      family: pick([null, "orders", "parcels"]),
      tags: some(["read", "write", "read"], 0.5),
    };
    const acceptable = rand() < 0.15 ? [pick(CONTROLS)] : [pick(TOOLS)];
    for (let trial = 0; trial < 4; trial++) {
      const registry = [...CONTROLS, ...some(TOOLS, 0.9)];
      const exposed = [...CONTROLS, ...registry.slice(3).filter(() => rand() < 0.8)];
      const visible = [...CONTROLS, ...exposed.slice(3).filter(() => rand() < 0.7)].sort(
        () => rand() - 0.5,
      );
      const k = pick([null, 2, 3]);
      const ranks = acceptable
        .filter((n) => !CONTROLS.includes(n))
        .map((name) => ({ name, rank: 1 + Math.floor(rand() * 5), score: 1 }));
      const searched = rand() < 0.3;
      records.push(
        classified({
          ...at,
          trial,
          acceptable,
          forbidden: some(TOOLS, 0.2),
          registry_names: registry,
          exposed_names: exposed,
          retrieved_names: visible,
          visible_order: visible,
          retrieval_k: k,
          retrieval:
            k === null ? null : { candidates: exposed.length - 3, top: [], acceptable: ranks },
          must_see: [],
          must_not_see: [],
          selected: rand() < 0.1 ? null : pick([...visible, ...TOOLS]),
          arguments: {},
          argument_errors: rand() < 0.3 ? null : rand() < 0.7 ? [] : ["/order_id: must be string"],
          argument_match: pick([null, true, false]),
          failed_stage: null,
          selection_error: null,
          violated: false,
          response_text: null,
          tool_calls: pick([0, 1, 2]),
          usage: {
            input_tokens: rand() < 0.5 ? null : 10 + trial,
            output_tokens: 2,
            input_tokens_estimated: 7,
          },
          latency_ms: 5,
          endpoint: "test",
          model: "test",
          request_hash: "h",
          error: rand() < 0.08 ? "HTTP 500" : null,
          ...(turn === undefined ? {} : { turn }),
          ...(searched
            ? {
                search: {
                  mode: "client",
                  kind: "bm25",
                  deferred: 5,
                  always_loaded: [],
                  searches: [{ query: "q", returned: some(TOOLS, 0.4), by: "route-eval" }],
                  outcome: pick(["moved", "search_limit"] as const),
                  calls: 2,
                  definition_tokens: 40 + trial,
                  definition_tokens_unsearched: 90,
                },
              }
            : {}),
        }),
      );
    }
  }
  // Records arrive as a concurrent run writes them: not in case order.
  return records.sort(() => rand() - 0.5);
}

describe("metrics from case tallies", () => {
  it("give each breakdown slice the metrics of its records, counted again", () => {
    for (const seed of [5, 6, 7, 8]) {
      const records = randomRun(seed);
      const cases = tallyCases(records);
      const whole = computeMetrics(records);
      expect(whole.conversations?.conversations).toBeGreaterThan(0);
      expect(whole.tool_search?.decisions).toBeGreaterThan(0);
      const breakdowns = computeBreakdowns(() => records, cases, "selection", whole);
      const keysOf = {
        family: (t: TrialRecord) => [t.family ?? "(none)"],
        phase: (t: TrialRecord) => [t.phase ?? "(none)"],
        tag: (t: TrialRecord) => t.tags,
      };
      for (const kind of ["family", "phase", "tag"] as const) {
        expect(Object.keys(breakdowns[kind]).length).toBeGreaterThan(1);
        for (const [key, metrics] of Object.entries(breakdowns[kind])) {
          expect(metrics, `${kind} ${key}`).toEqual(
            computeMetrics(records.filter((t) => keysOf[kind](t).includes(key))),
          );
        }
      }
    }
  });

  it("sum a conversation's ranking quality turn by turn, each in trial order, whatever order the records came in", () => {
    // Trials 0 and 1 of turns 1 and 2: these nDCGs summed in another order end in other last digits.
    const ranks = [
      [1, 2],
      [4, 6],
      [1, 2],
      [1, 2],
    ];
    const ndcg = ranks.map(
      (list) =>
        scoreRanks(
          list.map((rank) => ({ rank })),
          5,
        )?.ndcg ?? 0,
    );
    const turnByTurn = ndcg.reduce((sum, x) => sum + x, 0);
    expect(ndcg[0] + ndcg[2] + ndcg[1] + ndcg[3]).not.toBe(turnByTurn);
    const records = ranks.map((list, i) => {
      const turn = {
        conversation: "c",
        index: 1 + Math.floor(i / 2),
        of: 2,
        added: [],
        removed: [],
        withheld: [],
        added_now: [],
      };
      return classified({
        case_id: `c@${turn.index}`,
        trial: i % 2,
        phase: null,
        family: null,
        tags: [],
        acceptable: ["a", "b"],
        forbidden: [],
        registry_names: ["a", "b"],
        exposed_names: ["a", "b"],
        retrieved_names: ["a", "b"],
        visible_order: ["a", "b"],
        retrieval_k: 5,
        retrieval: {
          candidates: 6,
          top: [],
          acceptable: list.map((rank, j) => ({ name: ["a", "b"][j], rank, score: 1 })),
        },
        must_see: [],
        must_not_see: [],
        selected: "a",
        arguments: {},
        argument_errors: null,
        argument_match: null,
        failed_stage: null,
        selection_error: null,
        violated: false,
        response_text: null,
        tool_calls: 1,
        usage: { input_tokens: null, output_tokens: null },
        latency_ms: 1,
        endpoint: "t",
        model: "t",
        request_hash: "h",
        error: null,
        turn,
      });
    });
    for (const order of [
      [0, 1, 2, 3],
      [2, 0, 3, 1],
      [3, 2, 1, 0],
    ]) {
      expect(computeMetrics(order.map((i) => records[i])).retrieval.ndcg_at_k.numerator).toBe(
        turnByTurn,
      );
    }
  });

  it("sum a case's ranking quality in trial order, its trials come in any order, errored ones among them", () => {
    // Trials 0–4 of one case; trial 2 errored. These nDCGs summed out of trial order end in other last digits.
    const ranks = [
      [1, 2],
      [1, 2],
      [1, 2],
      [4, 6],
      [1, 2],
    ];
    const ndcg = ranks.map(
      (list) =>
        scoreRanks(
          list.map((rank) => ({ rank })),
          5,
        )?.ndcg ?? 0,
    );
    const inTrialOrder = ndcg[0] + ndcg[1] + ndcg[3] + ndcg[4];
    expect(ndcg[0] + ndcg[3] + ndcg[1] + ndcg[4]).not.toBe(inTrialOrder);
    const records = ranks.map((list, trial) =>
      classified({
        case_id: "a",
        trial,
        phase: null,
        family: null,
        tags: [],
        acceptable: ["a", "b"],
        forbidden: [],
        registry_names: ["a", "b"],
        exposed_names: ["a", "b"],
        retrieved_names: ["a", "b"],
        visible_order: ["a", "b"],
        retrieval_k: 5,
        retrieval: {
          candidates: 6,
          top: [],
          acceptable: list.map((rank, j) => ({ name: ["a", "b"][j], rank, score: 1 })),
        },
        must_see: [],
        must_not_see: [],
        selected: "a",
        arguments: {},
        argument_errors: null,
        argument_match: null,
        failed_stage: null,
        selection_error: null,
        violated: false,
        response_text: null,
        tool_calls: 1,
        usage: { input_tokens: null, output_tokens: null },
        latency_ms: 1,
        endpoint: "t",
        model: "t",
        request_hash: "h",
        error: trial === 2 ? "HTTP 500" : null,
      }),
    );
    for (const order of [
      [0, 1, 2, 3, 4],
      [3, 0, 1, 4, 2],
      [4, 3, 2, 1, 0],
      [0, 3, 1, 4, 2],
    ]) {
      const quality = computeMetrics(order.map((i) => records[i])).retrieval.ndcg_at_k;
      expect(quality.denominator).toBe(4);
      expect(quality.numerator, `order ${order}`).toBe(inTrialOrder);
    }
  });

  it("count a case settled mid-way (its counts shared with cases alike) as if it never was", () => {
    const records = randomRun(9);
    // Each case's first two trials, then enough records of other cases that every one of these is
    // settled, then the rest: each settled tally thaws to count them. Against the same records
    // in the same order, too few to settle any case before the end.
    const early = records.filter((r) => r.trial < 2);
    const late = records.filter((r) => r.trial >= 2);
    const once = tallyRecords([...early, ...late]);
    const filler = Array.from({ length: 3000 }, (_, i) => ({
      ...records[i % records.length],
      case_id: `filler-${i}`,
      turn: undefined,
    }));
    const tally = new RecordTally();
    for (const r of [...early, ...filler]) tally.add(r);
    for (const r of early) expect(tally.get(r.case_id)?.settled, r.case_id).toBe(true);
    for (const r of late) tally.add(r);
    const got = new Map(tally.cases().map((c) => [c.caseId, c]));
    for (const expected of once.cases()) expect(got.get(expected.caseId)).toEqual(expected);
    // Fillers copied from one record count alike and share their counts.
    const [a, b] = [tally.get("filler-0"), tally.get(`filler-${records.length}`)];
    expect(a?.rates).toEqual(b?.rates);
    expect(a?.rates).toBe(b?.rates);
    expect(Object.isFrozen(a?.rates)).toBe(true);
  });

  it("count cases settled and counted again round after round (an adaptive run's) as if none was: what was taken out let go", () => {
    // 3,000 copies of a random run's cases, a trial of each per round: each round settles the
    // last one's cases (quiet for two windows) and takes each out again at its next record —
    // the settled tallies are packed again many times over (SettledStore), conversations too.
    const records = randomRun(13);
    const copies = (r: TrialRecord, i: number): TrialRecord => ({
      ...r,
      case_id: `${r.case_id}~${i}`,
      ...(r.turn === undefined
        ? {}
        : { turn: { ...r.turn, conversation: `${r.turn.conversation}~${i}` } }),
    });
    const rounds = [0, 1, 2, 3].map((trial) =>
      records
        .filter((r) => r.trial === trial)
        .flatMap((r) => Array.from({ length: 200 }, (_, i) => copies(r, i))),
    );
    const tally = new RecordTally();
    for (const round of rounds) for (const r of round) tally.add(r);
    const once = tallyRecords(
      rounds.flat().sort((a, b) => (a.case_id < b.case_id ? -1 : 1) || a.trial - b.trial),
    );
    const expected = once.cases();
    expect(expected.length).toBe(14 * 200);
    expect(tally.cases()).toEqual(expected);
    expect(computeMetrics(rounds.flat())).toEqual(computeMetrics(rounds.flat().reverse()));
  });

  it("read 150,000 settled cases back in case order (sorted a run of 65,536 at a time, then merged)", () => {
    const [template] = randomRun(3);
    const rand = seededRandom(8);
    const ids = Array.from({ length: 150_000 }, (_, i) => `c${Math.floor(rand() * 1e9)}-${i}`);
    const tally = new RecordTally(1);
    for (const id of ids) tally.add({ ...template, case_id: id, trial: 0, turn: undefined });
    expect(tally.settledCases().map((c) => c.caseId)).toEqual([...ids].sort());
    // Read in order, the store lets its index go; a case is found again by its id after.
    expect(tally.get(ids[123_456])?.caseId).toBe(ids[123_456]);
    tally.add({ ...template, case_id: ids[7], trial: 1, turn: undefined });
    expect(tally.get(ids[7])?.trials).toBe(2);
    expect(tally.settledCases().length).toBe(ids.length);
  });

  it("settle a case at its last trial when the run says how many it asks, and count it as if it never was", () => {
    const records = randomRun(11);
    const once = tallyRecords(records);
    const tally = new RecordTally(4);
    // A case's fourth record settles it at once; one more record of it (a trial asked again) thaws it.
    for (const r of records) tally.add(r);
    for (const expected of once.cases()) {
      expect(tally.get(expected.caseId)?.settled, expected.caseId).toBe(true);
      expect(tally.get(expected.caseId)).toEqual({ ...expected, settled: true });
    }
    const again = { ...records[0], trial: 4 };
    tally.add(again);
    expect(tally.get(again.case_id)?.settled).toBe(false);
    const got = new Map(tally.cases().map((c) => [c.caseId, c]));
    for (const expected of tallyRecords([...records, again]).cases())
      expect(got.get(expected.caseId)).toEqual(expected);
  });

  it("keep what a record adds to in place their own (tool search sums, a turn's records): twins settled alike, one counted again", () => {
    const records = randomRun(9);
    const early = records.filter((r) => r.trial < 2);
    const twins = early.map((r) => ({ ...r, case_id: `${r.case_id}-twin` }));
    const filler = Array.from({ length: 3000 }, (_, i) => ({
      ...records[i % records.length],
      case_id: `filler-${i}`,
      turn: undefined,
    }));
    const tally = new RecordTally();
    for (const r of [...early, ...twins, ...filler]) tally.add(r);
    for (const r of records.filter((r) => r.trial >= 2)) tally.add(r);
    const alone = tallyRecords(twins).cases();
    expect(alone.some((c) => c.search !== null)).toBe(true);
    for (const expected of alone) expect(tally.get(expected.caseId)).toEqual(expected);
  });
});
