/**
 * route-eval shadow and monitor on test/fixtures/traces/support-chat.jsonl: 13 Chat Completions
 * request/response pairs (written out of time order) whose production calls follow one lexical
 * rule, which a local OpenAI server applies to what it is offered. Shadow against a candidate
 * where one tool's description changed must report exactly the moves counted by hand below;
 * monitor's figures are recounted here from the raw pairs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findRivals } from "../src/lint/find-rivals.js";
import { readTraces } from "../src/traces/read-traces.js";
import { clusterRateOf } from "../src/metrics/wilson.js";
import { createShadowTally } from "../src/traces/shadow-report.js";
import { createTurnCases } from "../src/traces/turn-cases.js";
import {
  NO_CALL,
  takingFrom,
  type ProductionDecision,
} from "../src/traces/production-decisions.js";
import { seededRandom } from "../src/text/seeded-random.js";
import type { TracedTurn, TrialRecord } from "../src/types.js";
import { runCli, tempDir } from "./support/cli.js";
import { openaiReply, useFakeServers, type ReceivedRequest } from "./fixtures/fake-provider.js";

const TRACE = new URL("./fixtures/traces/support-chat.jsonl", import.meta.url).pathname;
const EXPORTERS = new URL("./fixtures/traces/exporters/", import.meta.url).pathname;
const fake = useFakeServers();

const words = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((w) => w.length >= 4));

/**
 * The model: the offered tool whose description shares the most words (4 letters or more) with the
 * user's last message, the first offered on a tie; no shared word → a text answer, no call.
 */
function lexicalModel(request: ReceivedRequest) {
  const body = request.body as {
    messages: { role: string; content: string }[];
    tools: { function: { name: string; description: string } }[];
  };
  const goal = words([...body.messages].reverse().find((m) => m.role === "user")?.content ?? "");
  let best: { name: string; score: number } | null = null;
  for (const { function: fn } of body.tools ?? []) {
    const score = [...words(fn.description)].filter((w) => goal.has(w)).length;
    if (score > 0 && (best === null || score > best.score)) best = { name: fn.name, score };
  }
  return best === null
    ? openaiReply([], "Could you say more?")
    : openaiReply([{ name: best.name, arguments: "{}" }]);
}

const DESCRIPTIONS: Record<string, string> = {
  get_order: "Look up one order by its order id.",
  search_orders: "Search orders by customer email or product words.",
  refund_order: "Refund a paid order.",
  get_shipment: "Track the shipment of a parcel.",
};
const CHANGED =
  "Track the shipment of a parcel; use when the user asks whether an order has shipped.";

function candidateProject(url: string, shipment: string): string {
  const dir = tempDir();
  const tools = Object.entries({ ...DESCRIPTIONS, get_shipment: shipment }).map(
    ([name, purpose]) =>
      `  - {name: ${name}, family: orders, purpose: "${purpose}", effect: read_only, idempotent: true, open_world: false}`,
  );
  writeFileSync(
    join(dir, "candidate-tools.yaml"),
    ["snapshot: candidate", 'revision: "2"', "tools:", ...tools, ""].join("\n"),
  );
  writeFileSync(
    join(dir, "candidate.yaml"),
    [
      `endpoint: "openai:gpt-4o-mini"`,
      `base_url: "${url}"`,
      "registry: candidate-tools.yaml",
      "controls: []",
      "",
    ].join("\n"),
  );
  return dir;
}

/**
 * The moves, by hand. Words of each goal against the descriptions (offered order get_order,
 * search_orders, refund_order, get_shipment); the changed get_shipment description adds
 * when, user, asks, whether, order, shipped:
 *   turn  goal                            production (trace)   candidate
 *   1     Where is order ord_1?           get_order            get_order (tie order: 1·1·1, first)
 *   2     Track the parcel for ord_2      get_shipment         get_shipment
 *   3     Find my teapot order            get_order            get_order (tie)
 *   4     Refund order ord_3              refund_order         refund_order (2)
 *   5     Has ord_4 shipped yet?          (no call)            get_shipment (shipped)        ← moved
 *   6     Search orders for red shoes     search_orders        search_orders
 *   7     Look up the order ord_5         get_order            get_order (2)
 *   8     Is my parcel shipped?           get_shipment         get_shipment (2)
 *   9     Refund the paid order ord_6     refund_order         refund_order (3)
 *   10    Cancel my account               (no call)            (no call)
 *   11    Where has my shipment gone      get_shipment         get_shipment
 *   12    Has order ord_8 shipped?        get_order            get_shipment (order, shipped) ← moved
 *   13    Look up ord_9 details           lookup_order         get_order (look)              ← moved (a phantom in production)
 */
