/**
 * Call sets and the agent loop (docs/call-sets.md) through the real pipeline: cases shaped like
 * BFCL's multi-call turns (two ground-truth calls, answered in one reply) and τ-bench's
 * trajectories (several calls in a row, each answered before the next), asked through the real
 * SDKs against local servers speaking Chat Completions, Responses and Anthropic Messages. Every
 * verdict and figure is checked against a table derived by hand; each step's request against the
 * history it must carry; a replay against the first run, with no request made.
 */
import { cpSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import {
  anthropicReply,
  openaiReply,
  responsesReply,
  useFakeServers,
  type FakeReply,
  type ReceivedRequest,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject, type ToolSpec } from "./fixtures/live-project.js";
import { matchCallSet } from "../src/classify/call-set.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = {
  OPENAI_API_KEY: "sk-test-callsets-0123456789",
  ANTHROPIC_API_KEY: "sk-ant-test-callsets-0123456789",
};

type Row = Record<string, any>;

const schema = (property: string) => ({
  type: "object",
  properties: { [property]: { type: "string" } },
  required: [property],
  additionalProperties: false,
});

const TOOLS: ToolSpec[] = [
  { name: "cd", family: "files", purpose: "Change directory.", input_schema: schema("folder") },
  {
    name: "mkdir",
    family: "files",
    purpose: "Make a directory.",
    input_schema: schema("dir_name"),
  },
  {
    name: "find_user_id_by_email",
    family: "users",
    purpose: "Find a user id by email.",
    input_schema: schema("email"),
  },
  {
    name: "get_user_details",
    family: "users",
    purpose: "A user's details.",
    input_schema: schema("user_id"),
  },
  {
    name: "get_reservation_details",
    family: "reservations",
    purpose: "A reservation's details.",
    input_schema: schema("reservation_id"),
  },
  {
    name: "cancel_reservation",
    family: "reservations",
    purpose: "Cancel a reservation.",
    effect: "mutating",
    input_schema: schema("reservation_id"),
  },
  { name: "get_order", family: "orders", purpose: "One order.", input_schema: schema("order_id") },
  {
    name: "send_email",
    family: "messaging",
    purpose: "Email someone.",
    effect: "mutating",
    input_schema: schema("body"),
  },
];

const BFCL = {
  calls: [
    { tool: "cd", args: { folder: "workspace" } },
    { tool: "mkdir", args: { dir_name: "test" } },
  ],
  order: "sequence",
};
const TAU = {
  calls: [
    { tool: "find_user_id_by_email", args: { email: "mia@example.com" } },
    { tool: "get_reservation_details", args: { reservation_id: "ZFA04Y" } },
    { tool: "cancel_reservation", args: { reservation_id: "ZFA04Y" } },
  ],
  order: "sequence",
  allow_extra: ["get_user_details"],
  max_steps: 5,
  results: [
    { tool: "find_user_id_by_email", result: "mia_li_3668" },
    { tool: "get_user_details", result: { reservations: ["ZFA04Y"] } },
    {
      tool: "get_reservation_details",
      args: { reservation_id: "ZFA04Y" },
      result: { reservation_id: "ZFA04Y", status: "confirmed" },
    },
    { tool: "get_reservation_details", result: { error: "Reservation not found" } },
    { tool: "cancel_reservation", result: { ok: true } },
  ],
};

const CASES = [
  { id: "bfcl-parallel", goal: "Go to workspace and make a folder called test.", ...BFCL },
  { id: "bfcl-reversed", goal: "In workspace, create the folder test.", ...BFCL },
  { id: "bfcl-missing", goal: "Enter workspace, then add a test folder.", ...BFCL },
  { id: "tau-cancel", goal: "Cancel my reservation ZFA04Y; I am mia@example.com.", ...TAU },
  { id: "tau-wrong-arg", goal: "Please cancel my trip, mia@example.com here.", ...TAU },
  {
    id: "tau-step-limit",
    goal: "Cancel whatever I booked, mia@example.com.",
    ...TAU,
    max_steps: 2,
  },
  {
    id: "extra-send",
    goal: "Where is order ord_1?",
    calls: [{ tool: "get_order", args: { order_id: "ord_1" } }],
    forbidden: ["send_email"],
  },
];

