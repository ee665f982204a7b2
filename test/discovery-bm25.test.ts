import { describe, expect, it } from "vitest";
import { buildBm25Index, scoreBm25, topK } from "../src/discovery/bm25.js";
import { discover } from "../src/discovery/discover.js";
import { createBm25Retriever } from "../src/discovery/retriever.js";
import { seededRandom as createRandom } from "../src/text/seeded-random.js";
import type { Tool } from "../src/types.js";

function tool(
  name: string,
  purpose: string,
  use_when: string[] = [],
  avoid_when: string[] = [],
): Tool {
  return {
    name,
    family: "f",
    purpose,
    use_when,
    avoid_when,
    effect: "read_only",
    idempotent: true,
    open_world: false,
  };
}

/**
 * A hand-checked corpus (tokens after stopwords and stemming in brackets):
 *   get_order       name [get, order] ×3, purpose "Return one order record" [return, order, record] ×2
 *   refund_payment  name [refund, payment] ×3, purpose "Refund a card payment" [refund, card, payment] ×2
 *   send_email      name [send, email] ×3, purpose "Email the customer" [email, customer] ×2,
 *                   avoid_when "refund questions" (never positive evidence)
 */
const CORPUS = [
  tool("get_order", "Return one order record"),
  tool("refund_payment", "Refund a card payment"),
  tool("send_email", "Email the customer", [], ["Refund questions go elsewhere."]),
];

describe("bm25 on a hand-checked corpus", () => {
  const retriever = createBm25Retriever(CORPUS);
  const names = CORPUS.map((t) => t.name);

  it("scores a term by idf × saturated, length-normalised weighted frequency", async () => {
    // Weighted lengths: get_order 3·2 + 2·3 = 12, refund_payment 3·2 + 2·3 = 12, send_email 3·2 + 2·2 = 10; mean 34/3.
    // "order": df 1 of 3 → idf = ln(1 + 2.5/1.5); tf(get_order) = 3 (name) + 2 (purpose) = 5.
    const idf = Math.log(1 + 2.5 / 1.5);
    const norm = 5 + 1.2 * (1 - 0.75 + (0.75 * 12) / (34 / 3));
    const scores = await retriever.score("order", names);
    expect(scores.get("get_order")).toBeCloseTo((idf * 5 * 2.2) / norm, 12);
    expect(scores.has("refund_payment")).toBe(false);
    expect([...scores.keys()]).toEqual(["get_order"]);
  });

  it("ranks by the shared words, name and purpose first", async () => {
    const rank = async (goal: string) => topK(await retriever.score(goal, names), names, 3);
    expect(await rank("refund my card payment")).toEqual([
      "refund_payment",
      "get_order",
      "send_email",
    ]);
    expect(await rank("email the customer about their order")).toEqual([
      "send_email",
      "get_order",
      "refund_payment",
    ]);
    expect(await rank("unrelated words entirely")).toEqual([
      "get_order",
      "refund_payment",
      "send_email",
    ]); // all 0: by name
  });

  it("never counts avoid_when as positive evidence", async () => {
    const scores = await retriever.score("refund questions", names);
    expect(scores.has("send_email")).toBe(false);
    expect(scores.get("refund_payment")).toBeGreaterThan(0);
  });

  it("restricts scores to the candidates", async () => {
    const scores = await retriever.score("refund order email", ["get_order", "send_email"]);
    expect([...scores.keys()].sort()).toEqual(["get_order", "send_email"]);
    expect(scoreBm25(buildBm25Index([]), "anything", null).size).toBe(0);
  });
});

