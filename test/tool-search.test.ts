/**
 * Tool search (docs/tool-search.md) through the real pipeline: route-eval's client-side search
 * offered as `search_tools` on Chat Completions, OpenAI's hosted and client-executed tool_search on
 * the Responses API, Anthropic's server tool-search tools and tool_reference results — each
 * through the real SDK against a local server that speaks the wire format. The requests are
 * checked as the server received them, the stages against a table derived by hand, and a second
 * run and a replay against the first.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import {
  anthropicReply,
  openaiReply,
  useFakeServers,
  type FakeReply,
  type ReceivedRequest,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, TOOLS, writeProject } from "./fixtures/live-project.js";
import { fileSchemaErrors, schemaErrors } from "./support/schemas.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = {
  OPENAI_API_KEY: "sk-test-search-0123456789",
  ANTHROPIC_API_KEY: "sk-ant-test-search-0123456789",
};

type Row = Record<string, any>;

function records(dir: string, runId: string): Row[] {
  return readFileSync(join(dir, "reports", runId, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The cases of the fixture project, and what each one's scripted model does. */
const CASES = [
  {
    id: "found-and-chosen",
    goal: "Where is order ord_1?",
    phase: "orders",
    acceptable: ["get_order"],
  },
  {
    id: "never-loaded",
    goal: "Find my teapot order",
    phase: "orders",
    acceptable: ["search_orders"],
  },
  {
    id: "found-not-chosen",
    goal: "Refund order ord_2 please",
    phase: "payments",
    acceptable: ["refund_order"],
  },
  { id: "keeps-searching", goal: "Cancel everything", phase: "orders", acceptable: ["get_order"] },
  {
    id: "bad-arguments",
    goal: "Where is order ord_3?",
    phase: "orders",
    acceptable: ["get_order"],
  },
];

/**
 * The model's moves per case: a search (its query, or raw arguments), then a call. The regex
 * search (case-insensitive, over name, purpose and argument names) answers each query by hand:
 *   get_order   → get_order                  (orders phase: get_order, search_orders deferred)
 *   refund      → nothing                    (refund_order is not exposed in the orders phase)
 *   order       → get_order, search_orders, refund_order (payments phase exposes all three)
 */
const SCRIPT: Record<string, ({ search: string } | { raw: string } | { call: string })[]> = {
  "Where is order ord_1?": [{ search: "get_order" }, { call: "get_order" }],
  "Find my teapot order": [{ search: "refund" }, { call: "no_applicable_tool" }],
  "Refund order ord_2 please": [{ search: "order" }, { call: "get_order" }],
  "Cancel everything": [{ search: "zzz" }, { search: "yyy" }, { search: "xxx" }, { search: "www" }],
  "Where is order ord_3?": [{ raw: "{not json" }, { search: "get_order" }, { call: "get_order" }],
};

/** By hand: never loaded → discovery; loaded, other tool chosen → selection; loaded and chosen → correct. */
const EXPECTED: Record<
  string,
  { stage: string | null; searches: (string | null)[][]; outcome: string }
> = {
  "found-and-chosen": { stage: null, searches: [["get_order"]], outcome: "moved" },
  "never-loaded": { stage: "discovery", searches: [[]], outcome: "moved" },
  "found-not-chosen": {
    stage: "selection",
    searches: [["get_order", "search_orders", "refund_order"]],
    outcome: "moved",
  },
  "keeps-searching": { stage: "discovery", searches: [[], []], outcome: "search_limit" },
  "bad-arguments": { stage: null, searches: [[], ["get_order"]], outcome: "moved" },
};

/** The goal of a neutral conversation and the number of model moves after it, from any wire format. */
function progress(body: Record<string, any>, goals: string[]): { goal: string; step: number } {
  const items: any[] = body.messages ?? body.input;
  const at = items.findIndex(
    (m) =>
      (typeof m.content === "string" && goals.includes(m.content)) ||
      (Array.isArray(m.content) && goals.includes(m.content[0]?.text)),
  );
  const goal =
    typeof items[at].content === "string" ? items[at].content : items[at].content[0].text;
  const after = items.slice(at + 1);
  const step = after.filter((m) => m.role === "assistant" || m.type === "tool_search_call").length;
  return { goal, step };
}

function project(): string {
  return writeProject(undefined, CASES);
}

