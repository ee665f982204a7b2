/**
 * Traces from the real exporters (issue 47): the fixtures under fixtures/traces/exporters/ were
 * written by scripts/exporter-fixtures/generate.cjs — the real instrumentations from npm
 * (versions in VERSIONS.json) driving the real openai, @anthropic-ai/sdk and ai clients through
 * one agent loop against a local server, exported through the real OTLP/HTTP JSON exporter.
 * The loop is known, so every turn is derived here by hand: (1) the goal → get_weather(Paris);
 * (2) its result → the answer as text; (3) a follow-up with tool_choice forcing get_time.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTraces } from "../src/traces/read-traces.js";
import type { TracedTurn } from "../src/types.js";
import { anthropicReply, offeredTools, useFakeServers } from "./fixtures/fake-provider.js";
import { runCli, tempDir } from "./support/cli.js";

const EXPORTERS = new URL("./fixtures/traces/exporters/", import.meta.url).pathname;
const SYSTEM = "You are a weather assistant. Answer in one sentence.";
const GOAL = "What's the weather in Paris?";
const RESULT = "light rain, 9C";
const ANSWER = "Light rain and 9C in Paris.";
const FORCED = "And what time is it there?";
const PARIS = '{"city":"Paris"}';

function read(file: string, cwd = EXPORTERS): { turns: TracedTurn[]; warnings: string[] } {
  const turns: TracedTurn[] = [];
  const warnings: string[] = [];
  readTraces(
    [file],
    cwd,
    (turn) => turns.push(turn),
    (w) => warnings.push(w),
  );
  return { turns, warnings };
}

/** A turn as the loop made it: the messages in short, what was offered and forced, what came back. */
function summary(turn: TracedTurn) {
  return {
    provider: turn.provider,
    system: turn.system,
    messages: turn.messages.map((m) =>
      m.role === "tool"
        ? `tool ${m.tool_call_id}: ${m.content}`
        : m.role === "assistant"
          ? `assistant: ${m.content ?? (m.tool_calls ?? []).map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(" ")}`
          : `user: ${m.content}`,
    ),
    tools: turn.tools.map((t) => t.name),
    forced: turn.tool_choice.provenance === "traced" ? turn.tool_choice.value : null,
    calls: turn.calls.map((c) => `${c.name}(${c.arguments})`),
    text: turn.text,
  };
}

/** The loop's three turns, as each exporter can tell them. */
function loop(
  provider: string,
  callId: (tool: string) => string,
  options: { tools: boolean; forced: unknown; auto: unknown; followUpAlone?: boolean },
) {
  const tools = options.tools ? ["get_weather", "get_time"] : [];
  const first = [`user: ${GOAL}`];
  const second = [
    ...first,
    `assistant: get_weather(${PARIS})`,
    `tool ${callId("weather")}: ${RESULT}`,
  ];
  return [
    {
      provider,
      system: SYSTEM,
      messages: first,
      tools,
      forced: options.auto,
      calls: [`get_weather(${PARIS})`],
      text: null,
    },
    {
      provider,
      system: SYSTEM,
      messages: second,
      tools,
      forced: options.auto,
      calls: [],
      text: ANSWER,
    },
    {
      provider,
      system: SYSTEM,
      messages: options.followUpAlone
        ? [`user: ${FORCED}`]
        : [...second, `assistant: ${ANSWER}`, `user: ${FORCED}`],
      tools,
      forced: options.forced,
      calls: [`get_time(${PARIS})`],
      text: null,
    },
  ];
}

const byLength = (a: { messages: string[] }, b: { messages: string[] }) =>
  a.messages.length - b.messages.length || a.messages.join().localeCompare(b.messages.join());

const openaiId = (tool: string) => `call_${tool}_1`;
const anthropicId = (tool: string) => `toolu_${tool}_1`;
const forcedOpenai = { type: "function", function: { name: "get_time" } };