type Call = { name: string; args: Record<string, string> };
const call = (name: string, args: Record<string, string>): Call => ({ name, args });

/** What the scripted model does at each step of each goal; past its last step it answers in text. */
const SCRIPT: Record<string, Call[][]> = {
  "Go to workspace and make a folder called test.": [
    [call("cd", { folder: "workspace" }), call("mkdir", { dir_name: "test" })],
  ],
  "In workspace, create the folder test.": [
    [call("mkdir", { dir_name: "test" }), call("cd", { folder: "workspace" })],
  ],
  "Enter workspace, then add a test folder.": [[call("cd", { folder: "workspace" })]],
  "Cancel my reservation ZFA04Y; I am mia@example.com.": [
    [call("find_user_id_by_email", { email: "mia@example.com" })],
    [
      call("get_user_details", { user_id: "mia_li_3668" }),
      call("get_reservation_details", { reservation_id: "ZFA04Y" }),
    ],
    [call("cancel_reservation", { reservation_id: "ZFA04Y" })],
  ],
  "Please cancel my trip, mia@example.com here.": [
    [call("find_user_id_by_email", { email: "mia@example.com" })],
    [call("get_reservation_details", { reservation_id: "XXXX" })],
    [call("cancel_reservation", { reservation_id: "XXXX" })],
  ],
  "Cancel whatever I booked, mia@example.com.": [
    [call("find_user_id_by_email", { email: "mia@example.com" })],
    [call("get_user_details", { user_id: "mia_li_3668" })],
    [call("get_reservation_details", { reservation_id: "ZFA04Y" })],
  ],
  "Where is order ord_1?": [
    [call("get_order", { order_id: "ord_1" }), call("send_email", { body: "Your order" })],
  ],
};

/** Derived by hand from the cases and the script (docs/call-sets.md's rules). */
const EXPECTED: Record<string, Row> = {
  "bfcl-parallel": {
    stage: null,
    error: null,
    matched: [0, 1],
    extra: [],
    in_order: true,
    steps: 1,
    ended: "single",
    right: true,
  },
  "bfcl-reversed": {
    stage: "selection",
    error: "wrong_order",
    matched: 1,
    extra: 1,
    in_order: false,
    steps: 1,
    ended: "single",
    right: false,
  },
  "bfcl-missing": {
    stage: "selection",
    error: "missed_call",
    matched: [0, null],
    extra: [],
    in_order: true,
    steps: 1,
    ended: "single",
    right: false,
  },
  "tau-cancel": {
    stage: null,
    error: null,
    matched: [0, 2, 3],
    extra: [],
    in_order: true,
    steps: 4,
    ended: "text",
    right: true,
  },
  "tau-wrong-arg": {
    stage: null,
    error: null,
    matched: [0, 1, 2],
    extra: [],
    in_order: true,
    steps: 4,
    ended: "text",
    right: false,
  },
  "tau-step-limit": {
    stage: "selection",
    error: "missed_call",
    matched: [0, null, null],
    extra: [],
    in_order: true,
    steps: 2,
    ended: "step_limit",
    right: false,
  },
  "extra-send": {
    stage: "selection",
    error: "wrong_tool",
    matched: [0],
    extra: [1],
    in_order: true,
    steps: 1,
    ended: "single",
    right: false,
  },
};

/** The goal of a request and how many assistant turns follow it, in each wire's shape. */
type Reader = (body: Row) => {
  goal: string;
  step: number;
  results: { id: string; content: string }[];
  callIds: string[][];
};

