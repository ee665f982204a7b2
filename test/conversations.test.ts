/**
 * Conversation cases, teacher-forced: each turn asked with the gold history of the turns before
 * it and its own tool surface (the phase in effect, tools added, removed, or withheld until a
 * later turn). Through a local OpenAI-compatible server driven by the real SDK, with a scripted
 * model, so every per-turn verdict and conversation metric below is derived by hand.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  anthropicReply,
  offeredTools,
  openaiReply,
  responsesReply,
  useFakeServers,
  type ReceivedRequest,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, TOOLS, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";
import { GOLD_TEXT } from "../src/cases/gold-history.js";

afterAll(removeTempDirs);
const servers = useFakeServers();
const ENV = { OPENAI_API_KEY: "sk-test-conversations-0123" };

const SHOP = [
  ...TOOLS,
  {
    name: "cancel_order",
    family: "orders",
    purpose: "Cancel an order that has not shipped.",
    effect: "mutating",
    input_schema: {
      type: "object",
      properties: { order_id: { type: "string" } },
      required: ["order_id"],
    },
  },
];

const CONVERSATIONS = [
  {
    id: "lookup-then-refund",
    phase: "orders",
    turns: [
      {
        user: "Where is order ord_7?",
        acceptable: ["get_order"],
        args: { get_order: { order_id: "ord_7" } },
        result: { status: "delivered" },
      },
      {
        user: "Refund it please.",
        phase: "payments",
        acceptable: ["refund_order"],
        args: { refund_order: { order_id: "ord_7" } },
      },
      { user: "Email me the receipt.", add: ["send_email"], acceptable: ["send_email"] },
    ],
  },
  {
    // BFCL's miss_func shape: the tool is withheld until turn 3.
    id: "withheld-refund",
    phase: "payments",
    turns: [
      // On-policy, a model that abstains here is told so (a stub for a call off the gold path).
      {
        user: "Refund order ord_9.",
        acceptable: ["refund_order"],
        results: { no_applicable_tool: "Noted: you cannot refund it." },
      },
      { user: "Please, refund ord_9 now.", acceptable: ["refund_order"] },
      { user: "Try the refund again.", add: ["refund_order"], acceptable: ["refund_order"] },
    ],
  },
  {
    id: "cancel-then-policy",
    phase: "orders",
    turns: [
      { user: "Cancel order ord_3.", acceptable: ["cancel_order"] },
      {
        user: "And cancel ord_4 as well.",
        remove: ["cancel_order"],
        acceptable: ["no_applicable_tool"],
        forbidden: ["cancel_order"],
      },
    ],
  },
];

/** The scripted model: one reply per user message (the newest one in the request). */
const SCRIPT: Record<string, string> = {
  "Where is order ord_7?": "get_order",
  "Refund it please.": "refund_order",
  "Email me the receipt.": "get_order", // the tool added at this turn is ignored: exposure lag
  "Refund order ord_9.": "no_applicable_tool",
  "Please, refund ord_9 now.": "no_applicable_tool",
  "Try the refund again.": "refund_order",
  "Cancel order ord_3.": "cancel_order",
  "And cancel ord_4 as well.": "no_applicable_tool",
};

function lastUser(request: ReceivedRequest): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const user = messages.filter((m) => m.role === "user").at(-1);
  return typeof user?.content === "string" ? user.content : JSON.stringify(user?.content);
}

/** The conversations (default: CONVERSATIONS) as a project, the scripted model's server, and a run through it. */
async function project(conversations: unknown[] = CONVERSATIONS): Promise<{
  dir: string;
  server: Awaited<ReturnType<typeof servers.start>>;
  run: (...extra: string[]) => ReturnType<typeof runCli>;
}> {
  const dir = writeProject(SHOP, conversations);
  const config = JSON.parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
  writeFileSync(
    join(dir, "route-eval.yaml"),
    JSON.stringify({ ...config, controls: ["ask_user", "no_applicable_tool"] }),
  );
  const server = await servers.start((request) =>
    openaiReply([
      {
        name: SCRIPT[lastUser(request)] ?? "no_applicable_tool",
        arguments: '{"order_id":"ord_7"}',
      },
    ]),
  );
  const run = (...extra: string[]) =>
    runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-gates",
        "--no-step-summary",
        "--run-id",
        "conv",
        ...extra,
      ],
      { cwd: dir, env: ENV },
    );
  return { dir, server, run };
}

