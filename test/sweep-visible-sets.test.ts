import type { DistractorPolicy } from "../src/types/sweep.js";
import { describe, expect, it } from "vitest";
import { expose } from "../src/exposure/expose.js";
import { loadRegistry } from "../src/registry/load-registry.js";
import { tokenize } from "../src/text/tokenize.js";
import { padRegistry } from "../src/sweep/pad-registry.js";
import { buildSimilarity, similarityText } from "../src/sweep/similarity.js";
import {
  measureHardness,
  orderCandidates,
  visibleAt,
  type CandidateInput,
} from "../src/sweep/visible-sets.js";
import { CONTROL_NAMES, type Registry } from "../src/types.js";

const commerce = loadRegistry("registries/commerce.yaml", process.cwd());
const neighbours = loadRegistry("registries/distractors.yaml", process.cwd());
const CONTROLS = [...CONTROL_NAMES];
const SIZES = [1, 2, 3, 5, 8, 10, 13, 20, 30, 40, 47, 60];

/** Commerce cases as the sweep sees them: goal, acceptable, and the exposure of their phase. */
const CASES = [
  {
    id: "order-by-id",
    goal: "Is order ord_1042 shipped yet?",
    acceptable: ["get_order", "get_shipment"],
    policy: null,
  },
  {
    id: "refund",
    goal: "Order ord_7002 arrived smashed. Refund the whole order to the customer's card.",
    acceptable: ["refund_order"],
    policy: null,
  },
  {
    id: "email",
    goal: "Email dana.k@example.org the return instructions for her boots.",
    acceptable: ["send_email"],
    policy: null,
  },
  {
    id: "stock",
    goal: "Do we still have the walnut desk organiser prd_5521 in stock?",
    acceptable: ["check_inventory"],
    policy: { max_effect: "read_only" as const, open_world: false },
  },
  {
    id: "weather",
    goal: "What's the weather going to be like in Paris this weekend?",
    acceptable: ["no_applicable_tool"],
    policy: null,
  },
  {
    id: "merge",
    goal: "cus_88 and cus_91 are the same person who signed up twice. Combine them and keep cus_88.",
    acceptable: ["merge_customers"],
    policy: null,
  },
];

function inputFor(
  c: (typeof CASES)[number],
  registry: Registry,
  policy: DistractorPolicy,
  seed = 1,
  padding: ReadonlySet<string> = new Set(),
): CandidateInput {
  return {
    caseId: c.id,
    goal: c.goal,
    acceptable: c.acceptable,
    exposed: expose(registry.tools, c.policy, [...CONTROLS]).exposed,
    padding,
    policy,
    seed,
    similarity: buildSimilarity(registry.tools),
  };
}

const ordinaryOf = (input: CandidateInput) =>
  input.exposed.filter((name) => !CONTROLS.includes(name as never));