describe("client-side search (search_tools) on Chat Completions", () => {
  it("runs every search of a reply, each answered under its own id, and takes a call beside a search as the move", async () => {
    const cases = [
      {
        id: "two-searches",
        goal: "Where is order ord_5?",
        phase: "orders",
        acceptable: ["get_order"],
      },
      {
        id: "search-and-call",
        goal: "Where is order ord_6?",
        phase: "orders",
        acceptable: ["get_order"],
      },
    ];
    const dir = writeProject(undefined, cases);
    const goals = cases.map((c) => c.goal);
    const search = (query: string) => ({
      name: "search_tools",
      arguments: JSON.stringify({ query }),
    });
    const server = await fake.start((request) => {
      const { goal, step } = progress(request.body, goals);
      if (goal === goals[0])
        return step === 0
          ? openaiReply([search("get_order"), search("search_orders")])
          : openaiReply([{ name: "get_order", arguments: '{"order_id":"ord_5"}' }]);
      return openaiReply([
        search("get_order"),
        { name: "get_order", arguments: '{"order_id":"ord_6"}' },
      ]);
    });
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--tool-search",
        "client",
        "--search-kind",
        "regex",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "several",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    // Two asks for the case that searched twice at once, one for the search beside its call.
    expect(server.requests).toHaveLength(3);
    const byCase = new Map(records(dir, "several").map((r) => [r.case_id, r]));
    expect(byCase.get("two-searches")).toMatchObject({
      failed_stage: null,
      selected: "get_order",
      search: {
        searches: [
          { query: "get_order", returned: ["get_order"] },
          { query: "search_orders", returned: ["search_orders"] },
        ],
        calls: 2,
      },
    });
    expect(byCase.get("search-and-call")).toMatchObject({
      failed_stage: null,
      selected: "get_order",
      tool_calls: 1,
      search: {
        searches: [{ query: "get_order", returned: ["get_order"] }],
        calls: 1,
        outcome: "moved",
      },
    });
    const second = server.requests.find((r) => progress(r.body, goals).step === 1);
    const after = (second?.body.messages as Row[]).slice(-3);
    expect(after.map((m) => m.role)).toEqual(["assistant", "tool", "tool"]);
    expect(after[0].tool_calls.map((c: Row) => c.id)).toEqual(["search_1", "search_2"]);
    expect(after.slice(1).map((m) => m.tool_call_id)).toEqual(["search_1", "search_2"]);
    expect(JSON.parse(after[2].content).tools.map((t: Row) => t.name)).toEqual(["search_orders"]);
  });

  it("drives the search loop to a move or the bound, records every search, and classifies by what was loaded", async () => {
    const dir = project();
    const goals = Object.keys(SCRIPT);
    const acceptableOf = new Map(CASES.map((c) => [c.goal, c.acceptable[0]]));
    const server = await fake.start((request) => {
      const { goal, step } = progress(request.body, goals);
      // Offered the acceptable tool before any search (counterfactual load): the model calls it.
      const offered = (request.body.tools as Row[]).map((t) => t.function.name);
      if (step === 0 && offered.includes(acceptableOf.get(goal)))
        return openaiReply([{ name: acceptableOf.get(goal) as string, arguments: "{}" }]);
      const move = SCRIPT[goal][step];
      if ("call" in move) return openaiReply([{ name: move.call, arguments: "{}" }]);
      return openaiReply([
        {
          name: "search_tools",
          arguments: "raw" in move ? move.raw : JSON.stringify({ query: move.search }),
        },
      ]);
    });
    const run = (...extra: string[]) =>
      runCli(
        [
          "run",
          "-e",
          "openai:test-model",
          "--base-url",
          `${server.url}/v1`,
          "--tool-search",
          "client",
          "--search-kind",
          "regex",
          "--max-searches",
          "2",
          "-n",
          "1",
          "--no-progress",
          "--no-gates",
          "--no-step-summary",
          "--retry-base-ms",
          "1",
          ...extra,
        ],
        { cwd: dir, env: ENV },
      );
    const first = await run("--run-id", "client");
    expect(first.code, first.stderr).toBe(0);
    const byCase = new Map(records(dir, "client").map((r) => [r.case_id, r]));
    for (const [id, expected] of Object.entries(EXPECTED)) {
      const r = byCase.get(id) as Row;
      expect({
        id,
        stage: r.failed_stage,
        searches: r.search.searches.map((s: Row) => s.returned),
        outcome: r.search.outcome,
      }).toEqual({
        id,
        stage: expected.stage,
        searches: expected.searches,
        outcome: expected.outcome,
      });
    }
    // The bound: two searches ran, the third ask ended the decision without a call (not an error, not a hang).
    expect(byCase.get("keeps-searching")).toMatchObject({
      selected: null,
      error: null,
      search: { calls: 3 },
    });
    // Bad arguments are recorded with the search, and the model is told; the decision goes on.
    expect(byCase.get("bad-arguments")?.search.searches[0]).toMatchObject({
      query: null,
      returned: [],
      by: "route-eval",
      error: expect.stringContaining("not JSON"),
    });
    // The visible set is the loaded one: the controls and what the searches returned.
    expect(byCase.get("found-not-chosen")?.visible_order ?? []).toEqual(
      expect.arrayContaining(["get_order", "search_orders", "refund_order"]),
    );

    // What the server saw: the first ask offers the controls and search_tools only; the next one
    // appends the loaded tool, and carries the search call and its result after the goal.
    const ofGoal = (goal: string) =>
      server.requests.filter((r) => JSON.stringify(r.body.messages).includes(goal));
    const [ask1, ask2] = ofGoal("Where is order ord_1?");
    expect((ask1.body.tools as Row[]).map((t: Row) => t.function.name)).toEqual([
      "no_applicable_tool",
      "search_tools",
    ]);
    expect((ask2.body.tools as Row[]).map((t: Row) => t.function.name)).toEqual([
      "no_applicable_tool",
      "search_tools",
      "get_order",
    ]);
    const after = (ask2.body.messages as Row[]).slice(-2);
    expect(after[0]).toMatchObject({
      role: "assistant",
      tool_calls: [
        {
          id: "search_1",
          type: "function",
          function: { name: "search_tools", arguments: '{"query":"get_order"}' },
        },
      ],
    });
    expect(after[1].role).toBe("tool");
    expect(JSON.parse(after[1].content)).toEqual({
      tools: [{ name: "get_order", description: "Return one order by its exact id." }],
    });
    const total = server.requests.length;
    expect(total).toBe(2 + 2 + 2 + 3 + 3);

    // The report's tool search figures, recounted from the table above.
    const report = JSON.parse(readFileSync(join(dir, "reports", "client", "report.json"), "utf8"));
    const ts = report.metrics.tool_search;
    expect(
      fileSchemaErrors("report.schema.json", join(dir, "reports", "client", "report.json")),
    ).toBeNull();
    expect(
      fileSchemaErrors("run.schema.json", join(dir, "reports", "client", "run.json")),
    ).toBeNull();
    for (const r of records(dir, "client"))
      expect(schemaErrors("record.schema.json", r)).toBeNull();
    expect(ts.decisions).toBe(5);
    // Needed a search: all five (nothing always loaded, no control acceptable). Returned an acceptable tool: found-and-chosen, found-not-chosen, bad-arguments.
    expect(ts.search_recall).toMatchObject({ numerator: 3, denominator: 5 });
    // First search: bad-arguments' first search failed.
    expect(ts.first_search_recall).toMatchObject({ numerator: 2, denominator: 5 });
    expect(ts.found_but_not_chosen).toMatchObject({ numerator: 1, denominator: 3 });
    expect(ts.search_limit).toMatchObject({ numerator: 1, denominator: 5 });
    expect(ts.failed_searches).toBe(1);
    expect(ts.searches_per_decision).toMatchObject({ total: 7, n: 5 });

    // A second run is free; a replay is exact.
    const again = await run("--run-id", "again");
    expect(again.code, again.stderr).toBe(0);
    expect(server.requests.length).toBe(total);
    const replay = await run("--run-id", "replay", "--mode", "replay");
    expect(replay.code, replay.stderr).toBe(0);
    const strip = (rows: Row[]) =>
      rows
        .map(({ latency_ms: _l, recorded_latency_ms: _r, ...rest }) => rest)
        .sort((a, b) => a.case_id.localeCompare(b.case_id));
    expect(strip(records(dir, "replay"))).toEqual(strip(records(dir, "client")));

    // show --case prints each query and what it returned.
    const show = await runCli(
      ["show", join(dir, "reports", "client"), "--case", "found-not-chosen"],
      { cwd: dir, env: { COLUMNS: "100" } },
    );
    expect(show.stdout).toMatch(/1\.\s+"order" → get_order, search_orders, refund_order ✓/);
    expect(show.stdout).toContain("discovery  searches loaded an acceptable tool in 1 of 1 trials");
    const limit = await runCli(
      ["show", join(dir, "reports", "client"), "--case", "keeps-searching"],
      { cwd: dir, env: { COLUMNS: "100" } },
    );
    expect(limit.stdout).toContain("search_limit");
    const never = await runCli(["show", join(dir, "reports", "client"), "--case", "never-loaded"], {
      cwd: dir,
      env: { COLUMNS: "200" },
    });
    expect(never.stdout).toContain(
      'No search loaded search_orders; the model searched for "refund".',
    );
    expect(never.stdout).toContain(
      "raise tool_search.k, or keep it loaded (tool_search.always_loaded)",
    );

    // counterfactual: each discovery failure re-asked with its search (the placebo) and with the
    // acceptable tool loaded up front (load); the scripted model calls a tool it is offered at once.
    const cf = await runCli(
      [
        "counterfactual",
        join(dir, "reports", "client"),
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--retry-base-ms",
        "1",
      ],
      { cwd: dir, env: ENV },
    );
    expect(cf.code, cf.stderr).toBe(0);
    const headroom = JSON.parse(
      readFileSync(join(dir, "reports", "client", "counterfactual", "counterfactual.json"), "utf8"),
    );
    const discovery = headroom.stages.find((s: Row) => s.stage === "discovery");
    expect(discovery.arms.find((a: Row) => a.kind === "load")).toMatchObject({
      tested: 2,
      fix: 2,
      placebo: 0,
    });
    const loads = readFileSync(
      join(dir, "reports", "client", "counterfactual", "records.jsonl"),
      "utf8",
    )
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((r) => r.counterfactual.kind === "load");
    expect(loads.map((r) => [r.case_id, r.selected, r.search.always_loaded])).toEqual(
      expect.arrayContaining([
        ["never-loaded", "search_orders", ["search_orders"]],
        ["keeps-searching", "get_order", ["get_order"]],
      ]),
    );
  });
});