describe("topK", () => {
  const reference = (scores: Map<string, number>, candidates: string[], k: number) =>
    [...candidates]
      .sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, k);

  it("equals a full sort by score then name, on random inputs with ties and unscored candidates", () => {
    const random = createRandom(42);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(random() * 60);
      const candidates = Array.from(
        { length: n },
        (_, i) => `t${String(Math.floor(random() * 1000)).padStart(3, "0")}_${i}`,
      );
      const scores = new Map<string, number>();
      for (const id of candidates)
        if (random() < 0.6) scores.set(id, Math.floor(random() * 5) - (random() < 0.1 ? 3 : 0));
      const k = 1 + Math.floor(random() * (n + 3));
      expect(topK(scores, candidates, k)).toEqual(reference(scores, candidates, k));
    }
  });

  it("returns nothing for k ≤ 0 and every candidate when k exceeds them", () => {
    const scores = new Map([["b", 1]]);
    expect(topK(scores, ["a", "b"], 0)).toEqual([]);
    expect(topK(scores, ["a", "b"], 5)).toEqual(["b", "a"]);
  });
});

describe("discover", () => {
  const controls = ["ask_user", "wait_for_event", "no_applicable_tool"];
  const tools = [
    tool("a_tool", "alpha"),
    tool("b_tool", "beta"),
    tool("c_tool", "gamma"),
    tool("d_tool", "delta"),
  ];
  const exposed = [...controls, ...tools.map((t) => t.name)];

  it("never spends k on controls: k ordinary tools, plus every exposed control", async () => {
    const found = await discover(
      exposed,
      "beta gamma",
      ["a_tool"],
      { retriever: "bm25", k: 2 },
      createBm25Retriever(tools),
    );
    expect(found.retrieved).toEqual(["b_tool", "c_tool"]);
    expect(found.visible).toEqual(["b_tool", "c_tool", ...controls]);
    expect(found.k).toBe(2);
    // The record keeps the top k + 3 in retriever order, and where the acceptable tool ranked (cut at #3).
    expect(found.retrieval?.candidates).toBe(4);
    expect(found.retrieval?.top.map((t) => [t.name, t.rank])).toEqual([
      ["b_tool", 1],
      ["c_tool", 2],
      ["a_tool", 3],
      ["d_tool", 4],
    ]);
    expect(found.retrieval?.acceptable.map((t) => [t.name, t.rank, t.score])).toEqual([
      ["a_tool", 3, 0],
    ]);
    const one = await discover(
      exposed,
      "delta",
      [],
      { retriever: "bm25", k: 1 },
      createBm25Retriever(tools),
    );
    expect(one.visible).toEqual(["d_tool", ...controls]);
  });

  it("shows every exposed tool without a retriever", async () => {
    const found = await discover(exposed, "beta", ["a_tool"], { retriever: "none" }, null);
    expect(found).toEqual({
      visible: [...tools.map((t) => t.name), ...controls],
      retrieved: tools.map((t) => t.name),
      k: null,
      retrieval: null,
    });
  });
});

describe("the ranks a record keeps", () => {
  it("equal each tool's place in a full sort of the candidates, for scored, unscored, negative and tied tools", async () => {
    const random = createRandom(5);
    const names = Array.from(
      { length: 400 },
      (_, i) => `t${String((random() * 1e6) | 0).padStart(6, "0")}_${i}`,
    );
    const scores = new Map<string, number>();
    // Scored: a third positive (with ties), a few negative (embeddings), a few an explicit 0; the rest unscored (0).
    names.forEach((name, i) => {
      if (i % 3 === 0) scores.set(name, Math.round(random() * 20) / 4);
      else if (i % 17 === 0) scores.set(name, -random());
      else if (i % 23 === 0) scores.set(name, 0);
    });
    const retriever = { score: async () => scores };
    const found = await discover(names, "goal", names, { retriever: "bm25", k: 10 }, retriever);
    const score = (n: string) => scores.get(n) ?? 0;
    const full = [...names].sort((a, b) => score(b) - score(a) || (a < b ? -1 : a > b ? 1 : 0));
    expect(found.retrieved).toEqual(full.slice(0, 10));
    expect(found.retrieval?.top.map((t) => t.name)).toEqual(full.slice(0, 13));
    expect(found.retrieval?.acceptable.map((t) => [t.name, t.rank])).toEqual(
      full.map((name, i) => [name, i + 1]),
    );
  });
});