describe("each real exporter's spans read as the turns the loop made", () => {
  const cases: [string, ReturnType<typeof loop>][] = [
    [
      "openinference-openai.jsonl",
      loop("openai", openaiId, { tools: true, forced: forcedOpenai, auto: null }),
    ],
    [
      // Tool results are user messages with a tool_call_id there, and the system prompt is only in the parameters.
      "openinference-anthropic.jsonl",
      loop("anthropic", anthropicId, {
        tools: true,
        forced: { type: "tool", name: "get_time" },
        auto: null,
      }),
    ],
    // LangChain: the provider only in the run's metadata (ls_provider); calls and results traced
    // without ids, so the call gets one and its result answers it.
    [
      "openinference-langchain.jsonl",
      loop("openai", () => "call_1", { tools: true, forced: forcedOpenai, auto: null }),
    ],
    // OpenLLMetry records no tool_choice.
    ["traceloop-openai.jsonl", loop("openai", openaiId, { tools: true, forced: null, auto: null })],
    // The messages are OTLP log records, joined to their spans; the tool definitions are not recorded.
    ["otel-openai.jsonl", loop("openai", openaiId, { tools: false, forced: null, auto: null })],
    [
      // Two generateText calls: the follow-up is a prompt of its own; the tool choice is traced (auto, then forced).
      "vercel-ai.jsonl",
      loop("openai", openaiId, {
        tools: true,
        forced: forcedOpenai,
        auto: "auto",
        followUpAlone: true,
      }),
    ],
  ];
  it.each(cases)("%s", (file, expected) => {
    const { turns, warnings } = read(file);
    expect(warnings).toEqual([]);
    expect(turns.map(summary).sort(byLength)).toEqual([...expected].sort(byLength));
  });

  it("Phoenix's span export (top-level span_kind, flat attributes, a page of {data}) reads as the OpenInference spans it holds", () => {
    const { turns } = read("phoenix-spans.json");
    const expected = [
      ...loop("openai", openaiId, { tools: true, forced: forcedOpenai, auto: null }),
      ...loop("anthropic", anthropicId, {
        tools: true,
        forced: { type: "tool", name: "get_time" },
        auto: null,
      }),
    ];
    expect(turns.map(summary).sort(byLength)).toEqual(expected.sort(byLength));
    expect(turns.every((t) => t.source.format === "span-openinference")).toBe(true);
  });

  it("monitor counts what it skipped: the Anthropic SDK's own spans (no content), the AI SDK's wrapper and tool spans", async () => {
    const counts = async (file: string) => {
      const result = await runCli(["monitor", join(EXPORTERS, file), "-f", "json"]);
      expect(result.code, result.stderr).toBe(0);
      const { traces, all } = JSON.parse(result.stdout);
      return { ...traces, call_rate: [all.call_rate.numerator, all.call_rate.denominator] };
    };
    const base = { files: 1, malformed: 0, unreplied: 0, call_rate: [2, 3] };
    expect(await counts("openinference-anthropic.jsonl")).toEqual({
      ...base,
      calls: 6,
      turns: 3,
      skipped: 0,
      without_content: 3,
    });
    expect(await counts("vercel-ai.jsonl")).toEqual({
      ...base,
      calls: 7,
      turns: 3,
      skipped: 4,
      without_content: 0,
    });
    expect(await counts("phoenix-spans.json")).toEqual({
      ...base,
      calls: 9,
      turns: 6,
      skipped: 3,
      without_content: 0,
      call_rate: [4, 6],
    });
  });
});