/** A Responses reply from output items. */
function responsesOutput(output: unknown[]): FakeReply {
  return {
    headers: { "x-request-id": "req_r" },
    body: {
      id: "resp_1",
      object: "response",
      created_at: 0,
      status: "completed",
      model: "test-model",
      output,
      usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 },
    },
  };
}

const fn = (name: string, args = "{}") => ({
  type: "function_call",
  id: `fc_${name}`,
  call_id: `call_${name}`,
  name,
  arguments: args,
  status: "completed",
});
const functionTool = (name: string) => ({
  type: "function",
  name,
  description: "",
  parameters: { type: "object", properties: {} },
  strict: false,
});

/** A run on the Responses API with tool search in `mode`, one trial, quiet. */
function runResponses(dir: string, url: string, mode: string, ...extra: string[]) {
  return runCli(
    [
      "run",
      "-e",
      "openai-responses:test-model",
      "--base-url",
      `${url}/v1`,
      "--tool-search",
      mode,
      "-n",
      "1",
      "--no-progress",
      "--no-gates",
      "--no-step-summary",
      ...extra,
    ],
    { cwd: dir, env: ENV },
  );
}

/** A model that asks one client-executed search (`call_id`, `args`) and then calls get_order. */
function clientSearchModel(callId: string, args: Row) {
  return (request: ReceivedRequest): FakeReply => {
    const input = request.body.input as Row[];
    if (input.some((item) => item.type === "tool_search_output"))
      return responsesOutput([fn("get_order", '{"order_id":"ord_1"}')]);
    return responsesOutput([
      {
        type: "tool_search_call",
        id: "ts_1",
        call_id: callId,
        execution: "client",
        arguments: args,
        status: "completed",
      },
    ]);
  };
}