describe("size-sweep visible sets", () => {
  for (const policy of ["random", "similar"] as const) {
    it(`are nested across sizes, with exposed acceptable tools first (${policy})`, () => {
      for (const c of CASES) {
        const input = inputFor(c, commerce, policy);
        const order = orderCandidates(input);
        let previous = new Set<string>();
        for (const size of SIZES) {
          const { retrieved } = visibleAt(order, size);
          const current = new Set(retrieved);
          for (const name of previous)
            expect(
              current.has(name),
              `${c.id}: ${name} kept from the smaller size at ${size}`,
            ).toBe(true);
          const acceptable = c.acceptable.filter((name) => ordinaryOf(input).includes(name));
          for (const name of acceptable.slice(0, size)) expect(current.has(name)).toBe(true);
          previous = current;
        }
      }
    });
  }

  it("count exactly N ordinary tools, capped at the exposed count; controls are always there and never counted", () => {
    for (const c of CASES) {
      const input = inputFor(c, commerce, "random");
      const exposedOrdinary = ordinaryOf(input).length;
      const order = orderCandidates(input);
      for (const size of SIZES) {
        const discovery = visibleAt(order, size);
        expect(discovery.retrieved).toHaveLength(Math.min(size, exposedOrdinary));
        expect(discovery.retrieved.some((name) => CONTROLS.includes(name as never))).toBe(false);
        expect(discovery.visible.slice(-3)).toEqual(CONTROLS);
        expect(discovery.visible).toHaveLength(discovery.retrieved.length + 3);
        expect(discovery.k).toBe(size);
        expect(new Set(discovery.retrieved).size).toBe(discovery.retrieved.length);
        for (const name of discovery.retrieved) expect(input.exposed).toContain(name);
      }
    }
    // The read-only, closed-world phase exposes 20 of the 47 commerce tools: sizes above that cap.
    const stock = inputFor(CASES[3], commerce, "random");
    expect(ordinaryOf(stock)).toHaveLength(20);
    expect(visibleAt(orderCandidates(stock), 40).retrieved).toHaveLength(20);
  });

  it("show every size in one display order (a tool's relative position never changes with size)", () => {
    const order = orderCandidates(inputFor(CASES[0], commerce, "random"));
    const large = visibleAt(order, 30).retrieved;
    for (const size of [3, 10, 20]) {
      const small = visibleAt(order, size).retrieved;
      expect(small).toEqual(large.filter((name) => small.includes(name)));
    }
    // …and the acceptable tool is not always shown first (no position bias built in).
    const firsts = CASES.slice(0, 3).map(
      (c) => visibleAt(orderCandidates(inputFor(c, commerce, "random")), 10).retrieved[0],
    );
    expect(firsts.some((name, i) => !CASES[i].acceptable.includes(name))).toBe(true);
  });

  it("are deterministic from the seed, and another seed draws other distractors", () => {
    const draw = (seed: number) =>
      CASES.map(
        (c) => visibleAt(orderCandidates(inputFor(c, commerce, "random", seed)), 5).visible,
      );
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const similar = (seed: number) =>
      CASES.map((c) => orderCandidates(inputFor(c, commerce, "similar", seed)).take.slice(0, 10));
    expect(similar(7)).toEqual(similar(7));
  });

  it("draw a distractor registry's tools only after the case's own, without changing the own sets", () => {
    const padded = padRegistry(commerce, neighbours);
    expect(padded.snapshot).toBe("commerce+commerce-neighbours");
    const paddingNames = new Set(neighbours.tools.map((t) => t.name));
    for (const c of CASES) {
      const plain = orderCandidates(inputFor(c, commerce, "random"));
      const withPadding = orderCandidates(inputFor(c, padded, "random", 1, paddingNames));
      const own = plain.take.length;
      expect(withPadding.take.slice(0, own)).toEqual(plain.take);
      expect(withPadding.take.slice(own).every((name) => paddingNames.has(name))).toBe(true);
      expect(withPadding.take.length).toBeGreaterThan(own);
    }
    const stock = inputFor(CASES[3], padded, "random", 1, paddingNames);
    expect(visibleAt(orderCandidates(stock), 40).retrieved).toHaveLength(40); // triage is now padded to 40
  });

  it("a padded registry keeps its own definition of a name both snapshots have", () => {
    const extra: Registry = {
      ...neighbours,
      tools: [{ ...neighbours.tools[0], name: "get_order", purpose: "impostor" }],
    };
    const padded = padRegistry(commerce, extra);
    expect(padded.tools.filter((t) => t.name === "get_order")).toEqual(
      commerce.tools.filter((t) => t.name === "get_order"),
    );
    expect(padded.tools).toHaveLength(commerce.tools.length);
  });
});

/** Share of distinct words two texts have in common (Jaccard), independent of the sweep's TF-IDF. */
function jaccard(a: string, b: string): number {
  const x = new Set(tokenize(a));
  const y = new Set(tokenize(b));
  const common = [...x].filter((w) => y.has(w)).length;
  return common / (x.size + y.size - common);
}

describe("similar distractors are harder than random ones", () => {
  const text = new Map(
    [...commerce.tools, ...neighbours.tools].map((t) => [t.name, similarityText(t)]),
  );
  const padded = padRegistry(commerce, neighbours);
  const cases = CASES.filter((c) => c.acceptable[0] !== "no_applicable_tool");

  function meanOverFirst(
    policy: DistractorPolicy,
    n: number,
    measure: (input: CandidateInput, c: (typeof CASES)[number], d: string) => number,
  ): number {
    const values: number[] = [];
    for (const registry of [commerce, padded]) {
      for (const c of cases) {
        for (const seed of [1, 2, 3]) {
          const input = inputFor(c, registry, policy, seed);
          const order = orderCandidates(input);
          const distractors = order.take.filter((name) => !c.acceptable.includes(name)).slice(0, n);
          values.push(...distractors.map((d) => measure(input, c, d)));
        }
      }
    }
    return values.reduce((s, v) => s + v, 0) / values.length;
  }

  for (const n of [4, 9]) {
    it(`by the sweep's TF-IDF similarity to the acceptable tools (first ${n} distractors)`, () => {
      const hardness = (input: CandidateInput, _c: unknown, d: string) => measureHardness(input, d);
      const similar = meanOverFirst("similar", n, hardness);
      const random = meanOverFirst("random", n, hardness);
      expect(similar).toBeGreaterThan(random * 1.5);
    });

    it(`by an independent measure: word overlap with the acceptable tools' text (first ${n} distractors)`, () => {
      const overlap = (_input: CandidateInput, c: (typeof CASES)[number], d: string) =>
        Math.max(
          ...c.acceptable
            .filter((a) => text.has(a))
            .map((a) => jaccard(text.get(d) ?? "", text.get(a) ?? "")),
        );
      expect(meanOverFirst("similar", n, overlap)).toBeGreaterThan(
        meanOverFirst("random", n, overlap),
      );
    });
  }

  it("ranks the documented rivals of get_order first", () => {
    const order = orderCandidates(inputFor(CASES[0], commerce, "similar"));
    const top = order.take.slice(2, 6);
    expect(top).toEqual(expect.arrayContaining(["search_orders", "lookup_order_by_email"]));
  });
});