/** The real export's lines, as JSON values. */
function lines(file: string): Record<string, any>[] {
  return readFileSync(join(EXPORTERS, file), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

const spanOf = (line: Record<string, any>) => line.resourceSpans[0].scopeSpans[0].spans[0];

describe("what a real export holds that is not a turn", () => {
  it("spans and no model call: exit 2 naming what was seen, never '0 model calls'", async () => {
    const dir = tempDir();
    const tool = lines("vercel-ai.jsonl").filter((l) => spanOf(l).name === "ai.toolCall");
    writeFileSync(join(dir, "tools.jsonl"), tool.map((l) => JSON.stringify(l)).join("\n"));
    const result = await runCli(["monitor", "tools.jsonl"], dir);
    expect([result.code, result.stdout]).toEqual([2, ""]);
    expect(result.stderr).toBe(
      "route-eval: no model call recognised in 2 spans (2 Vercel AI SDK ai.toolCall spans); route-eval reads OpenTelemetry GenAI (gen_ai.*), OpenInference (LLM spans, Phoenix exports) and Vercel AI SDK (ai.*.doGenerate) spans, and request/response pairs\n",
    );
  });

  it("model-call spans without content (the SDK's own spans, no instrumentation): exit 2 saying to turn on content capture", async () => {
    const dir = tempDir();
    const own = lines("openinference-anthropic.jsonl").filter(
      (l) => l.resourceSpans[0].scopeSpans[0].scope.name === "com.anthropic.sdk.typescript",
    );
    writeFileSync(join(dir, "sdk.jsonl"), own.map((l) => JSON.stringify(l)).join("\n"));
    const result = await runCli(["freeze", "sdk.jsonl", "--all"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^route-eval: no model call with its content in 3 spans \(3 spans named "anthropic\.messages\.create" \(attributes anthropic\.message\.\*, gen_ai\.operation\.\*, gen_ai\.provider\.\*, gen_ai\.request\.\*\)\): 3 model-call spans carry no messages — turn on the instrumentation's content capture/,
    );
  });

  it("OpenTelemetry's spans without their log records: the content was exported apart, and is asked for", async () => {
    const dir = tempDir();
    const spans = lines("otel-openai.jsonl").filter((l) => l.resourceSpans !== undefined);
    writeFileSync(join(dir, "spans.jsonl"), spans.map((l) => JSON.stringify(l)).join("\n"));
    const result = await runCli(["monitor", "spans.jsonl"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("export its log records into the same file");
  });

  it("a malformed span is skipped with its line and counted; the rest of the file is read", async () => {
    const dir = tempDir();
    const all = lines("openinference-openai.jsonl");
    const broken = spanOf(all[1]);
    const role = broken.attributes.find(
      (a: { key: string }) => a.key === "llm.input_messages.0.message.role",
    );
    role.value = { stringValue: "narrator" };
    writeFileSync(join(dir, "t.jsonl"), all.map((l) => JSON.stringify(l)).join("\n"));
    const result = await runCli(["monitor", "t.jsonl", "-f", "json"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe(
      'route-eval: warning: t.jsonl:2: resourceSpans[0].scopeSpans[0].spans[0].attributes[llm.input_messages][0].role: expected system, developer, user, assistant or tool, got "narrator"; the span is skipped\n',
    );
    const { traces } = JSON.parse(result.stdout);
    expect([traces.turns, traces.malformed]).toEqual([2, 1]);
  });

  it("a reply held only in output.value (no llm.output_messages) is the reply: its calls, or its text", () => {
    const dir = tempDir();
    const all = lines("openinference-anthropic.jsonl").map((line) => {
      const span = spanOf(line);
      span.attributes = span.attributes.filter(
        (a: { key: string }) => !a.key.startsWith("llm.output_messages."),
      );
      return line;
    });
    writeFileSync(join(dir, "t.jsonl"), all.map((l) => JSON.stringify(l)).join("\n"));
    const calls = read("t.jsonl", dir).turns.map((t) => [t.calls.map((c) => c.name), t.text]);
    expect(calls.sort()).toEqual(
      [
        [["get_weather"], null],
        [[], ANSWER],
        [["get_time"], null],
      ].sort(),
    );
  });

  it("arguments a tracer encoded twice are the object the model wrote", () => {
    const dir = tempDir();
    const [first] = lines("openinference-openai.jsonl");
    const args = spanOf(first).attributes.find(
      (a: { key: string }) =>
        a.key === "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments",
    );
    args.value = { stringValue: JSON.stringify(PARIS) };
    writeFileSync(join(dir, "t.jsonl"), JSON.stringify(first));
    const [turn] = read("t.jsonl", dir).turns;
    expect(turn.calls).toEqual([
      { id: "call_weather_1", name: "get_weather", arguments: PARIS, parsed: { city: "Paris" } },
    ]);
  });
});

describe("shadow over a real export", () => {
  const fake = { ...useFakeServers(), url: "" };

  /** The OpenInference Anthropic export, with the goal carrying an address (and, optionally, no system prompt). */
  function anthropicTrace(dir: string, withSystem: boolean): string {
    const text = readFileSync(join(EXPORTERS, "openinference-anthropic.jsonl"), "utf8")
      .replaceAll(
        "What's the weather in Paris?",
        "What's the weather in Paris? Mail ana@example.com",
      )
      .replaceAll(
        withSystem
          ? "\u0000"
          : '\\"system\\":\\"You are a weather assistant. Answer in one sentence.\\",',
        "",
      );
    writeFileSync(join(dir, "trace.jsonl"), text);
    writeFileSync(
      join(dir, "candidate.yaml"),
      `endpoint: "anthropic:claude-sonnet-4-6"\nbase_url: "${fake.url}"\ncontrols: []\n`,
    );
    return "trace.jsonl";
  }

  it("asks each turn as traced: its system prompt, its forced tool_choice, tool results as tool_result blocks; a turn answering a tool result is not asked; addresses are redacted", async () => {
    const server = await fake.start((request) =>
      anthropicReply([{ name: offeredTools(request.body)[0], input: { city: "Paris" } }]),
    );
    fake.url = server.url;
    const dir = tempDir();
    const trace = anthropicTrace(dir, true);
    const result = await runCli(
      [
        "shadow",
        trace,
        "--config",
        "candidate.yaml",
        "-f",
        "json",
        "--run-id",
        "s",
        "--no-progress",
      ],
      { cwd: dir, env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789" } },
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.turns).toEqual({
      read: 3,
      asked: 2,
      skipped: { "answers a tool result": 1 },
      no_system: 0,
    });
    const sent = server.requests
      .map((r) => ({
        system: r.body.system,
        tool_choice: r.body.tool_choice ?? null,
        messages: (r.body.messages as { role: string; content: unknown }[]).map((m) => [
          m.role,
          m.content,
        ]),
      }))
      .sort((a, b) => a.messages.length - b.messages.length);
    const goal = "What's the weather in Paris? Mail [REDACTED:email]";
    const text = (t: string) => [{ type: "text", text: t }];
    expect(sent).toEqual([
      { system: SYSTEM, tool_choice: null, messages: [["user", text(goal)]] },
      {
        system: SYSTEM,
        tool_choice: { type: "tool", name: "get_time" },
        messages: [
          ["user", text(goal)],
          [
            "assistant",
            [
              {
                type: "tool_use",
                id: "toolu_weather_1",
                name: "get_weather",
                input: { city: "Paris" },
              },
            ],
          ],
          ["user", [{ type: "tool_result", tool_use_id: "toolu_weather_1", content: RESULT }]],
          ["assistant", text(ANSWER)],
          ["user", text(FORCED)],
        ],
      },
    ]);
    expect(readFileSync(join(dir, "reports", "s", "records.jsonl"), "utf8")).not.toContain(
      "ana@example.com",
    );
  });

  it("a turn traced without a system prompt is asked without one, and the report says so; turns without a tool list are not asked", async () => {
    const server = await fake.start((request) =>
      anthropicReply([{ name: offeredTools(request.body)[0], input: { city: "Paris" } }]),
    );
    fake.url = server.url;
    const dir = tempDir();
    const trace = anthropicTrace(dir, false);
    const result = await runCli(
      ["shadow", trace, "--config", "candidate.yaml", "--run-id", "s", "--no-progress"],
      { cwd: dir, env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789" } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.map((r) => "system" in r.body)).toEqual([false, false]);
    expect(result.stdout.replace(/\s+/g, " ")).toContain(
      "2 turns traced no system prompt: asked without one, as production was",
    );
    const spans = await runCli(
      ["shadow", join(EXPORTERS, "otel-openai.jsonl"), "--config", "candidate.yaml"],
      { cwd: dir, env: { ANTHROPIC_API_KEY: "sk-ant-test-0123456789" } },
    );
    expect([spans.code, spans.stderr]).toEqual([
      2,
      "route-eval: no production turn to ask again: the traces hold 3 model calls (3 no tool list traced)\n",
    ]);
  });
});

describe("freeze over real exports", () => {
  const replayed = async (dir: string, command: string) => {
    const args = command.split(" ").slice(1);
    const result = await runCli([...args, "--no-progress", "-f", "json"], dir);
    expect(result.code, result.stderr).toBe(0);
    return Object.fromEntries(
      JSON.parse(result.stdout).cases.map((c: { case_id: string; selections: object }) => [
        c.case_id,
        c.selections,
      ]),
    );
  };

  it("--all over calls on two endpoints (OpenAI and Anthropic, turns answering tool results among them): every call frozen, each endpoint's replies stored, both replays reproduce production", async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, "both.jsonl"),
      ["openinference-openai.jsonl", "openinference-anthropic.jsonl"]
        .map((f) => readFileSync(join(EXPORTERS, f), "utf8"))
        .join(""),
    );
    const frozen = await runCli(
      ["freeze", "both.jsonl", "--all", "--acceptable", "get_weather"],
      dir,
    );
    expect(frozen.code, frozen.stderr).toBe(0);
    const commands = frozen.stdout.trim().split("\n");
    expect(commands.map((c) => c.replace(/^.* --endpoint (\S+) .*$/, "$1"))).toEqual([
      "openai:gpt-4o-mini",
      "anthropic:claude-sonnet-4-6",
    ]);
    // Each endpoint's three turns: the call, the answer after the tool result, the forced call.
    for (const command of commands)
      expect(
        Object.values(await replayed(dir, command)).sort((a, b) =>
          JSON.stringify(a).localeCompare(JSON.stringify(b)),
        ),
      ).toEqual([{ "(no call)": 1 }, { get_time: 1 }, { get_weather: 1 }]);
    // A second freeze rewrites nothing and its replays still hold.
    const again = await runCli(
      ["freeze", "both.jsonl", "--all", "--acceptable", "get_weather"],
      dir,
    );
    expect(again.code, again.stderr).toBe(0);
  });

  it("calls whose trace kept no tool list are refused before anything is written, unless --join gives the tools", async () => {
    const dir = tempDir();
    const trace = join(EXPORTERS, "otel-openai.jsonl");
    const refused = await runCli(["freeze", trace, "--all", "--acceptable", "get_weather"], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^route-eval: all 3 turns carry no list of offered tools \(span [0-9a-f]+ \(.*otel-openai\.jsonl:\d+\), …\): the instrumentation did not record them, and a case without tools can never pass; pass --join REGISTRY to freeze them with that registry's tools\n$/,
    );
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(
      join(dir, "weather.yaml"),
      [
        "snapshot: weather",
        'revision: "1"',
        "tools:",
        "  - {name: get_weather, family: weather, purpose: Current weather for a city., effect: read_only, idempotent: true, open_world: true}",
        "  - {name: get_time, family: weather, purpose: Local time in a city., effect: read_only, idempotent: true, open_world: true}",
        "",
      ].join("\n"),
    );
    const joined = await runCli(
      ["freeze", trace, "--all", "--acceptable", "get_weather", "--join", "weather.yaml"],
      dir,
    );
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stderr).toContain("get_weather; 2 tools offered");
    const selections = await replayed(dir, joined.stdout.trim());
    expect(
      Object.values(selections)
        .map((s) => Object.keys(s as object)[0])
        .sort(),
    ).toEqual(["(no call)", "get_time", "get_weather"]);
  });
});
