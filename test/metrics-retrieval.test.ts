import { describe, expect, it } from "vitest";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import { scoreRanks } from "../src/metrics/retrieval-quality.js";
import { summariseScores } from "../src/run-files/record-form.js";
import type { TrialRecord } from "../src/types.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];

/** A record whose retriever recorded `scores` (the inline form's retrieval_scores, summarised as on reading). */
function record(over: Partial<TrialRecord> & { scores?: Record<string, number> }): TrialRecord {
  const { scores, ...rest } = over;
  const base = {
    case_id: "a",
    trial: 0,
    phase: null,
    family: null,
    tags: [],
    acceptable: ["b"],
    forbidden: [],
    registry_names: [],
    exposed_names: [],
    retrieved_names: [],
    visible_order: [],
    retrieval_k: null,
    retrieval: null,
    must_see: [],
    must_not_see: [],
    selected: "b",
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
    ...rest,
  };
  return scores === undefined ? base : { ...base, retrieval: summariseScores(scores, base) };
}

const gain = (position: number) => 1 / Math.log2(position + 2);

describe("ranking quality of the acceptable set", () => {
  it("reads an inline record's scores as the retriever's order: by score, ties kept-first then by name — never by the order shown", () => {
    const r = record({
      retrieval_k: 2,
      acceptable: ["b"],
      retrieved_names: ["c", "a", ...CONTROLS],
      scores: { a: 2, b: 0.5, c: 2, d: 0.5, e: 1 },
    });
    expect(r.retrieval?.top.map((t) => t.name)).toEqual(["a", "c", "e", "b", "d"]);
    expect(r.retrieval?.acceptable).toEqual([{ name: "b", rank: 4, score: 0.5 }]);
    expect(r.retrieval?.candidates).toBe(5);
    // kept-first beats the name on a tie at the cut: z was kept, a was not.
    const tie = record({
      retrieval_k: 1,
      retrieved_names: ["z", ...CONTROLS],
      scores: { a: 1, z: 1 },
    });
    expect(tie.retrieval?.top.map((t) => t.name)).toEqual(["z", "a"]);
  });

  it("the issue's repro: shown [t2, t1], scores {t1: 5, t2: 1}, acceptable [t2] → MRR 0.5, nDCG@2 0.6309", () => {
    const r = record({
      retrieval_k: 2,
      retrieved_names: ["t2", "t1"],
      scores: { t1: 5, t2: 1 },
      acceptable: ["t2"],
    });
    expect(r.retrieval?.top.map((t) => t.name)).toEqual(["t1", "t2"]);
    const q = scoreRanks(r.retrieval?.acceptable ?? [], 2);
    expect(q?.reciprocalRank).toBe(0.5);
    expect(q?.ndcg).toBeCloseTo(1 / Math.log2(3), 4);
    expect(Number(q?.ndcg.toFixed(4))).toBe(0.6309);
  });

  it("computes recall@k, reciprocal rank and nDCG@k by hand", () => {
    // ranking a b c d, relevant {b, d} at ranks 2 and 4, k = 2: one of two relevant in the top 2, first at rank 2.
    const ranked = (...ranks: number[]) => ranks.map((rank) => ({ rank }));
    const q = scoreRanks(ranked(2, 4), 2);
    expect(q?.recall).toBe(0.5);
    expect(q?.reciprocalRank).toBe(0.5);
    expect(q?.ndcg).toBeCloseTo(gain(1) / (gain(0) + gain(1)), 12);
    expect(scoreRanks(ranked(1), 1)).toEqual({ recall: 1, reciprocalRank: 1, ndcg: 1 });
    expect(scoreRanks(ranked(), 1)).toBeNull();
  });

  it("averages over scored trials with a relevant candidate; errored, unranked and control-only trials do not count", () => {
    const ranked = { retrieval_k: 1, scores: { a: 3, b: 1 } };
    const records = [
      record({ ...ranked, retrieved_names: ["b", ...CONTROLS], scores: { a: 0, b: 1 } }), // b first: all 1
      record({ ...ranked, trial: 1, retrieved_names: ["a", ...CONTROLS] }), // b second: recall 0, RR 1/2, nDCG 0
      record({ ...ranked, trial: 2, retrieved_names: ["a", ...CONTROLS], error: "HTTP 500" }),
      record({
        ...ranked,
        case_id: "x",
        acceptable: ["no_applicable_tool"],
        retrieved_names: ["a", ...CONTROLS],
      }),
      record({ case_id: "y", retrieved_names: ["a", "b", ...CONTROLS] }), // no retriever
    ];
    const quality = computeMetrics(records).retrieval;
    expect(quality.recall_at_k).toMatchObject({ numerator: 1, denominator: 2, value: 0.5 });
    expect(quality.mrr).toMatchObject({ numerator: 1.5, denominator: 2, value: 0.75 });
    expect(quality.ndcg_at_k).toMatchObject({ numerator: 1, denominator: 2, value: 0.5 });
  });
});

describe("input tokens", () => {
  it("prefers the endpoint's count and falls back to the estimate, saying how many of each", () => {
    const tokens = computeMetrics([
      record({ usage: { input_tokens: 100, output_tokens: 5, input_tokens_estimated: 90 } }),
      record({
        trial: 1,
        usage: { input_tokens: null, output_tokens: null, input_tokens_estimated: 50 },
      }),
      record({ trial: 2, usage: { input_tokens: null, output_tokens: null } }),
    ]).input_tokens;
    expect(tokens).toEqual({ mean: 75, reported: 1, estimated: 1 });
    expect(computeMetrics([record({})]).input_tokens).toEqual({
      mean: null,
      reported: 0,
      estimated: 0,
    });
  });
});