const readChat: Reader = (body) => {
  const messages = body.messages as Row[];
  const start = messages.findIndex((m) => m.role === "user");
  const after = messages.slice(start + 1);
  return {
    goal: messages[start].content,
    step: after.filter((m) => m.role === "assistant").length,
    results: after
      .filter((m) => m.role === "tool")
      .map((m) => ({ id: m.tool_call_id, content: m.content })),
    callIds: after
      .filter((m) => m.role === "assistant")
      .map((m) => (m.tool_calls as Row[]).map((c) => c.id)),
  };
};

const readResponses: Reader = (body) => {
  const input = body.input as Row[];
  const start = input.findIndex((m) => m.role === "user");
  const after = input.slice(start + 1);
  const callIds: string[][] = [];
  after.forEach((item, i) => {
    if (item.type !== "function_call") return;
    if (i === 0 || after[i - 1].type !== "function_call") callIds.push([]);
    callIds[callIds.length - 1].push(item.call_id);
  });
  return {
    goal: input[start].content,
    step: callIds.length,
    results: after
      .filter((m) => m.type === "function_call_output")
      .map((m) => ({ id: m.call_id, content: m.output })),
    callIds,
  };
};

const readAnthropic: Reader = (body) => {
  const messages = body.messages as Row[];
  const blocks = (m: Row) => m.content as Row[];
  const assistants = messages.filter((m) => m.role === "assistant");
  return {
    goal: blocks(messages[0]).find((b) => b.type === "text")?.text,
    step: assistants.length,
    results: messages
      .filter((m) => m.role === "user")
      .flatMap((m) => blocks(m).filter((b) => b.type === "tool_result"))
      .map((b) => ({ id: b.tool_use_id, content: b.content })),
    callIds: assistants.map((m) =>
      blocks(m)
        .filter((b) => b.type === "tool_use")
        .map((b) => b.id),
    ),
  };
};

const WIRES: {
  name: string;
  endpoint: string;
  base: (url: string) => string;
  read: Reader;
  reply: (calls: Call[]) => FakeReply;
}[] = [
  {
    name: "Chat Completions",
    endpoint: "openai:test-model",
    base: (url) => `${url}/v1`,
    read: readChat,
    reply: (calls) =>
      calls.length === 0
        ? openaiReply([], "Done.")
        : openaiReply(calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args) }))),
  },
  {
    name: "Responses",
    endpoint: "openai-responses:test-model",
    base: (url) => `${url}/v1`,
    read: readResponses,
    reply: (calls) =>
      calls.length === 0
        ? responsesReply([], "Done.")
        : responsesReply(calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.args) }))),
  },
  {
    name: "Anthropic Messages",
    endpoint: "anthropic:claude-test",
    base: (url) => url,
    read: readAnthropic,
    reply: (calls) =>
      calls.length === 0
        ? anthropicReply([], "Done.")
        : anthropicReply(calls.map((c) => ({ name: c.name, input: c.args }))),
  },
];