const MOVES = [
  { from: "(no call)", to: "get_shipment", moved: true, count: 1, turns: ["turn-chatcmpl-005"] },
  { from: "get_order", to: "get_shipment", moved: true, count: 1, turns: ["turn-chatcmpl-012"] },
  { from: "lookup_order", to: "get_order", moved: true, count: 1, turns: ["turn-chatcmpl-013"] },
  {
    from: "get_order",
    to: "get_order",
    moved: false,
    count: 3,
    turns: ["turn-chatcmpl-001", "turn-chatcmpl-003", "turn-chatcmpl-007"],
  },
  {
    from: "get_shipment",
    to: "get_shipment",
    moved: false,
    count: 3,
    turns: ["turn-chatcmpl-002", "turn-chatcmpl-008", "turn-chatcmpl-011"],
  },
  {
    from: "refund_order",
    to: "refund_order",
    moved: false,
    count: 2,
    turns: ["turn-chatcmpl-004", "turn-chatcmpl-009"],
  },
  { from: "(no call)", to: "(no call)", moved: false, count: 1, turns: ["turn-chatcmpl-010"] },
  {
    from: "search_orders",
    to: "search_orders",
    moved: false,
    count: 1,
    turns: ["turn-chatcmpl-006"],
  },
];

describe("route-eval shadow", () => {
  it("reports exactly the hand-counted moves of one changed description, through the store", async () => {
    const server = await fake.start(lexicalModel);
    const dir = candidateProject(server.url, CHANGED);
    const env = { cwd: dir, env: { OPENAI_API_KEY: "sk-test-shadow-0123456789" } };
    const result = await runCli(
      [
        "shadow",
        TRACE,
        "--config",
        "candidate.yaml",
        "--format",
        "json",
        "--run-id",
        "shadow-1",
        "--no-progress",
      ],
      env,
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.cells).toEqual(MOVES);
    expect(report.moved).toMatchObject({ numerator: 3, denominator: 13, cases: 13 });
    expect(report.became).toEqual({ question: 0, abstention: 0, no_call: 0 });
    expect(report.set_size).toEqual({ production: 4, candidate: 4, fewer: 0, more: 0 });
    // Calls per decision, recounted from the raw pairs (production) and the candidate's records.
    const rawPairs = readFileSync(TRACE, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const productionCalls = rawPairs.map(
      (p) => (p.response.choices[0].message.tool_calls ?? []).length,
    );
    const candidateCalls = readFileSync(join(dir, "reports", "shadow-1", "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).tool_calls as number);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(report.calls.production).toMatchObject({ total: sum(productionCalls), n: 13 });
    expect(report.calls.candidate).toMatchObject({ total: sum(candidateCalls), n: 13 });
    expect(report.calls.parallel.production).toMatchObject({
      numerator: productionCalls.filter((n) => n > 1).length,
      denominator: 13,
    });
    expect(report.turns).toEqual({ read: 13, asked: 13, skipped: {}, no_system: 0 });
    expect(server.requests).toHaveLength(13);
    // The candidate's descriptions were asked, and each turn's production system prompt.
    const asked = server.requests.map(
      (r) =>
        r.body as {
          messages: { role: string; content: string }[];
          tools: { function: { name: string; description: string } }[];
        },
    );
    expect(
      new Set(
        asked.map(
          (b) => b.tools.find((t) => t.function.name === "get_shipment")?.function.description,
        ),
      ),
    ).toEqual(new Set([CHANGED]));
    expect(new Set(asked.map((b) => b.messages[0].content))).toEqual(
      new Set(["You route support requests to tools."]),
    );
    expect(
      JSON.parse(readFileSync(join(dir, "reports", "shadow-1", "shadow.json"), "utf8")),
    ).toEqual(report);

    // A second shadow asks nothing: every decision is in the store.
    const again = await runCli(
      [
        "shadow",
        TRACE,
        "--config",
        "candidate.yaml",
        "--format",
        "json",
        "--run-id",
        "shadow-2",
        "--no-progress",
      ],
      env,
    );
    expect(JSON.parse(again.stdout).cells).toEqual(MOVES);
    expect(server.requests).toHaveLength(13);

    // A turn behind a cell, explained by show.
    const shown = await runCli(
      ["show", join("reports", "shadow-1"), "--case", "turn-chatcmpl-012"],
      env,
    );
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/get_shipment/);

    // The terminal table names the moved cells first.
    const table = await runCli(
      ["shadow", TRACE, "--config", "candidate.yaml", "--run-id", "shadow-3", "--no-progress"],
      { ...env, env: { ...env.env, COLUMNS: "160" } },
    );
    expect(table.stdout).toMatch(/moved: 23\.1% \(3\/13\)/);
    expect(table.stdout.indexOf("lookup_order")).toBeLessThan(
      table.stdout.indexOf("search_orders "),
    );
  });

  it("with the production descriptions only the phantom call moves", async () => {
    const server = await fake.start(lexicalModel);
    const dir = candidateProject(server.url, DESCRIPTIONS.get_shipment);
    const result = await runCli(
      ["shadow", TRACE, "--config", "candidate.yaml", "--format", "json", "--no-progress"],
      { cwd: dir, env: { OPENAI_API_KEY: "sk-test-shadow-0123456789" } },
    );
    const report = JSON.parse(result.stdout);
    expect(report.cells.filter((c: { from: string; to: string }) => c.from !== c.to)).toEqual([
      {
        from: "lookup_order",
        to: "get_order",
        moved: true,
        count: 1,
        turns: ["turn-chatcmpl-013"],
      },
    ]);
    expect(report.cells.filter((c: { moved: boolean }) => c.moved)).toHaveLength(1);
  });
});

describe("turns made into cases (shadow)", () => {
  it("read a tool list sent as the same text span after span once: one list for every turn", () => {
    // OpenLLMetry's export (the real exporter's output) sends llm.request.functions as JSON text.
    const read: TracedTurn[] = [];
    readTraces([join(EXPORTERS, "traceloop-openai.jsonl")], process.cwd(), (t) => read.push(t));
    expect(read).toHaveLength(3);
    expect(read[0].tools.map((t) => t.name)).toEqual(["get_weather", "get_time"]);
    for (const turn of read) expect(turn.tools).toBe(read[0].tools);
  });

  it("70,000 turns, out of time order, some sharing a span id: in time order, unique ids, each decision taken once", () => {
    const read: TracedTurn[] = [];
    readTraces([TRACE], process.cwd(), (t) => read.push(t));
    const template = read.find((t) => t.calls.length > 0) as TracedTurn;
    const rand = seededRandom(21);
    const N = 70_000;
    const turns = createTurnCases(null, null);
    const times = Array.from({ length: N }, (_, i) => i).sort(() => rand() - 0.5);
    for (let i = 0; i < N; i++) {
      const t = times[i];
      turns.add({
        ...template,
        time: new Date(Date.UTC(2026, 0, 1) + t * 1000).toISOString(),
        // Every 1,000th turn's span id is its neighbour's: its case takes "-2".
        span_id: (t % 1000 === 1 ? t - 1 : t).toString(16).padStart(16, "0"),
        messages: [{ role: "user", content: `goal ${t} ${"ü".repeat(t % 7)}` }],
      });
    }
    const { cases, production } = turns.finish();
    const made = [...cases];
    expect(made.map((c) => c.goal)).toEqual(
      Array.from({ length: N }, (_, t) => `goal ${t} ${"ü".repeat(t % 7)}`),
    );
    const ids = made.map((c) => c.id);
    expect(new Set(ids).size).toBe(N);
    expect(ids[1001]).toBe(`turn-${(1000).toString(16).padStart(16, "0")}-2`);
    expect(ids[69_999]).toBe(`turn-${(69_999).toString(16).padStart(16, "0")}`);
    expect([...cases].map((c) => c.id)).toEqual(ids);
    // Drained: the same cases, each decision put as its case is taken and taken once.
    let k = 0;
    for (const c of cases.drain?.() ?? []) {
      expect(c.id).toBe(ids[k++]);
      expect(production.take(c.id)?.label).toBe(template.calls[0].name);
      expect(production.take(c.id)).toBeUndefined();
    }
    expect(k).toBe(N);
    expect(cases.length).toBe(0);
  });

  it("hold a message that several turns' spans repeat once: the same object in every case", () => {
    // Phoenix's export (the real exporter's output) traces one conversation through two
    // providers: the later turns' spans carry the earlier messages again, parsed anew; the user's
    // question and the final answer are the same text in both, the tool calls' ids are not.
    const turns = createTurnCases(null, null);
    readTraces([join(EXPORTERS, "phoenix-spans.json")], process.cwd(), turns.add);
    const histories = [...turns.finish().cases]
      .map((c) => c.messages)
      .filter((messages) => messages.length > 0);
    expect(histories).toHaveLength(2);
    const [first, second] = histories;
    const alike = first.filter(
      (message, i) => JSON.stringify(second[i]) === JSON.stringify(message),
    );
    expect(alike.map((m) => m.role)).toEqual(["user", "assistant"]);
    for (const message of alike) expect(second[first.indexOf(message)]).toBe(message);
  });
});

describe("the shadow's tally", () => {
  /** 300 turns asked 3 times each, some trials errored, the records in the order a concurrent run keeps them. */
  const shadowRun = (seed: number) => {
    const rand = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)];
    const tools = ["get_order", "find_orders", "cancel_order"];
    const production = new Map<string, ProductionDecision>();
    const records: TrialRecord[] = [];
    for (let i = 0; i < 300; i++) {
      const id = `turn-${i}`;
      production.set(id, {
        label: pick([...tools, NO_CALL]),
        offered: 2 + (i % 3),
        calls: pick([0, 1, 2]),
      });
      for (let trial = 0; trial < 3; trial++)
        records.push({
          case_id: id,
          trial,
          model: "m",
          error: rand() < 0.1 ? "HTTP 500" : null,
          selected: pick([...tools, null, "ask_user"]),
          tool_calls: pick([0, 1, 2]),
          visible_order: ["ask_user", ...tools.slice(0, 1 + (i % 3))],
        } as TrialRecord);
    }
    return { production, records: records.sort(() => rand() - 0.5) };
  };
  const about = {
    candidate: { config: null, endpoint: "e", model: "m", registry: null, phase: null, trials: 3 },
    run_dir: "run",
    turns: { read: 300, asked: 300, skipped: {}, no_system: 0 },
  };

  it("lets each turn go at its last trial, and reports what holding them all to the end reports", () => {
    const run = shadowRun(5);
    const tally = createShadowTally(takingFrom(run.production), 3);
    for (const r of run.records) tally.add(r);
    expect(run.production.size).toBe(0);
    expect(tally.held()).toBe(0);
    const held = shadowRun(5);
    const holding = createShadowTally(takingFrom(held.production), Infinity);
    for (const r of held.records) holding.add(r);
    expect(holding.held()).toBe(300);
    const report = tally.report(about);
    expect(report).toEqual(holding.report(about));
    // The moves against a recount of the records, turn by turn (clusterRateOf).
    const decisions = shadowRun(5);
    const byTurn = new Map<string, { n: number; moved: number }>();
    for (const r of decisions.records.filter((r) => r.error === null)) {
      const from = decisions.production.get(r.case_id)?.label;
      const turn = byTurn.get(r.case_id) ?? { n: 0, moved: 0 };
      turn.n += 1;
      if ((r.selected ?? NO_CALL) !== from) turn.moved += 1;
      byTurn.set(r.case_id, turn);
    }
    const recount = clusterRateOf(
      [...byTurn.values()],
      (t) => t.n,
      (t) => t.moved,
    );
    expect({ ...report.moved, ci: null, effective_n: 0 }).toEqual({
      ...recount,
      ci: null,
      effective_n: 0,
    });
    expect(report.moved.ci?.[0]).toBeCloseTo(recount.ci?.[0] ?? NaN, 12);
    expect(report.moved.ci?.[1]).toBeCloseTo(recount.ci?.[1] ?? NaN, 12);
    expect(report.errored).toBe(decisions.records.length - report.decisions);
  });

  it("reads the same to the last digit whatever order the records come in", () => {
    const reports = [5, 6].map((order) => {
      const { production, records } = shadowRun(5);
      const rand = seededRandom(order);
      const tally = createShadowTally(takingFrom(production), 3);
      for (const r of records.sort(() => rand() - 0.5)) tally.add(r);
      const { cells, ...rest } = tally.report(about);
      // A cell names its first turns as they came: the counts are what must not move.
      return { ...rest, cells: cells.map(({ turns: _turns, ...cell }) => cell) };
    });
    expect(reports[1]).toEqual(reports[0]);
  });
});