describe("OpenAI Responses tool_search", () => {
  it("hosted: sends deferred functions and the tool_search tool, and reads the searches from the output items", async () => {
    const dir = project();
    const hosted = (query: string, loaded: string[], call: string) =>
      responsesOutput([
        {
          type: "tool_search_call",
          id: "ts_1",
          call_id: null,
          execution: "server",
          arguments: { query },
          status: "completed",
        },
        {
          type: "tool_search_output",
          id: "tso_1",
          call_id: null,
          execution: "server",
          status: "completed",
          tools: loaded.map(functionTool),
        },
        fn(call),
      ]);
    const server = await fake.start((request) => {
      const text = JSON.stringify(request.body.input);
      if (text.includes("teapot")) return hosted("teapot", [], "no_applicable_tool");
      if (text.includes("Refund"))
        return hosted("orders", ["get_order", "refund_order"], "get_order");
      return hosted("order by id", ["get_order"], "get_order");
    });
    const result = await runCli(
      [
        "run",
        "-e",
        "openai-responses:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--tool-search",
        "provider",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "hosted",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    const body = server.requests.find((r) => JSON.stringify(r.body.input).includes("ord_1?"))
      ?.body as Row;
    expect(body.tools).toEqual([
      {
        type: "function",
        name: "no_applicable_tool",
        description: expect.any(String),
        parameters: expect.any(Object),
        strict: false,
      },
      {
        type: "function",
        name: "get_order",
        description: "Return one order by its exact id.",
        parameters: expect.any(Object),
        strict: false,
        defer_loading: true,
      },
      {
        type: "function",
        name: "search_orders",
        description: "Search orders by free text.",
        parameters: expect.any(Object),
        strict: false,
        defer_loading: true,
      },
      { type: "tool_search" },
    ]);
    // One call per decision: the provider searched inside it.
    expect(server.requests).toHaveLength(CASES.length);
    const byCase = new Map(records(dir, "hosted").map((r) => [r.case_id, r]));
    expect(byCase.get("found-and-chosen")).toMatchObject({
      failed_stage: null,
      search: {
        mode: "provider",
        calls: 1,
        searches: [{ query: "order by id", returned: ["get_order"], by: "provider" }],
      },
    });
    expect(byCase.get("never-loaded")).toMatchObject({
      failed_stage: "discovery",
      search: { searches: [{ query: "teapot", returned: [] }] },
    });
    expect(byCase.get("found-not-chosen")).toMatchObject({
      failed_stage: "selection",
      selection_error: "wrong_tool",
    });

    // --search-namespaces: the deferred tools grouped by family, defer_loading on the functions inside.
    const grouped = await runCli(
      [
        "run",
        "-e",
        "openai-responses:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--tool-search",
        "provider",
        "--search-namespaces",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "grouped",
      ],
      { cwd: dir, env: ENV },
    );
    expect(grouped.code, grouped.stderr).toBe(0);
    const payments = server.requests
      .filter((r) => JSON.stringify(r.body.input).includes("Refund order ord_2"))
      .at(-1)?.body as Row;
    expect(payments.tools.slice(1)).toEqual([
      {
        type: "namespace",
        name: "orders",
        description: "The orders tools (2): get_order, search_orders.",
        tools: [
          expect.objectContaining({ name: "get_order", defer_loading: true }),
          expect.objectContaining({ name: "search_orders", defer_loading: true }),
        ],
      },
      {
        type: "namespace",
        name: "payments",
        description: "The payments tools (1): refund_order.",
        tools: [expect.objectContaining({ name: "refund_order", defer_loading: true })],
      },
      { type: "tool_search" },
    ]);
    expect(records(dir, "grouped").find((r) => r.case_id === "found-and-chosen")).toMatchObject({
      failed_stage: null,
    });
  });

  it("client-executed: a tool_search_call is answered with a tool_search_output carrying the loaded definitions", async () => {
    const dir = project();
    const server = await fake.start(clientSearchModel("call_ts1", { query: "get_order" }));
    const result = await runResponses(
      dir,
      server.url,
      "client",
      "--search-kind",
      "regex",
      "--run-id",
      "byot",
      "--cases",
      "cases/cases.yaml",
    );
    expect(result.code, result.stderr).toBe(0);
    const [ask1, ask2] = server.requests.filter((r) =>
      JSON.stringify(r.body.input).includes("ord_1?"),
    );
    const searchTool = {
      type: "tool_search",
      execution: "client",
      description: expect.stringContaining("Search the tools"),
      parameters: expect.objectContaining({ required: ["query"] }),
    };
    expect(ask1.body.tools).toEqual([
      expect.objectContaining({ name: "no_applicable_tool" }),
      searchTool,
    ]);
    expect(ask2.body.tools).toEqual(ask1.body.tools);
    // The model's own call id is echoed (OpenAI's guide).
    expect((ask2.body.input as Row[]).slice(-2)).toEqual([
      {
        type: "tool_search_call",
        call_id: "call_ts1",
        execution: "client",
        arguments: { query: "get_order" },
        status: "completed",
      },
      {
        type: "tool_search_output",
        call_id: "call_ts1",
        execution: "client",
        status: "completed",
        tools: [
          {
            type: "function",
            name: "get_order",
            description: "Return one order by its exact id.",
            parameters: expect.any(Object),
            strict: false,
          },
        ],
      },
    ]);
    const r = records(dir, "byot").find((row) => row.case_id === "found-and-chosen") as Row;
    expect(r).toMatchObject({
      failed_stage: null,
      selected: "get_order",
      search: {
        mode: "client",
        calls: 2,
        searches: [{ query: "get_order", returned: ["get_order"], by: "route-eval" }],
      },
    });
  });
});

describe("Anthropic tool search", () => {
  const run = (dir: string, url: string, ...extra: string[]) =>
    runCli(
      [
        "run",
        "-e",
        "anthropic:claude-test",
        "--base-url",
        url,
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--search-kind",
        "regex",
        ...extra,
      ],
      { cwd: dir, env: ENV },
    );

  it("server tool: deferred tools with defer_loading, the regex variant, and its tool_search_tool_result read as the provider's search", async () => {
    const dir = project();
    const server = await fake.start((request: ReceivedRequest) => {
      const goal = JSON.stringify(request.body.messages);
      const found = goal.includes("teapot") ? [] : ["get_order"];
      const reply = anthropicReply([
        { name: found.length === 0 ? "no_applicable_tool" : "get_order", input: {} },
      ]) as { body: Row };
      reply.body.content = [
        {
          type: "server_tool_use",
          id: "srvtoolu_1",
          name: "tool_search_tool_regex",
          input: { query: "order" },
          caller: { type: "direct" },
        },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srvtoolu_1",
          content: {
            type: "tool_search_tool_search_result",
            tool_references: found.map((tool_name) => ({ type: "tool_reference", tool_name })),
          },
        },
        ...reply.body.content,
      ];
      return reply;
    });
    const result = await run(dir, server.url, "--tool-search", "provider", "--run-id", "server");
    expect(result.code, result.stderr).toBe(0);
    const body = server.requests.find((r) => JSON.stringify(r.body.messages).includes("ord_1?"))
      ?.body as Row;
    expect(body.tools).toEqual([
      {
        name: "no_applicable_tool",
        description: expect.any(String),
        input_schema: expect.any(Object),
      },
      {
        name: "get_order",
        description: "Return one order by its exact id.",
        input_schema: expect.any(Object),
        defer_loading: true,
      },
      {
        name: "search_orders",
        description: "Search orders by free text.",
        input_schema: expect.any(Object),
        defer_loading: true,
      },
      { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
    ]);
    const byCase = new Map(records(dir, "server").map((r) => [r.case_id, r]));
    expect(byCase.get("found-and-chosen")).toMatchObject({
      failed_stage: null,
      search: {
        mode: "provider",
        searches: [{ query: "order", returned: ["get_order"], by: "provider" }],
      },
    });
    expect(byCase.get("never-loaded")).toMatchObject({ failed_stage: "discovery" });
  });

  it("client: search_tools is answered with tool_reference blocks; the deferred tools are sent once, marked defer_loading", async () => {
    const dir = project();
    const server = await fake.start((request) => {
      const messages = request.body.messages as Row[];
      const answered = messages.some(
        (m) => Array.isArray(m.content) && m.content.some((b: Row) => b.type === "tool_result"),
      );
      return answered
        ? anthropicReply([{ name: "get_order", input: { order_id: "ord_1" } }])
        : anthropicReply([{ name: "search_tools", input: { query: "get_order" } }]);
    });
    const result = await run(dir, server.url, "--tool-search", "client", "--run-id", "refs");
    expect(result.code, result.stderr).toBe(0);
    const [ask1, ask2] = server.requests.filter((r) =>
      JSON.stringify(r.body.messages).includes("ord_1?"),
    );
    expect((ask1.body.tools as Row[]).map((t: Row) => [t.name, t.defer_loading ?? false])).toEqual([
      ["no_applicable_tool", false],
      ["search_tools", false],
      ["get_order", true],
      ["search_orders", true],
    ]);
    expect(ask2.body.tools).toEqual(ask1.body.tools);
    expect((ask2.body.messages as Row[]).slice(-2)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_0", name: "search_tools", input: { query: "get_order" } },
        ],
      },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_0",
            content: [{ type: "tool_reference", tool_name: "get_order" }],
          },
        ],
      },
    ]);
    expect(records(dir, "refs").find((r) => r.case_id === "found-and-chosen")).toMatchObject({
      failed_stage: null,
      search: { mode: "client", calls: 2 },
    });
  });
});

