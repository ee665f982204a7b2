/**
 * The parts of tool search that are plain functions: route-eval's searcher (what a bm25 or regex
 * search returns, and how a bad query fails) and the cluster-robust interval of a per-decision
 * mean (its coverage checked by simulation on seeded clustered data with a known mean).
 */
import { describe, expect, it } from "vitest";
import { createToolSearcher, MAX_REGEX_QUERY } from "../src/discovery/tool-searcher.js";
import { clusterMean, t975 } from "../src/metrics/wilson.js";
import { seededRandom } from "../src/text/seeded-random.js";
import type { Tool } from "../src/types.js";

const tool = (name: string, purpose: string, properties: Record<string, unknown> = {}): Tool => ({
  name,
  family: "f",
  purpose,
  use_when: [],
  avoid_when: [],
  effect: "read_only",
  idempotent: true,
  open_world: false,
  input_schema: { type: "object", properties: properties as Record<string, never> },
});
const TOOLS = [
  tool("get_order", "Return one order by its id."),
  tool("search_orders", "Search orders by free text."),
  tool("refund_payment", "Refund a captured payment.", {
    payment_id: { type: "string", description: "The Stripe charge to refund" },
  }),
  tool("send_email", "Email the customer."),
];
const ALL = TOOLS.map((t) => t.name);

describe("route-eval's tool searcher", () => {
  it("bm25: the best k among the deferred tools, never a tool that does not match at all", async () => {
    const bm25 = createToolSearcher("bm25", TOOLS);
    expect(await bm25.search("refund the payment", ALL, 5)).toEqual({
      returned: ["refund_payment"],
    });
    expect(await bm25.search("orders", ALL, 1)).toEqual({
      returned: [expect.stringMatching(/order/)],
    });
    expect(await bm25.search("zebra", ALL, 5)).toEqual({ returned: [] });
    // Only the deferred tools are searched.
    expect(await bm25.search("refund the payment", ["get_order"], 5)).toEqual({ returned: [] });
  });

  it("regex: case-insensitive over names, purposes and argument names and descriptions, in registry order, at most k", async () => {
    const regex = createToolSearcher("regex", TOOLS);
    expect(await regex.search("ORDER", ALL, 5)).toEqual({
      returned: ["get_order", "search_orders"],
    });
    expect(await regex.search("order", ALL, 1)).toEqual({ returned: ["get_order"] });
    expect(await regex.search("stripe", ALL, 5)).toEqual({ returned: ["refund_payment"] });
    expect(await regex.search("payment_id", ALL, 5)).toEqual({ returned: ["refund_payment"] });
  });

  it("regex: ^ and $ anchor each field (a name, a description), not the fields joined", async () => {
    const regex = createToolSearcher("regex", TOOLS);
    // A name that starts "search", a description that ends "text.", an argument named whole.
    expect(await regex.search("^search", ALL, 5)).toEqual({ returned: ["search_orders"] });
    expect(await regex.search("text\\.$", ALL, 5)).toEqual({ returned: ["search_orders"] });
    expect(await regex.search("^payment_id$", ALL, 5)).toEqual({ returned: ["refund_payment"] });
    // Joined, "^Return" would have matched nothing (the name comes first); per field it is get_order's description.
    expect(await regex.search("^return one", ALL, 5)).toEqual({ returned: ["get_order"] });
  });

  it("regex: a pattern that does not compile, or is too long, is an error the search records, not a throw", async () => {
    const regex = createToolSearcher("regex", TOOLS);
    expect(await regex.search("(unclosed", ALL, 5)).toEqual({
      error: expect.stringContaining("does not compile"),
    });
    expect(await regex.search("a".repeat(MAX_REGEX_QUERY + 1), ALL, 5)).toEqual({
      error: `the regex is ${MAX_REGEX_QUERY + 1} characters; at most ${MAX_REGEX_QUERY}`,
    });
    // Linear time: a pattern that backtracks exponentially in a backtracking engine returns at once.
    expect(await regex.search("(a+)+$", ALL, 5)).toEqual({ returned: expect.any(Array) });
  });
});

describe("clusterMean", () => {
  it("gives the mean and total, and no interval with fewer than two cases", () => {
    expect(clusterMean([{ n: 3, sum: 6 }])).toEqual({
      mean: 2,
      total: 6,
      n: 3,
      cases: 1,
      ci: null,
    });
    expect(clusterMean([])).toEqual({ mean: null, total: 0, n: 0, cases: 0, ci: null });
  });

  it("covers the true mean about 95% of the time on clustered data (a case effect shared by its trials)", () => {
    const random = seededRandom(2026);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const TRUE_MEAN = 10;
    const REPLICATIONS = 1000;
    let covered = 0;
    for (let r = 0; r < REPLICATIONS; r++) {
      // 40 cases of 3 trials: a case effect (sd 3) every trial shares, and trial noise (sd 1).
      const clusters = Array.from({ length: 40 }, () => {
        const effect = 3 * normal();
        let sum = 0;
        for (let t = 0; t < 3; t++) sum += TRUE_MEAN + effect + normal();
        return { n: 3, sum };
      });
      const { ci } = clusterMean(clusters);
      if (ci !== null && ci[0] <= TRUE_MEAN && TRUE_MEAN <= ci[1]) covered += 1;
    }
    // 95% nominal. A trial-level interval (ignoring the case effect) would cover far less (about 75% here).
    expect(covered / REPLICATIONS).toBeGreaterThan(0.93);
    expect(covered / REPLICATIONS).toBeLessThan(0.97);
  });

  it("keeps its 95% with few cases: Student's t with the case count (z covered about 70% at 3 cases)", () => {
    const random = seededRandom(48);
    const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    const coverage = (cases: number) => {
      let covered = 0;
      for (let r = 0; r < 2000; r++) {
        const clusters = Array.from({ length: cases }, () => {
          const effect = 3 * normal();
          let sum = 0;
          for (let t = 0; t < 3; t++) sum += effect + normal();
          return { n: 3, sum };
        });
        const { ci } = clusterMean(clusters);
        if (ci !== null && ci[0] <= 0 && 0 <= ci[1]) covered += 1;
      }
      return covered / 2000;
    };
    // The cluster-robust SE carries C/(C − 1), so t runs a touch wide; well inside [0.93, 0.985].
    for (const cases of [3, 5, 10]) {
      expect(coverage(cases), `${cases} cases`).toBeGreaterThan(0.93);
      expect(coverage(cases), `${cases} cases`).toBeLessThan(0.985);
    }
  });

  it("takes t's 0.975 quantile from its table, and from the Cornish–Fisher series past 30", () => {
    expect([t975(1), t975(2), t975(10), t975(30)]).toEqual([12.7062, 4.3027, 2.2281, 2.0423]);
    // Reference values: 2.0003 at 60, 1.9799 at 120; the normal's 1.95996 far out.
    expect(t975(60)).toBeCloseTo(2.0003, 3);
    expect(t975(120)).toBeCloseTo(1.9799, 3);
    expect(t975(1e9)).toBeCloseTo(1.95996, 4);
  });
});