describe("route-eval monitor", () => {
  /** The pairs as written, read with no route-eval code. */
  const pairs = readFileSync(TRACE, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  const rate = (numerator: number, denominator: number) => ({ numerator, denominator });

  it("figures recounted from the raw pairs: overall, by tenant, between the two days, and the rivals", async () => {
    const dir = tempDir();
    const result = await runCli(
      ["monitor", TRACE, "--by", "tenant", "--split-at", "2026-11-02", "--format", "json"],
      dir,
    );
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);

    const count = (rows: any[]) => {
      const message = (p: any) => p.response.choices[0].message;
      const offered = (p: any) => p.request.tools.map((t: any) => t.function.name);
      const schemaOf = (p: any, name: string) =>
        p.request.tools.find((t: any) => t.function.name === name)?.function.parameters;
      const calls = rows.flatMap((p) =>
        (message(p).tool_calls ?? []).map((c: any) => ({
          p,
          name: c.function.name,
          args: c.function.arguments,
        })),
      );
      const offeredCalls = calls.filter((c) => offered(c.p).includes(c.name));
      const rejected = offeredCalls.filter((c) => {
        let args: any;
        try {
          args = JSON.parse(c.args);
        } catch {
          return true;
        }
        const schema = schemaOf(c.p, c.name);
        return (
          (schema.required ?? []).some((k: string) => !(k in args)) ||
          (schema.additionalProperties === false &&
            Object.keys(args).some((k) => !(k in schema.properties)))
        );
      });
      const text = rows.filter((p) => !message(p).tool_calls);
      return {
        turns: rows.length,
        call_rate: rate(rows.length - text.length, rows.length),
        clarification_rate: rate(
          text.filter((p) => message(p).content.trim().endsWith("?")).length,
          rows.length,
        ),
        no_call_rate: rate(
          text.filter((p) => !message(p).content.trim().endsWith("?")).length,
          rows.length,
        ),
        abstention_rate: rate(0, rows.length),
        parallel_call_rate: rate(
          rows.filter((p) => (message(p).tool_calls ?? []).length > 1).length,
          rows.length - text.length,
        ),
        calls_per_turn: { total: calls.length, n: rows.length },
        phantom_rate: rate(calls.length - offeredCalls.length, calls.length),
        schema_rejection_rate: rate(rejected.length, offeredCalls.length),
        // Per tool: its calls, and the turns with a call whose reply called it (once per turn).
        calls_by_tool: [...new Set(calls.map((c) => c.name))]
          .map((tool) => ({
            tool,
            calls: calls.filter((c) => c.name === tool).length,
            share: rate(
              rows.filter((p) =>
                (message(p).tool_calls ?? []).some((c: any) => c.function.name === tool),
              ).length,
              rows.length - text.length,
            ),
          }))
          .sort((a, b) => b.calls - a.calls || (a.tool < b.tool ? -1 : 1)),
      };
    };
    const expectSignals = (signals: any, rows: any[]) => {
      const expected = count(rows);
      expect(signals.turns).toBe(expected.turns);
      for (const key of [
        "call_rate",
        "clarification_rate",
        "no_call_rate",
        "abstention_rate",
        "phantom_rate",
        "schema_rejection_rate",
        "parallel_call_rate",
        "calls_per_turn",
        "calls_by_tool",
      ] as const) {
        expect(signals[key], key).toMatchObject(expected[key]);
      }
      expect(signals.set_size).toMatchObject({ mean: 4, n: rows.length, max: 4 });
    };
    expectSignals(report.all, pairs);
    // Hand check of the recount itself: 2 of 11 calls rejected (ord_6's {"id"}, ord_8's cut-off JSON), 1 phantom (lookup_order), 1 question.
    expect(count(pairs)).toMatchObject({
      schema_rejection_rate: rate(2, 10),
      phantom_rate: rate(1, 11),
      clarification_rate: rate(1, 13),
    });

    const tenants = [...new Set(pairs.map((p) => p.metadata.tenant))].sort();
    expect(report.by[0].key).toBe("tenant");
    expect(report.by[0].groups.map((g: any) => g.value).sort()).toEqual(tenants);
    for (const group of report.by[0].groups)
      expectSignals(
        group.signals,
        pairs.filter((p) => p.metadata.tenant === group.value),
      );

    expect(report.windows.split_at).toBe("2026-11-02T00:00:00.000Z");
    expectSignals(
      report.windows.before,
      pairs.filter((p) => p.time < "2026-11-02"),
    );
    expectSignals(
      report.windows.after,
      pairs.filter((p) => p.time >= "2026-11-02"),
    );

    // Rivals: lint's pairs over the four offered tools; every turn offers all four.
    const tools = pairs[0].request.tools.map((t: any) => ({
      name: t.function.name,
      family: "traced",
      purpose: t.function.description,
      use_when: [],
      avoid_when: [],
      input_schema: t.function.parameters,
      effect: "destructive",
      idempotent: false,
      open_world: true,
    }));
    const lintPairs = findRivals(tools);
    const firstCall = (p: any) =>
      p.response.choices[0].message.tool_calls?.[0]?.function.name ?? null;
    const callsTo = (name: string) => pairs.filter((x) => firstCall(x) === name).length;
    const sorted = (a: string, b: string) => (a < b ? [a, b] : [b, a]);
    expect(report.rivals.map((r: any) => [r.a, r.b, r.turns, r.calls_a, r.calls_b]).sort()).toEqual(
      lintPairs
        .map((p) => sorted(p.a.name, p.b.name))
        .map(([a, b]) => [a, b, 13, callsTo(a), callsTo(b)])
        .sort(),
    );
    expect(lintPairs.length).toBeGreaterThan(0);
    const rivalled = new Set(lintPairs.flatMap((p) => [p.a.name, p.b.name]));
    const offeredCalls = pairs
      .map(firstCall)
      .filter((name) => name !== null && name !== "lookup_order");
    expect(report.all.rival_selection_rate).toMatchObject(
      rate(offeredCalls.filter((name) => rivalled.has(name)).length, offeredCalls.length),
    );
  });

  it("counts several calls in one reply as a parallel turn, and every call in calls per turn", async () => {
    const dir = tempDir();
    const parallel = pairs.map((p, i) => {
      const message = p.response.choices[0].message;
      if (i !== pairs.findIndex((q) => q.response.choices[0].message.tool_calls)) return p;
      const [first] = message.tool_calls;
      const copy = structuredClone(p);
      copy.response.choices[0].message.tool_calls = [first, { ...first, id: `${first.id}_b` }];
      return copy;
    });
    const file = join(dir, "parallel.jsonl");
    writeFileSync(file, parallel.map((p) => JSON.stringify(p)).join("\n") + "\n");
    const result = await runCli(["monitor", file, "--format", "json"], dir);
    expect(result.code, result.stderr).toBe(0);
    const all = JSON.parse(result.stdout).all;
    // 11 turns made a call, one of them two; 13 turns, 12 calls.
    expect(all.parallel_call_rate).toMatchObject(rate(1, 11));
    expect(all.calls_per_turn).toMatchObject({ total: 12, n: 13 });
  });

  it("renders the same figures for the terminal, Markdown and HTML", async () => {
    const dir = tempDir();
    const terminal = await runCli(["monitor", TRACE, "--by", "tenant"], {
      cwd: dir,
      env: { COLUMNS: "200" },
    });
    expect(terminal.stdout).toMatch(/schema rejection\s+│\s+10 │\s+2 │\s+20\.0% │/);
    const markdown = await runCli(["monitor", TRACE, "--format", "markdown"], dir);
    expect(markdown.stdout).toMatch(/\| schema rejection \| 10 \| 2 \| 20\.0% \|/);
    const html = await runCli(["monitor", TRACE, "--format", "html"], dir);
    expect(html.stdout).toMatch(/^<!DOCTYPE html>/);
    expect(html.stdout).toMatch(/schema rejection/);
  });
});