describe("client search answered by the embeddings retriever", () => {
  it("ranks the deferred tools by the query's vector (one server for /embeddings and /chat/completions)", async () => {
    const dir = project();
    const vectors: Record<string, number[]> = {
      get_order: [1, 0, 0],
      search_orders: [0.8, 0.2, 0],
      refund_order: [0, 1, 0],
      send_email: [0, 0, 1],
      "money back": [0.1, 1, 0],
    };
    const server = await fake.start((request) => {
      if (request.path === "/v1/embeddings") {
        const inputs: string[] = Array.isArray(request.body.input)
          ? (request.body.input as string[])
          : [request.body.input as string];
        const data = inputs.map((text, index) => ({
          object: "embedding",
          index,
          embedding: vectors[text] ?? vectors[text.split(":")[0]] ?? [0, 0, 1e-3],
        }));
        return {
          body: {
            object: "list",
            data,
            model: request.body.model,
            usage: { prompt_tokens: 1, total_tokens: 1 },
          },
        };
      }
      const messages = request.body.messages as Row[];
      if (!messages.some((m) => m.role === "tool"))
        return openaiReply([{ name: "search_tools", arguments: '{"query":"money back"}' }]);
      const offered = (request.body.tools as Row[]).map((t) => t.function.name);
      return openaiReply([{ name: offered[offered.length - 1], arguments: "{}" }]);
    });
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--tool-search",
        "client",
        "--search-kind",
        "embeddings",
        "--search-k",
        "1",
        "--embeddings-base-url",
        `${server.url}/v1`,
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "vectors",
        "--cases",
        "cases/cases.yaml",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    const refund = records(dir, "vectors").find((r) => r.case_id === "found-not-chosen") as Row;
    // Payments phase: get_order, search_orders and refund_order deferred; "money back" is nearest refund_order.
    expect(refund).toMatchObject({
      selected: "refund_order",
      failed_stage: null,
      search: {
        kind: "embeddings",
        searches: [{ query: "money back", returned: ["refund_order"] }],
      },
    });
    // Orders phase: refund_order is not exposed, so the best deferred tool for "money back" is search_orders.
    expect(
      records(dir, "vectors").find((r) => r.case_id === "found-and-chosen")?.search.searches[0]
        .returned,
    ).toEqual(["search_orders"]);
    expect(server.requests.some((r) => r.path === "/v1/embeddings")).toBe(true);
  });
});