describe("conversation cases, teacher-forced", () => {
  it("feeds a gold turn forward as what a correct model did there: no call of a tool the turn withheld, a control as its own message", async () => {
    const conversation = {
      id: "ask-then-withheld",
      phase: "payments",
      turns: [
        { user: "Refund my order.", acceptable: ["ask_user"] },
        { user: "It is ord_9; refund it.", acceptable: ["refund_order"] },
        { user: "Try once more.", add: ["refund_order"], acceptable: ["refund_order"] },
      ],
    };
    const { server, run } = await project([conversation]);
    const result = await run("--trials", "1");
    expect(result.code, result.stderr).toBe(0);
    const turn3 = server.requests.find((r) => lastUser(r) === "Try once more.");
    const messages = (turn3?.body.messages as Record<string, unknown>[]).filter(
      (m) => m.role !== "system",
    );
    // Turn 1's gold is the control ask_user: its message. Turn 2's acceptable tool was withheld: a
    // correct model could not call it, so the turn reads as a reply without a tool — never a
    // successful refund_order call made while refund_order was hidden.
    expect(
      messages.map((m) => [m.role, m.content ?? null, m.tool_calls === undefined ? null : "calls"]),
    ).toEqual([
      ["user", "Refund my order.", null],
      ["assistant", GOLD_TEXT.ask_user, null],
      ["user", "It is ord_9; refund it.", null],
      ["assistant", GOLD_TEXT.no_tool_offered, null],
      ["user", "Try once more.", null],
    ]);
  });

  it("asks each turn with the gold history and its own tool surface; classifies each turn; sums conversations up", async () => {
    const { dir, server, run } = await project();
    const result = await run("-f", "json");
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(16); // 8 turns × 2 trials

    // Turn 3 of the first conversation: the gold history of turns 1 and 2, then its own message.
    const turn3 = server.requests.find((r) => lastUser(r) === "Email me the receipt.");
    const messages = (turn3?.body.messages as Record<string, unknown>[]).filter(
      (m) => m.role !== "system",
    );
    expect(
      messages.map((m) => [
        m.role,
        m.content ?? null,
        (m.tool_calls as { function: { name: string; arguments: string } }[] | undefined)?.map(
          (c) => `${c.function.name} ${c.function.arguments}`,
        ) ?? null,
        m.tool_call_id ?? null,
      ]),
    ).toEqual([
      ["user", "Where is order ord_7?", null, null],
      ["assistant", null, ['get_order {"order_id":"ord_7"}'], null],
      ["tool", '{"status":"delivered"}', null, "turn_1"],
      ["user", "Refund it please.", null, null],
      ["assistant", null, ['refund_order {"order_id":"ord_7"}'], null],
      ["tool", '{"ok":true}', null, "turn_2"],
      ["user", "Email me the receipt.", null, null],
    ]);
    // Each turn's tools: the phase in effect, plus what the conversation added, minus what it removed or withholds.
    const offered = (user: string) =>
      offeredTools(server.requests.find((r) => lastUser(r) === user)?.body ?? {}).sort();
    expect(offered("Where is order ord_7?")).toEqual([
      "ask_user",
      "cancel_order",
      "get_order",
      "no_applicable_tool",
      "search_orders",
    ]);
    expect(offered("Refund it please.")).toEqual([
      "ask_user",
      "cancel_order",
      "get_order",
      "no_applicable_tool",
      "refund_order",
      "search_orders",
    ]);
    expect(offered("Email me the receipt.")).toEqual([
      "ask_user",
      "cancel_order",
      "get_order",
      "no_applicable_tool",
      "refund_order",
      "search_orders",
      "send_email",
    ]);
    expect(offered("Refund order ord_9.")).toEqual([
      "ask_user",
      "cancel_order",
      "get_order",
      "no_applicable_tool",
      "search_orders",
    ]);
    expect(offered("Try the refund again.")).toEqual([
      "ask_user",
      "cancel_order",
      "get_order",
      "no_applicable_tool",
      "refund_order",
      "search_orders",
    ]);
    expect(offered("And cancel ord_4 as well.")).toEqual([
      "ask_user",
      "get_order",
      "no_applicable_tool",
      "search_orders",
    ]);

    const report = JSON.parse(result.stdout);
    const verdicts = Object.fromEntries(
      (report.cases as { case_id: string; stages: Record<string, number> }[]).map((c) => [
        c.case_id,
        Object.entries(c.stages)
          .filter(([, n]) => n > 0)
          .map(([stage]) => stage)
          .join(","),
      ]),
    );
    expect(verdicts).toEqual({
      "lookup-then-refund@1": "correct",
      "lookup-then-refund@2": "correct",
      "lookup-then-refund@3": "selection",
      "withheld-refund@1": "exposure",
      "withheld-refund@2": "exposure",
      "withheld-refund@3": "correct",
      "cancel-then-policy@1": "correct",
      "cancel-then-policy@2": "correct",
    });
    const c = report.metrics.conversations;
    expect(c.conversations).toBe(3);
    expect(c.success).toMatchObject({ numerator: 2, denominator: 6, cases: 3 });
    expect(c.pass_hat_k["2"]).toMatchObject({ numerator: 1, denominator: 3 });
    expect(c.by_turn).toEqual([
      {
        turn: 1,
        scored: 6,
        correct: 4,
        failure_profile: { coverage: 0, exposure: 2, discovery: 0, selection: 0 },
      },
      {
        turn: 2,
        scored: 6,
        correct: 4,
        failure_profile: { coverage: 0, exposure: 2, discovery: 0, selection: 0 },
      },
      {
        turn: 3,
        scored: 4,
        correct: 2,
        failure_profile: { coverage: 0, exposure: 0, discovery: 0, selection: 2 },
      },
    ]);
    expect(c.first_failure).toEqual({ "1": 2, "3": 2, none: 2 });
    expect(c.exposure_lag).toBe(2);
    // Rates cluster a conversation's turns: 16 turn trials from 3 conversations.
    expect(report.metrics.end_to_end_accuracy).toMatchObject({
      numerator: 10,
      denominator: 16,
      cases: 3,
    });

    // The records say which turn each is, and what its surface changed.
    const records = readFileSync(join(dir, "reports", "conv", "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const withheld = records.find((r) => r.case_id === "withheld-refund@1");
    expect(withheld.turn).toEqual({
      conversation: "withheld-refund",
      index: 1,
      of: 3,
      added: [],
      removed: [],
      withheld: ["refund_order"],
      added_now: [],
    });

    // Terminal: the Conversations section.
    const text = await runCli(["report", join(dir, "reports", "conv")], {
      cwd: dir,
      env: { COLUMNS: "100" },
    });
    expect(text.stdout).toContain("conversation success 33.3% (2/6) of 6 scored trials");
    expect(text.stdout).toContain("first failure: turn 1 ×2 · turn 3 ×2 · none ×2");
    expect(text.stdout).toContain(
      "exposure lag: 2 selection failures at the turn that added an acceptable tool",
    );
    // The report page has the same section.
    expect((await runCli(["report", join(dir, "reports", "conv"), "-f", "html"], dir)).code).toBe(
      0,
    );
    const page = readFileSync(join(dir, "reports", "conv", "report.html"), "utf8");
    expect(page).toContain('id="conversation-turns"');
    expect(page).toContain("Conversation success 33.3% (2/6)</strong> of 6 scored trials");

    // A second run asks nothing: every turn's request is in the store. A gate on conversation success judges it.
    const before = server.requests.length;
    const config = JSON.parse(readFileSync(join(dir, "route-eval.yaml"), "utf8"));
    writeFileSync(
      join(dir, "route-eval.yaml"),
      JSON.stringify({ ...config, gates: { conversation_success: ">= 0.5" } }),
    );
    const again = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--no-step-summary",
        "--run-id",
        "conv",
        "--force",
      ],
      { cwd: dir, env: ENV },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      "gate failed: conversation_success >= 0.5: conversation_success 0.333 (2/6) is below 0.5",
    );
    expect(server.requests.length).toBe(before);
  }, 120_000);

  it("show --case explains a turn: the tool withheld until a later turn, and what to change", async () => {
    const { dir, run } = await project();
    expect((await run()).code).toBe(0);
    const show = await runCli(
      ["show", join(dir, "reports", "conv"), "--case", "withheld-refund@1"],
      { cwd: dir, env: { COLUMNS: "100" } },
    );
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("withheld: a later turn of the conversation adds it");
    expect(show.stdout).toContain("refund_order");

    // The conversation's id: its timeline, turn by turn.
    const timeline = await runCli(["show", "reports/conv", "--case", "lookup-then-refund"], {
      cwd: dir,
      env: { COLUMNS: "100" },
    });
    expect(timeline.code, timeline.stderr).toBe(0);
    expect(timeline.stdout).toBe(
      [
        "Conversation lookup-then-refund · 3 turns × 2 trials ·",
        "each turn asked with the gold history before it",
        "",
        "turn 1 · phase orders · withheld until later: send_email",
        '  "Where is order ord_7?"',
        "  expected get_order · chose get_order ×2 · ✓ 2 of 2 correct",
        "turn 2 · phase payments · withheld until later: send_email",
        '  "Refund it please."',
        "  expected refund_order · chose refund_order ×2 · ✓ 2 of 2 correct",
        "turn 3 · phase payments · + send_email",
        '  "Email me the receipt."',
        "  expected send_email · chose get_order ×2 · ✗ 0 of 2 correct; failed at selection ×2 (exposure lag",
        "  ×2: the tool this turn added was passed over)",
        "",
        "Explain one turn: route-eval show reports/conv --case lookup-then-refund@1",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (
        await runCli(
          ["show", join(dir, "reports", "conv"), "--case", "cancel-then-policy", "--json"],
          dir,
        )
      ).stdout,
    );
    expect(
      json.turns.map((t: { turn: number; removed_now: string[] }) => [t.turn, t.removed_now]),
    ).toEqual([
      [1, []],
      [2, ["cancel_order"]],
    ]);
  }, 120_000);
});

describe("conversation cases: every mistake is a line-numbered error before any call", () => {
  const cases = (conversation: Record<string, unknown>) => writeProject(SHOP, [conversation]);
  const lint = (dir: string) => runCli(["run", "--no-progress"], dir);

  it.each([
    [
      { id: "c", turns: [{ user: "hi" }] },
      /cases\.yaml:\d+: case "c": turn 1 has no decision: give its acceptable tools \(or \[ask_user\] \/ \[no_applicable_tool\]\), or calls: the calls expected$/,
    ],
    [
      {
        id: "c",
        turns: [{ user: "hi", acceptable: ["get_order"], remove: ["refund_order"] }],
        phase: "orders",
      },
      /cases\.yaml:\d+: case "c": turn 1: remove names "refund_order", which is not exposed at that turn/,
    ],
    [
      { id: "c", turns: [{ user: "hi", acceptable: ["get_order"], add: ["teleport"] }] },
      /cases\.yaml:\d+: case "c": turn 1: add names "teleport", which registry shop does not have$/,
    ],
    [
      { id: "c", goal: "hi", turns: [{ user: "hi", acceptable: ["get_order"] }] },
      /cases\.yaml:\d+: case "c": a conversation \(turns:\) has no goal of its own/,
    ],
    [
      { id: "c", acceptable: ["get_order"] },
      /cases\.yaml:\d+: case "c": has no goal: give the user's request \(goal:\), or turns: for a conversation$/,
    ],
    [
      { id: "c", turns: [{ user: "hi", acceptable: ["get_order"], phase: "nowhere" }] },
      /cases\.yaml:\d+: case "c@1": unknown phase "nowhere"/,
    ],
  ])("%j", async (conversation, message) => {
    const result = await lint(cases(conversation));
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("on-policy refuses --batch, whose requests are all asked at once (exit 2, nothing asked)", async () => {
    const dir = writeProject(SHOP, CONVERSATIONS);
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--batch",
        "--conversation-mode",
        "on-policy",
        "--no-progress",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "route-eval: --batch: on-policy conversations ask each turn after the answer to the one before, and a batch asks every request at once; run them live, or teacher-forced (the default) with --batch\n",
    );
  });

  it("lint reads conversations too: a turn's unknown tool is a finding at the turn's line", async () => {
    const dir = cases({
      id: "c",
      turns: [
        { user: "hi", acceptable: ["get_order"] },
        { user: "then", acceptable: ["get_ordr"] },
      ],
    });
    const result = await runCli(["lint", "--all"], dir);
    expect(result.stdout).toMatch(
      /cases\.yaml:\d+: error case-unknown-tool: .*"get_ordr".*get_order/,
    );
  });
});

describe("conversation history in each provider's native shape", () => {
  it("Responses and Anthropic Messages: turn 3 carries the gold calls and results with their ids matched", async () => {
    const responses = await servers.start(() =>
      responsesReply([{ name: "get_order", arguments: '{"order_id":"ord_7"}' }]),
    );
    const anthropic = await servers.start(() =>
      anthropicReply([{ name: "get_order", input: { order_id: "ord_7" } }]),
    );
    const dir = writeProject(SHOP, [CONVERSATIONS[0]]);
    const env = {
      OPENAI_API_KEY: "sk-test-conversations-0123",
      ANTHROPIC_API_KEY: "sk-ant-test-0123",
    };
    for (const [endpoint, server] of [
      ["openai-responses", responses],
      ["anthropic", anthropic],
    ] as const) {
      const result = await runCli(
        [
          "run",
          "-e",
          `${endpoint}:test-model`,
          "--base-url",
          endpoint === "anthropic" ? server.url : `${server.url}/v1`,
          "--no-progress",
          "--no-gates",
          "-n",
          "1",
          "--run-id",
          endpoint,
        ],
        { cwd: dir, env },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(3);
    }
    const input = responses.requests[2].body.input as Record<string, unknown>[];
    expect(
      input
        .filter((item) => item.type === "function_call" || item.type === "function_call_output")
        .map((item) => [item.type, item.call_id, item.name ?? null, item.arguments ?? item.output]),
    ).toEqual([
      ["function_call", "turn_1", "get_order", '{"order_id":"ord_7"}'],
      ["function_call_output", "turn_1", null, '{"status":"delivered"}'],
      ["function_call", "turn_2", "refund_order", '{"order_id":"ord_7"}'],
      ["function_call_output", "turn_2", null, '{"ok":true}'],
    ]);
    const messages = anthropic.requests[2].body.messages as {
      role: string;
      content: string | Record<string, unknown>[];
    }[];
    const blocks: Record<string, unknown>[] = messages.flatMap((m) =>
      typeof m.content === "string"
        ? [{ role: m.role, type: "text", text: m.content }]
        : m.content.map((b) => ({ role: m.role, ...b })),
    );
    expect(
      blocks
        .filter((b) => b.type === "tool_use" || b.type === "tool_result")
        .map((b) => [b.role, b.type, b.id ?? b.tool_use_id]),
    ).toEqual([
      ["assistant", "tool_use", "turn_1"],
      ["user", "tool_result", "turn_1"],
      ["assistant", "tool_use", "turn_2"],
      ["user", "tool_result", "turn_2"],
    ]);
    expect(
      blocks
        .filter((b) => b.type === "text" && b.role === "user")
        .map((b) => b.text)
        .join(" | "),
    ).toContain("Email me the receipt.");
  }, 120_000);
});

describe("diff of conversation runs", () => {
  it("pairs turns as cases and trials, and conversation success by conversation", async () => {
    const dir = writeProject(SHOP, CONVERSATIONS);
    const scripted = (fix: boolean) =>
      servers.start((request) =>
        openaiReply([
          {
            name:
              fix && lastUser(request) === "Email me the receipt."
                ? "send_email"
                : (SCRIPT[lastUser(request)] ?? "no_applicable_tool"),
            arguments: "{}",
          },
        ]),
      );
    for (const [id, fix] of [
      ["before", false],
      ["after", true],
    ] as const) {
      const server = await scripted(fix);
      const result = await runCli(
        [
          "run",
          "-e",
          "openai:test-model",
          "--base-url",
          `${server.url}/v1`,
          "--no-progress",
          "--no-gates",
          "--run-id",
          id,
          "--mode",
          "live",
        ],
        { cwd: dir, env: ENV },
      );
      expect(result.code, result.stderr).toBe(0);
    }
    const diff = JSON.parse(
      (await runCli(["diff", "reports/before", "reports/after", "-f", "json"], dir)).stdout,
    );
    const row = diff.metrics.find((m: { metric: string }) => m.metric === "conversation_success");
    expect(row).toMatchObject({
      base: { numerator: 2, denominator: 6 },
      current: { numerator: 4, denominator: 6 },
      change: "improved",
      cases: { up: 1, down: 0, pairs: 3 },
    });
    expect(
      diff.flips
        .filter((f: { kind: string }) => f.kind === "fixed")
        .map((f: { case_id: string }) => f.case_id),
    ).toEqual(["lookup-then-refund@3"]);
  }, 120_000);
});

describe("conversation cases, on-policy", () => {
  it("feeds the model's own calls forward, with the turns' results, stubs and error results; propagation in the report; a stopped trial resumes at its turn", async () => {
    const { dir, server, run } = await project();
    const result = await run("--conversation-mode", "on-policy", "-f", "json");
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(16);
    const turn3 = server.requests.find((r) => lastUser(r) === "Email me the receipt.");
    const history = (turn3?.body.messages as Record<string, unknown>[])
      .filter((m) => m.role !== "system")
      .map((m) => [
        m.role,
        m.content ?? null,
        (m.tool_calls as { id: string; function: { name: string } }[] | undefined)?.map(
          (c) => `${c.id} ${c.function.name}`,
        ) ?? null,
      ]);
    expect(history).toEqual([
      ["user", "Where is order ord_7?", null],
      ["assistant", null, ["turn_1_1 get_order"]],
      ["tool", '{"status":"delivered"}', null],
      ["user", "Refund it please.", null],
      ["assistant", null, ["turn_2_1 refund_order"]],
      ["tool", '{"ok":true}', null],
      ["user", "Email me the receipt.", null],
    ]);
    // The withheld conversation: the model's own abstentions at turns 1 and 2 are its history — turn 1's with its stub, turn 2's with an error result (no stub).
    const again = server.requests.find((r) => lastUser(r) === "Try the refund again.");
    const tools = (again?.body.messages as Record<string, unknown>[])
      .filter((m) => m.role === "tool")
      .map((m) => String(m.content));
    expect(tools).toEqual([
      "Noted: you cannot refund it.",
      JSON.stringify({
        error: "no_result",
        message:
          "route-eval has no result for no_applicable_tool at turn 2: the case gives none (results:)",
      }),
    ]);
    const report = JSON.parse(result.stdout);
    // Hand-derived: conversation 2 misses turns 1 and 2, then recovers at 3; the others have no later turn after a miss.
    expect(report.metrics.conversations.on_policy).toEqual({
      after_miss: 4,
      recovered: 2,
      downstream_failures: 2,
      unstubbed: 2,
    });
    expect(report.metrics.conversations.success).toMatchObject({ numerator: 2, denominator: 6 });
    const records = readFileSync(join(dir, "reports", "conv", "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(
      records.find((r) => r.case_id === "withheld-refund@3" && r.trial === 0).turn,
    ).toMatchObject({ mode: "on-policy", unstubbed: ["no_applicable_tool"] });

    // A trial stopped after its first turn: --resume asks its later turns only, with the recorded turn as history.
    const file = join(dir, "reports", "conv", "records.jsonl");
    const kept = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .filter(
        (line) => !(/"case_id":"lookup-then-refund@[23]"/.test(line) && /"trial":0[,}]/.test(line)),
      );
    writeFileSync(file, `${kept.join("\n")}\n`);
    const before = server.requests.length;
    const resumed = await runCli(
      ["run", "--resume", "reports/conv", "--mode", "live", "--no-progress", "--no-gates"],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.requests.slice(before).map(lastUser)).toEqual([
      "Refund it please.",
      "Email me the receipt.",
    ]);
    // Every on-policy turn's request is in the store now: a cached run asks nothing.
    const settled = server.requests.length;
    expect((await run("--conversation-mode", "on-policy", "--force")).code).toBe(0);
    expect(server.requests.length).toBe(settled);
    const timeline = await runCli(["show", "reports/conv", "--case", "withheld-refund"], {
      cwd: dir,
      env: { COLUMNS: "120" },
    });
    expect(timeline.stdout.split("\n")[0]).toBe(
      "Conversation withheld-refund · 3 turns × 2 trials · each turn asked with the model's own earlier replies (on-policy)",
    );
  }, 120_000);
});