function records(dir: string, runId: string): Row[] {
  return readFileSync(join(dir, "reports", runId, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

describe.each(WIRES)("call sets over $name", (wire) => {
  it("scores BFCL- and τ-bench-shaped call sets as derived by hand, each step's request carrying its history, and replays with no request", async () => {
    const dir = writeProject(TOOLS, CASES);
    const server = await fake.start((request: ReceivedRequest) => {
      const { goal, step } = wire.read(request.body);
      return wire.reply(SCRIPT[goal]?.[step] ?? []);
    });
    const run = (...extra: string[]) =>
      runCli(
        [
          "run",
          "-e",
          wire.endpoint,
          "--base-url",
          wire.base(server.url),
          "-n",
          "1",
          "--no-progress",
          "--no-gates",
          "--no-step-summary",
          "--retry-base-ms",
          "1",
          "--format",
          "json",
          ...extra,
        ],
        { cwd: dir, env: ENV },
      );
    const first = await run("--run-id", "first");
    expect(first.code, first.stderr).toBe(0);

    // One request per step: 1 + 1 + 1 + 4 + 4 + 2 + 1.
    expect(server.requests).toHaveLength(14);
    const byCase = new Map(records(dir, "first").map((r) => [r.case_id, r]));
    for (const [id, want] of Object.entries(EXPECTED)) {
      const r = byCase.get(id) as Row;
      const set = r.call_set;
      const matchedCount = set.matched.filter((m: number | null) => m !== null).length;
      expect({
        id,
        stage: r.failed_stage,
        error: r.selection_error,
        matched: typeof want.matched === "number" ? matchedCount : set.matched,
        extra: typeof want.extra === "number" ? set.extra.length : set.extra,
        in_order: set.in_order,
        steps: set.steps,
        ended: set.ended,
        right: !set.args_match.includes(false) && set.exact,
      }).toEqual({ id, ...want });
    }
    expect(byCase.get("extra-send")?.violated).toBe(true);
    expect(byCase.get("tau-wrong-arg")?.argument_match).toBe(false);
    expect(byCase.get("tau-cancel")?.calls.map((c: Row) => c.tool)).toEqual([
      "find_user_id_by_email",
      "get_user_details",
      "get_reservation_details",
      "cancel_reservation",
    ]);

    // Each step's request: the history of the steps before it, every call answered under its own id.
    const steps = (goal: string) =>
      server.requests.map((q) => wire.read(q.body)).filter((q) => q.goal === goal);
    const cancel = steps(CASES[3].goal);
    expect(cancel.map((q) => q.step)).toEqual([0, 1, 2, 3]);
    for (const q of cancel) {
      const ids = q.callIds.flat();
      expect(q.results.map((result) => result.id)).toEqual(ids);
      expect(new Set(ids).size).toBe(ids.length);
    }
    expect(cancel[2].callIds.map((turn) => turn.length)).toEqual([1, 2]);
    // A string result is sent as it is; anything else as JSON.
    expect(cancel[2].results[0].content).toBe("mia_li_3668");
    expect(cancel[2].results.slice(1).map((result) => JSON.parse(result.content))).toEqual([
      { reservations: ["ZFA04Y"] },
      { reservation_id: "ZFA04Y", status: "confirmed" },
    ]);
    // A wrong argument gets the realistic answer its stub gives, not the right reservation.
    const wrong = steps(CASES[4].goal);
    expect(JSON.parse(wrong[2].results[1].content)).toEqual({ error: "Reservation not found" });
    // At max_steps the last calls are not answered: no third request.
    expect(steps(CASES[5].goal)).toHaveLength(2);

    // The figures, by hand: 7 decisions; expected calls 2+2+2+3+3+3+1 = 16, matched 2+1+1+3+3+1+1 = 12;
    // counted calls (matched + extra) 2+2+1+3+3+1+2 = 14; exact with arguments: bfcl-parallel, tau-cancel.
    const metrics = JSON.parse(first.stdout).metrics;
    const figure = (rate: Row) => [rate.numerator, rate.denominator];
    expect(figure(metrics.call_sets.call_set_exact)).toEqual([2, 7]);
    expect(figure(metrics.call_sets.call_recall)).toEqual([12, 16]);
    expect(figure(metrics.call_sets.call_precision)).toEqual([12, 14]);
    expect(figure(metrics.call_sets.order_kept)).toEqual([3, 4]);
    expect(figure(metrics.call_sets.step_limit)).toEqual([1, 7]);
    expect(metrics.call_sets.steps_per_decision.total).toBe(14);
    expect(metrics.call_sets.calls_per_decision.total).toBe(16);
    expect(figure(metrics.selection_accuracy)).toEqual([3, 7]);
    expect(figure(metrics.call_accuracy)).toEqual([2, 7]);
    expect(metrics.selection_errors).toMatchObject({
      wrong_order: 1,
      missed_call: 2,
      wrong_tool: 1,
    });

    // A replay asks nothing and records the same decisions.
    const asked = server.requests.length;
    const replay = await run("--run-id", "replay", "--mode", "replay");
    expect(replay.code, replay.stderr).toBe(0);
    expect(server.requests).toHaveLength(asked);
    const strip = (r: Row): Row => ({ ...r, latency_ms: 0, recorded_latency_ms: 0 });
    const sorted = (id: string) =>
      records(dir, id)
        .map(strip)
        .sort((x, y) => x.case_id.localeCompare(y.case_id));
    expect(sorted("replay")).toEqual(sorted("first"));
  });
});

describe("a turn's own gold history", () => {
  it("is what later turns see, instead of the history derived from its decision; a result answering no call is refused", async () => {
    const gold = [
      {
        role: "assistant",
        tool_calls: [{ id: "g1", name: "cd", arguments: { folder: "workspace" } }],
      },
      { role: "tool", tool_call_id: "g1", content: "moved to /workspace" },
      { role: "assistant", content: "I'm in workspace now." },
    ];
    const conversation = (turnGold: unknown[]) => ({
      id: "own-gold",
      turns: [
        { user: "Go to workspace.", acceptable: ["cd"], gold: turnGold },
        { user: "Where is order ord_1?", acceptable: ["get_order"] },
      ],
    });
    const dir = writeProject(TOOLS, [conversation(gold)]);
    const server = await fake.start(() => openaiReply([{ name: "get_order", arguments: "{}" }]));
    const run = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
      ],
      { cwd: dir, env: ENV },
    );
    expect(run.code, run.stderr).toBe(0);
    const second = server.requests
      .map((q) => q.body.messages as Row[])
      .find((messages) => messages.at(-1)?.content === "Where is order ord_1?") as Row[];
    expect(second.slice(1, -1)).toEqual([
      { role: "user", content: "Go to workspace." },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "g1",
            type: "function",
            function: { name: "cd", arguments: '{"folder":"workspace"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "g1", content: "moved to /workspace" },
      { role: "assistant", content: "I'm in workspace now." },
    ]);
    const bad = writeProject(TOOLS, [
      conversation([{ role: "tool", tool_call_id: "nope", content: "x" }]),
    ]);
    const refused = await runCli(["run", "--no-progress", "--no-gates"], { cwd: bad });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /cases\.yaml:\d+: case "own-gold": turn 1: gold\[0\] answers call "nope", which no earlier gold message made/,
    );
  });
});

describe("diff of two call-set runs", () => {
  it("pairs call-set exactness trial by trial and compares expected-call recall and precision", async () => {
    const dir = writeProject(TOOLS, CASES);
    let fixed = false;
    const server = await fake.start((request: ReceivedRequest) => {
      const { goal, step } = readChat(request.body);
      // The change: the missing call is made too.
      if (fixed && goal === CASES[2].goal) return WIRES[0].reply(SCRIPT[CASES[0].goal][0]);
      return WIRES[0].reply(SCRIPT[goal]?.[step] ?? []);
    });
    const run = (id: string) =>
      runCli(
        [
          "run",
          "-e",
          "openai:test-model",
          "--base-url",
          `${server.url}/v1`,
          "-n",
          "1",
          "--mode",
          "live",
          "--no-progress",
          "--no-gates",
          "--no-step-summary",
          "--run-id",
          id,
        ],
        { cwd: dir, env: ENV },
      );
    expect((await run("base")).code).toBe(0);
    fixed = true;
    expect((await run("current")).code).toBe(0);
    const diff = await runCli(["diff", "reports/base", "reports/current", "--format", "json"], {
      cwd: dir,
    });
    expect(diff.stderr).toBe("");
    const metrics = new Map(JSON.parse(diff.stdout).metrics.map((m: Row) => [m.metric, m]));
    const figure = (m: Row) => [
      m.base.numerator,
      m.base.denominator,
      m.current.numerator,
      m.current.denominator,
    ];
    // bfcl-missing now makes both calls: one more exact set, one more expected call made, no extra.
    expect(figure(metrics.get("call_set_exact") as Row)).toEqual([2, 7, 3, 7]);
    expect(figure(metrics.get("call_recall") as Row)).toEqual([12, 16, 13, 16]);
    expect(figure(metrics.get("call_precision") as Row)).toEqual([12, 14, 13, 15]);
    expect((metrics.get("call_set_exact") as Row).trials).toMatchObject({
      up: 1,
      down: 0,
      pairs: 7,
    });
    expect((metrics.get("call_recall") as Row).cases).toMatchObject({ up: 1, down: 0, pairs: 7 });
    expect((metrics.get("call_recall") as Row).change).toBe("improved");
    // A drop gate on a call-set rate: the reverse diff fails it.
    const gated = await runCli(
      ["diff", "reports/current", "reports/base", "--max-drop", "call_recall=0.05"],
      { cwd: dir },
    );
    expect(gated.code).toBe(1);
    expect(gated.stderr).toMatch(
      /gate failed: max-drop call_recall=0\.05: call_recall 81\.3% \(13\/16\) → 75\.0% \(12\/16\)/,
    );
  });
});

describe.each(WIRES)("a case's own parallel_tool_calls over $name", (wire) => {
  it("sends the case's parallel_tool_calls: false in the provider's form, and nothing for a case without it", async () => {
    const dir = writeProject(TOOLS, [
      {
        id: "one-at-a-time",
        goal: "Go to workspace and make a folder called test.",
        ...BFCL,
        parallel_tool_calls: false,
      },
      { id: "as-the-run-says", goal: "Where is order ord_1?", calls: [{ tool: "get_order" }] },
    ]);
    const server = await fake.start((request: ReceivedRequest) => {
      const { goal, step } = wire.read(request.body);
      return wire.reply(SCRIPT[goal]?.[step] ?? []);
    });
    const run = await runCli(
      [
        "run",
        "-e",
        wire.endpoint,
        "--base-url",
        wire.base(server.url),
        "-n",
        "1",
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
      ],
      { cwd: dir, env: ENV },
    );
    expect(run.code, run.stderr).toBe(0);
    const control = (goal: string) => {
      const body = server.requests.find((q) => wire.read(q.body).goal === goal)?.body as Row;
      return wire.endpoint.startsWith("anthropic") ? body.tool_choice : body.parallel_tool_calls;
    };
    const off = wire.endpoint.startsWith("anthropic")
      ? { type: "auto", disable_parallel_tool_use: true }
      : false;
    expect(control("Go to workspace and make a folder called test.")).toEqual(off);
    expect(control("Where is order ord_1?")).toBeUndefined();
  });
});

describe("call sets in a conversation", () => {
  const CONVERSATION = {
    id: "bfcl-files",
    turns: [
      {
        user: "Go to workspace and make a folder called test.",
        calls: [
          { tool: "cd", args: { folder: "workspace" }, result: { cwd: "/workspace" } },
          { tool: "mkdir", args: { dir_name: "test" } },
        ],
        order: "sequence",
        result: { ok: true, made: "test" },
      },
      { user: "Where is order ord_1?", acceptable: ["get_order"] },
    ],
  };

  it("feeds every gold call of an earlier call-set turn forward, each with its result, and on-policy the model's own calls", async () => {
    const dir = writeProject(TOOLS, [CONVERSATION]);
    const server = await fake.start((request: ReceivedRequest) => {
      const messages = request.body.messages as Row[];
      const last = messages[messages.length - 1];
      if (last.content === CONVERSATION.turns[0].user)
        return openaiReply([{ name: "cd", arguments: JSON.stringify({ folder: "workspace" }) }]);
      return openaiReply([{ name: "get_order", arguments: JSON.stringify({ order_id: "ord_1" }) }]);
    });
    const run = (...extra: string[]) =>
      runCli(
        [
          "run",
          "-e",
          "openai:test-model",
          "--base-url",
          `${server.url}/v1`,
          "-n",
          "1",
          "--no-progress",
          "--no-gates",
          "--no-step-summary",
          ...extra,
        ],
        { cwd: dir, env: ENV },
      );
    const forced = await run("--run-id", "forced");
    expect(forced.code, forced.stderr).toBe(0);
    const turn2 = (q: ReceivedRequest) =>
      (q.body.messages as Row[]).at(-1)?.content === CONVERSATION.turns[1].user;
    const history = (server.requests.find(turn2)?.body.messages as Row[]).slice(1, -1);
    // Teacher-forced: both gold calls with their exact arguments, each answered (its own result, else the turn's).
    expect(history).toEqual([
      { role: "user", content: CONVERSATION.turns[0].user },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "turn_1_1",
            type: "function",
            function: { name: "cd", arguments: '{"folder":"workspace"}' },
          },
          {
            id: "turn_1_2",
            type: "function",
            function: { name: "mkdir", arguments: '{"dir_name":"test"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "turn_1_1", content: '{"cwd":"/workspace"}' },
      { role: "tool", tool_call_id: "turn_1_2", content: '{"ok":true,"made":"test"}' },
    ]);
    const byCase = new Map(records(dir, "forced").map((r) => [r.case_id, r]));
    expect(byCase.get("bfcl-files@1")).toMatchObject({
      failed_stage: "selection",
      selection_error: "missed_call",
      call_set: { matched: [0, null] },
    });
    expect(byCase.get("bfcl-files@2")?.failed_stage).toBe(null);

    // On-policy: turn 2 sees the one call the model made at turn 1, answered by the turn's result.
    server.requests.length = 0;
    const own = await run("--run-id", "own", "--conversation-mode", "on-policy");
    expect(own.code, own.stderr).toBe(0);
    const seen = (server.requests.find(turn2)?.body.messages as Row[]).slice(1, -1);
    expect(seen.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(seen[1].tool_calls.map((c: Row) => c.function.name)).toEqual(["cd"]);
  });
});

describe("call sets", () => {
  it("runs the example offline: the baseline's one call per reply makes a one-call set and misses the two-call ones", async () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const dir = tempDir();
    cpSync(join(root, "examples", "call-sets"), join(dir, "examples", "call-sets"), {
      recursive: true,
    });
    cpSync(join(root, "registries"), join(dir, "registries"), { recursive: true });
    const run = await runCli(
      [
        "run",
        "-c",
        "examples/call-sets/route-eval.yaml",
        "--no-progress",
        "--no-gates",
        "--format",
        "json",
      ],
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    const verdicts = Object.fromEntries(report.cases.map((c: Row) => [c.case_id, c.stages]));
    // Two expected calls, one call made (the baseline calls once and stops once a tool answered).
    expect(verdicts).toEqual({
      "order-and-customer": { selection: 3 },
      "note-after-lookup": { selection: 3 },
      "shipment-of-order": { correct: 3 },
    });
    const sets = report.metrics.call_sets;
    // Expected calls 2 + 2 + 1 per trial, 3 trials; one call per decision.
    expect([sets.call_recall.denominator, sets.calls_per_decision.total]).toEqual([15, 9]);
    // The stepped cases asked twice (the call, then "Done."): 1 + 2 + 2 per trial.
    expect(sets.steps_per_decision.total).toBe(15);

    // Shards keep each (case, trial) whole with its steps: merged, they are the unsharded run.
    const cli = (...args: string[]) => runCli(args, { cwd: dir });
    const config = ["-c", "examples/call-sets/route-eval.yaml", "--no-progress", "--no-gates"];
    for (const [id, shard] of [
      ["whole", null],
      ["s1", "1/2"],
      ["s2", "2/2"],
    ] as const)
      expect(
        (await cli("run", ...config, "--run-id", id, ...(shard === null ? [] : ["--shard", shard])))
          .code,
      ).toBe(0);
    expect((await cli("merge", "reports/merged", "reports/s1", "reports/s2")).code).toBe(0);
    const decisions = (id: string) =>
      readFileSync(join(dir, "reports", id, "records.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line))
        .map(({ latency_ms: _l, recorded_latency_ms: _r, ...rest }) => rest)
        .sort((a, b) => `${a.case_id}${a.trial}`.localeCompare(`${b.case_id}${b.trial}`));
    expect(decisions("merged")).toEqual(decisions("whole"));

    // A counterfactual's rival is the extra call made in an expected call's place, never an expected tool.
    const cf = await cli(
      "counterfactual",
      "reports/whole",
      "-c",
      "examples/call-sets/route-eval.yaml",
      "--no-progress",
      "--format",
      "json",
    );
    expect(cf.code, cf.stderr).toBe(0);
    const headroom = JSON.parse(cf.stdout);
    const extraOf = new Map(
      decisions("whole").map((r) => [
        r.case_id,
        r.call_set.extra.map((i: number) => r.calls[i].tool),
      ]),
    );
    expect(extraOf.get("note-after-lookup")).toEqual([]);
    expect(headroom.rival_pairs.map((p: Row) => [p.acceptable, p.rival])).toEqual([
      ["find_customer|get_customer|get_order", extraOf.get("order-and-customer")?.[0]],
    ]);
  });

  it("matches arguments across calls of one tool, whatever order they came in", () => {
    const spec = {
      expected: [
        { tools: ["get_order"], args: { order_id: "a" } },
        { tools: ["get_order"], args: { order_id: "b" } },
      ],
      order: "any" as const,
      allow_extra: [],
    };
    const calls = [
      { tool: "get_order", arguments: { order_id: "b" } },
      { tool: "get_order", arguments: { order_id: "a" } },
    ];
    expect(matchCallSet(spec, calls)).toMatchObject({
      matched: [1, 0],
      args_match: [true, true],
      exact: true,
    });
  });

  it("matches the most calls, then the most arguments, when many calls share one tool (26 calls, 8 expected)", () => {
    // Expected: get_order for ids 0..7; made: 26 calls of get_order, ids 25 down to 0 — eight meet
    // an expectation; the exhaustive search this replaced took minutes on this shape.
    const spec = {
      expected: Array.from({ length: 8 }, (_, i) => ({
        tools: ["get_order"],
        args: { order_id: `ord_${i}` },
      })),
      order: "any" as const,
      allow_extra: [],
    };
    const calls = Array.from({ length: 26 }, (_, i) => ({
      tool: "get_order",
      arguments: { order_id: `ord_${25 - i}` },
    }));
    const match = matchCallSet(spec, calls);
    expect(match.matched).toEqual([25, 24, 23, 22, 21, 20, 19, 18]);
    expect(match.args_match).toEqual(new Array(8).fill(true));
    expect(match.extra).toHaveLength(18);
    // A call of another tool is never matched, however the weights fall.
    const mixed = matchCallSet(spec, [{ tool: "send_email", arguments: {} }, ...calls.slice(18)]);
    expect(mixed.matched).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(mixed.extra).toEqual([0]);
  }, 10_000);

  it("refuses a case that gives both acceptable and calls, results without steps, and steps in a batch or with tool search", async () => {
    const bad = (entry: Row) =>
      writeProject(TOOLS, [{ id: "x", goal: "Where is ord_1?", ...entry }]);
    const run = (dir: string, ...extra: string[]) =>
      runCli(["run", "--no-progress", "--no-gates", "--no-step-summary", ...extra], { cwd: dir });
    const both = await run(bad({ acceptable: ["get_order"], calls: [{ tool: "get_order" }] }));
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/cases\.yaml:\d+: case "x": gives both acceptable: and calls:/);
    const results = await run(
      bad({ calls: [{ tool: "get_order" }], results: [{ tool: "get_order", result: 1 }] }),
    );
    expect(results.code).toBe(2);
    expect(results.stderr).toMatch(
      /results: are returned only between steps; set max_steps: above 1/,
    );
    const stepped = bad({ calls: [{ tool: "get_order" }], max_steps: 3 });
    const search = await run(stepped, "--tool-search", "client");
    expect(search.code).toBe(2);
    expect(search.stderr).toMatch(/case "x" has max_steps: 3, and tool_search is on/);
    const batch = await run(stepped, "-e", "openai:m", "--batch", "--detach");
    expect(batch.code).toBe(2);
    expect(batch.stderr).toMatch(/max_steps: 3: each step's request needs the reply before it/);
  });
});