describe("tool search settings", () => {
  it("refuses the provider's search on an endpoint without one, and a retriever beside search, in one line each", async () => {
    const dir = project();
    const chat = await runCli(
      ["run", "-e", "openai:test-model", "--tool-search", "provider", "--no-progress"],
      { cwd: dir, env: ENV },
    );
    expect(chat.code).toBe(2);
    expect(chat.stderr.trim()).toBe(
      "route-eval: tool_search.mode: provider: endpoint openai:test-model has no tool search of its own (openai-responses and anthropic have); use client, which works with every endpoint",
    );
    const both = await runCli(
      ["run", "--tool-search", "client", "--retriever", "bm25", "--k", "3", "--no-progress"],
      { cwd: dir, env: ENV },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("tool search replaces the retriever");
    const grouped = await runCli(
      ["run", "--tool-search", "client", "--search-namespaces", "--no-progress"],
      dir,
    );
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toContain(
      "tool_search.namespaces: namespaces group the deferred tools for openai-responses' own search",
    );
    const batch = await runCli(
      ["run", "-e", "openai:test-model", "--tool-search", "client", "--batch", "--no-progress"],
      { cwd: dir, env: ENV },
    );
    expect(batch.code).toBe(2);
    expect(batch.stderr.trim()).toBe(
      "route-eval: --batch: a decision with tool search takes several calls, each after the last; run it live (--no-batch)",
    );
    const clash = await runCli(
      ["run", "--tool-search", "client", "--always-loaded", "get_ordr", "--no-progress"],
      dir,
    );
    expect(clash.code).toBe(2);
    expect(clash.stderr.trim()).toBe(
      'route-eval: tool_search.always_loaded: "get_ordr" names no tool of the cases\' registries (did you mean "get_order"?); write a tool name, or family:NAME',
    );
  });

  it("the baseline searches for its goal's words offline; always_loaded tools are never deferred", async () => {
    const dir = project();
    const result = await runCli(
      [
        "run",
        "--tool-search",
        "client",
        "--always-loaded",
        "family:payments",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "base",
        "-f",
        "json",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    const rows = records(dir, "base");
    const refund = rows.find((r) => r.case_id === "found-not-chosen") as Row;
    expect(refund.search.always_loaded).toEqual(["refund_order"]);
    const lookup = rows.find((r) => r.case_id === "found-and-chosen") as Row;
    expect(lookup.search.searches[0]).toMatchObject({
      by: "route-eval",
      query: expect.stringContaining("order"),
    });
    expect(JSON.parse(result.stdout).metrics.tool_search.decisions).toBe(CASES.length);
  });
});

describe("search on vs off, in one sweep and one ladder", () => {
  it("sweep --tool-search-axis runs each size once per mode, with definition tokens and search recall per point", async () => {
    const dir = project();
    const result = await runCli(
      [
        "sweep",
        "--sizes",
        "1,2",
        "--tool-search-axis",
        "off,client",
        "-n",
        "1",
        "--sweep-id",
        "axis",
        "--no-progress",
        "-f",
        "csv",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    const sweep = JSON.parse(readFileSync(join(dir, "reports", "axis", "sweep.json"), "utf8"));
    expect(sweep.settings.tool_search).toEqual(["off", "client"]);
    expect(
      fileSchemaErrors("sweep.schema.json", join(dir, "reports", "axis", "sweep.json")),
    ).toBeNull();
    expect(sweep.points.map((p: Row) => [p.value, p.tool_search, p.run])).toEqual([
      [1, "off", "size-01-search-off"],
      [1, "client", "size-01-search-client"],
      [2, "off", "size-02-search-off"],
      [2, "client", "size-02-search-client"],
    ]);
    // Off: one call with the visible tools; client: the searches' calls with what they loaded. Both counted per decision.
    for (const p of sweep.points)
      expect(p.definition_tokens).toMatchObject({ n: CASES.length, mean: expect.any(Number) });
    expect(
      sweep.points
        .filter((p: Row) => p.tool_search === "off")
        .every((p: Row) => p.search_recall === undefined),
    ).toBe(true);
    expect(
      sweep.points.find((p: Row) => p.run === "size-02-search-client").search_recall,
    ).toMatchObject({ denominator: expect.any(Number) });
    // The client points' definition tokens are what their records say, summed: recounted here.
    const client = records(dir, "axis/size-02-search-client");
    expect(
      sweep.points.find((p: Row) => p.run === "size-02-search-client").definition_tokens.total,
    ).toBe(client.reduce((sum, r) => sum + r.search.definition_tokens, 0));
    expect(result.stdout.split("\n")[0]).toContain(
      "tool_search,search_recall,search_recall_n,search_recall_of,definition_tokens_mean",
    );
    const html = await runCli(
      ["report", join(dir, "reports", "axis"), "-f", "html", "--output", join(dir, "axis.html")],
      dir,
    );
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(join(dir, "axis.html"), "utf8");
    expect(page).toContain('id="definition-tokens-chart"');
    expect(page).toContain('data-series="end-to-end, search client"');
    const sharded = await runCli(
      [
        "sweep",
        "--sizes",
        "1",
        "--tool-search-axis",
        "off,client",
        "--shard",
        "1/2",
        "--no-progress",
      ],
      dir,
    );
    expect(sharded.code).toBe(2);
  });

  it("the ablation ladder gains a + tool search rung when the config has search on", async () => {
    const dir = project();
    const result = await runCli(
      [
        "ablate",
        "--tool-search",
        "client",
        "-n",
        "1",
        "--run-id",
        "ladder",
        "--no-progress",
        "-f",
        "json",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    const experiment = JSON.parse(
      readFileSync(join(dir, "reports", "ladder", "experiment.json"), "utf8"),
    );
    const names = experiment.variants.map((v: Row) => v.name);
    expect(names).toContain("+ tool search");
    const rung = experiment.variants.find((v: Row) => v.name === "+ tool search");
    expect(Object.keys(rung.changes)).toEqual(["tool_search"]);
  });
});

describe("provider search replies as the providers' guides shape them (issue 47)", () => {
  const hostedCall = (id: string, query: string) => ({
    type: "tool_search_call",
    id,
    call_id: null,
    execution: "server",
    arguments: { query },
    status: "completed",
  });
  const hostedOutput = (id: string, tools: string[], status = "completed") => ({
    type: "tool_search_output",
    id,
    call_id: null,
    execution: "server",
    status,
    tools: tools.map(functionTool),
  });
  const responses = (dir: string, url: string, id: string) =>
    runResponses(dir, url, "provider", "--retry-base-ms", "1", "--run-id", id);

  it("OpenAI hosted: outputs pair with their searches in order (call_id is null), so a search that found nothing keeps its empty result", async () => {
    const dir = writeProject(undefined, [CASES[0]]);
    const server = await fake.start(() =>
      responsesOutput([
        hostedCall("ts_1", "parcel"),
        hostedOutput("tso_1", []),
        hostedCall("ts_2", "order"),
        hostedOutput("tso_2", ["get_order"]),
        fn("get_order"),
      ]),
    );
    const result = await responses(dir, server.url, "paired");
    expect(result.code, result.stderr).toBe(0);
    expect(records(dir, "paired")[0].search.searches).toEqual([
      { query: "parcel", returned: [], by: "provider" },
      { query: "order", returned: ["get_order"], by: "provider" },
    ]);
  });

  it("OpenAI hosted: a search output that is not completed errors the trial at once (not an empty search charged to the model)", async () => {
    const dir = writeProject(undefined, [CASES[0]]);
    const server = await fake.start(() =>
      responsesOutput([
        hostedCall("ts_1", "order"),
        hostedOutput("tso_1", [], "incomplete"),
        fn("get_order"),
      ]),
    );
    const result = await responses(dir, server.url, "failed");
    expect(result.code).toBe(3);
    const [record] = records(dir, "failed");
    expect(record.error).toBe(
      "the provider's tool search ended incomplete (a tool_search_output item); the trial is errored, not charged to the model",
    );
    expect(server.requests).toHaveLength(1);
  });

  const anthropicRun = (dir: string, url: string, id: string) =>
    runCli(
      [
        "run",
        "-e",
        "anthropic:claude-test",
        "--base-url",
        url,
        "--tool-search",
        "provider",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--retry-base-ms",
        "1",
        "-f",
        "json",
        "--run-id",
        id,
      ],
      { cwd: dir, env: ENV },
    );
  const serverSearch = (content: Row) => [
    {
      type: "server_tool_use",
      id: "srvtoolu_1",
      name: "tool_search_tool_bm25",
      input: { query: "order" },
    },
    { type: "tool_search_tool_result", tool_use_id: "srvtoolu_1", content },
  ];

  it("Anthropic: a turn paused after a server search (stop_reason pause_turn) is sent back and continued; the searches and the call are one decision", async () => {
    const dir = writeProject(undefined, [CASES[0]]);
    const server = await fake.start((request) => {
      const messages = request.body.messages as Row[];
      const reply = anthropicReply([{ name: "get_order", input: { order_id: "ord_1" } }]) as {
        body: Row;
      };
      if (messages[messages.length - 1].role === "user") {
        reply.body.content = serverSearch({
          type: "tool_search_tool_search_result",
          tool_references: [{ type: "tool_reference", tool_name: "get_order" }],
        });
        reply.body.stop_reason = "pause_turn";
      }
      return reply;
    });
    const result = await anthropicRun(dir, server.url, "paused");
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    const [, continued] = server.requests;
    const last = (continued.body.messages as Row[]).at(-1) as Row;
    expect(last.role).toBe("assistant");
    expect(last.content.map((block: Row) => block.type)).toEqual([
      "server_tool_use",
      "tool_search_tool_result",
    ]);
    const [record] = records(dir, "paused");
    expect(record).toMatchObject({ selected: "get_order", failed_stage: null, error: null });
    expect(record.search.searches).toEqual([
      { query: "order", returned: ["get_order"], by: "provider" },
    ]);
    // Provider mode sends every deferred definition with the call (one decision, one call: the
    // continuation is counted with it): no saving on definitions, up to the rounding of two lists.
    expect(record.search.calls).toBe(1);
    expect(
      Math.abs(record.search.definition_tokens - record.search.definition_tokens_unsearched),
    ).toBeLessThanOrEqual(1);
  });

  it("Anthropic: tool_search_tool_result_error errors the trial with the provider's code", async () => {
    const dir = writeProject(undefined, [CASES[0]]);
    const server = await fake.start(() => {
      const reply = anthropicReply([{ name: "get_order", input: {} }]) as { body: Row };
      reply.body.content = [
        ...serverSearch({ type: "tool_search_tool_result_error", error_code: "unavailable" }),
        ...reply.body.content,
      ];
      return reply;
    });
    const result = await anthropicRun(dir, server.url, "search-error");
    expect(result.code).toBe(3);
    expect(records(dir, "search-error")[0].error).toBe(
      "the provider's tool search failed (tool_search_tool_result_error: unavailable); the trial is errored, not charged to the model",
    );
  });
});

describe("a client search that fails, on the Responses API (issue 47)", () => {
  it("is answered as the item can say it (status incomplete, nothing loaded), under the model's call id", async () => {
    const dir = writeProject(undefined, [CASES[0]]);
    const server = await fake.start(clientSearchModel("call_bad", { pattern: "no query here" }));
    const result = await runResponses(dir, server.url, "client");
    expect(result.code, result.stderr).toBe(0);
    const answer = (server.requests[1].body.input as Row[]).at(-1);
    expect(answer).toEqual({
      type: "tool_search_output",
      call_id: "call_bad",
      execution: "client",
      status: "incomplete",
      tools: [],
    });
  });
});

describe("what a provider's own search reserves (issue 47)", () => {
  const refused = async (endpoint: string, tools: typeof TOOLS) => {
    const dir = writeProject(tools, [CASES[0]]);
    const result = await runCli(
      ["run", "-e", endpoint, "--base-url", "http://127.0.0.1:9/v1", "--tool-search", "provider"],
      { cwd: dir, env: ENV },
    );
    expect(result.code).toBe(2);
    return result.stderr.trim();
  };
  const named = (name: string) => ({ name, family: "orders", purpose: "Anything." });

  it("a registry tool named as the provider's search tool is refused before anything is asked", async () => {
    expect(await refused("anthropic:claude-test", [...TOOLS, named("tool_search_tool_bm25")])).toBe(
      "route-eval: registry shop has a tool named tool_search_tool_bm25, a name anthropic:claude-test's own tool search takes in the request; rename the tool, or set tool_search.mode: off",
    );
    expect(await refused("openai-responses:m", [...TOOLS, named("tool_search")])).toBe(
      "route-eval: registry shop has a tool named tool_search, a name openai-responses:m's own tool search takes in the request; rename the tool, or set tool_search.mode: off",
    );
  });

  it("Anthropic's search over more than 10,000 tools is refused (its limit on one request)", async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => named(`tool_${i}`));
    many[0] = TOOLS[0];
    expect(await refused("anthropic:claude-test", many)).toBe(
      "route-eval: registry shop has 10,001 tools, and Anthropic's tool search defers at most 10,000 in one request; narrow it with phases, or search it with an endpoint without that limit",
    );
  }, 60_000);
});

describe("found, not chosen (issue 47)", () => {
  it("counts only decisions whose deferred acceptable tool was loaded, never an acceptable control", async () => {
    const cases = [
      // A control is always offered: nothing was searched for, whatever the model then did.
      {
        id: "control",
        goal: "Sing me a song",
        phase: "orders",
        acceptable: ["no_applicable_tool"],
      },
      { id: "loaded", goal: "Where is order ord_1?", phase: "orders", acceptable: ["get_order"] },
    ];
    const dir = writeProject(undefined, cases);
    const server = await fake.start((request) => {
      const messages = request.body.messages as Row[];
      const searched = messages.some((m) => m.role === "tool");
      // The control's case: a tool called at once, with no search (a selection failure).
      if (JSON.stringify(messages).includes("song"))
        return openaiReply([{ name: "search_orders", arguments: '{"query":"x"}' }]);
      return searched
        ? openaiReply([{ name: "search_orders", arguments: '{"query":"ord_1"}' }])
        : openaiReply([{ name: "search_tools", arguments: '{"query":"get_order"}' }]);
    });
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--tool-search",
        "client",
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "fnc",
        "-f",
        "json",
      ],
      { cwd: dir, env: ENV },
    );
    const report = JSON.parse(result.stdout);
    const byCase = new Map(records(dir, "fnc").map((r) => [r.case_id, r]));
    expect([byCase.get("control")?.failed_stage, byCase.get("loaded")?.failed_stage]).toEqual([
      "selection",
      "selection",
    ]);
    // Of the one decision whose deferred acceptable tool was loaded (get_order), one was not chosen.
    expect(report.metrics.tool_search.found_but_not_chosen).toMatchObject({
      numerator: 1,
      denominator: 1,
    });
  });
});
