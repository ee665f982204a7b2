/**
 * The one trace reader (src/traces/read-traces.ts): fixtures written from each format's own
 * documentation (test/fixtures/traces: the OTel GenAI spec's example span, a structured-value and
 * base64-id variant, the older event and OpenLLMetry forms, an OpenInference span as Phoenix
 * exports it, and OpenAI Chat, Responses and Anthropic Messages request/response pairs) each
 * normalise to the turn written out here by hand; unknown shapes are one line naming file, line and path.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTraces } from "../src/traces/read-traces.js";
import type { TracedTurn } from "../src/types.js";
import { runCli, tempDir } from "./support/cli.js";

const FIXTURES = new URL("./fixtures/traces/", import.meta.url).pathname;

function read(file: string): TracedTurn[] {
  const turns: TracedTurn[] = [];
  readTraces([file], FIXTURES, (turn) => turns.push(turn));
  return turns;
}

const WEATHER = {
  type: "object",
  properties: { location: { type: "string" } },
  required: ["location"],
};

describe("each format normalises to one turn", () => {
  it("OTel GenAI: the spec's example span (JSON-string attributes, hex ids), and a structured one with base64 ids and name-only tools", () => {
    const [first, second] = read("otel-genai.jsonl");
    expect(first).toEqual({
      source: { file: "otel-genai.jsonl", line: 1, format: "otlp-genai" },
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
      time: "2025-01-01T00:00:00.000Z",
      provider: "openai",
      api: null,
      model: "gpt-4",
      system: null,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [
        { name: "get_weather", description: "Get current weather", input_schema: WEATHER },
        {
          name: "get_time",
          input_schema: { type: "object", properties: { tz: { type: "string" } } },
        },
      ],
      tool_choice: { value: "auto", provenance: "inferred" },
      calls: [
        {
          id: "call_VSPygqKTWdrhaFErNvMV18Yl",
          name: "get_weather",
          arguments: '{"location":"Paris"}',
          parsed: { location: "Paris" },
        },
      ],
      text: null,
      replied: true,
      stages: [],
      attributes: {
        "span.name": "chat gpt-4",
        "service.name": "support-agent",
        tenant: "acme",
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "gpt-4",
        "gen_ai.response.finish_reasons": "tool_calls",
      },
    });
    // kvlist/array AnyValues, base64 ids, the spec's `result` for `response` (and its id's leading space), invalid JSON arguments kept raw.
    expect(second).toMatchObject({
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "0102030405060708",
      system: "You are a weather assistant.",
      messages: [
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          tool_calls: [{ id: "call_1", name: "get_weather", arguments: { location: "Paris" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "rainy, 57°F" },
        { role: "user", content: "And what time is it there?" },
      ],
      tools: [{ name: "get_weather" }, { name: "get_time" }],
      calls: [{ id: "call_2", name: "get_time", arguments: '{"tz": "Europe/Paris"', parsed: null }],
    });
    expect(second.attributes.tenant).toBe("globex");
  });

  it("OTel GenAI older forms: OpenLLMetry's flattened attributes, the gen_ai.content events, the per-message events", () => {
    const turns = read("otel-legacy.json");
    expect(
      turns.map((t) => [
        t.span_id,
        t.system,
        t.messages,
        t.tools.map((tool) => tool.name),
        t.calls.map((c) => [c.name, c.arguments]),
        t.text,
      ]),
    ).toEqual([
      [
        "b7ad6b7169203331",
        "You handle billing.",
        [{ role: "user", content: "Show me invoice inv_42" }],
        ["get_invoice", "refund_invoice"],
        [["get_invoice", '{"invoice_id": "inv_42"}']],
        null,
      ],
      [
        "c8be7c827a314442",
        null,
        [{ role: "user", content: "Refund invoice inv_7 please" }],
        [],
        [],
        "Which invoice do you mean?",
      ],
      [
        "d9cf8d938b425553",
        "You handle billing.",
        [{ role: "user", content: "Refund inv_7" }],
        [],
        [["refund_invoice", '{"invoice_id": "inv_7"}']],
        null,
      ],
    ]);
    expect(turns[0].tools[0]).toEqual({
      name: "get_invoice",
      description: "Return one invoice by its id.",
      input_schema: {
        type: "object",
        properties: { invoice_id: { type: "string" } },
        required: ["invoice_id"],
      },
    });
    expect(turns[0].tools[1]).toEqual({
      name: "refund_invoice",
      description: "Refund an invoice.",
    });
  });

  it("OpenInference: flattened llm.* attributes, 0x ids, tool_choice from the invocation parameters; the TOOL span is skipped", () => {
    const turns: TracedTurn[] = [];
    const counts = readTraces(["openinference.jsonl"], FIXTURES, (t) => turns.push(t));
    expect(counts).toEqual({
      files: 1,
      calls: 2,
      skipped: 1,
      without_content: 0,
      malformed: 0,
      turns: 1,
    });
    expect(turns[0]).toMatchObject({
      source: { format: "span-openinference" },
      trace_id: "6c3b2f5e8a9d4c1b0e7f2a3b4c5d6e7f",
      span_id: "1a2b3c4d5e6f7a8b",
      model: "gpt-4o",
      system: "You are helpful.",
      messages: [{ role: "user", content: "Weather in SF?" }],
      tools: [
        {
          name: "get_weather",
          input_schema: { type: "object", properties: { location: { type: "string" } } },
        },
        { name: "get_time", input_schema: { type: "object" } },
      ],
      tool_choice: { value: "required", provenance: "traced" },
      calls: [
        {
          id: "call_abc123",
          name: "get_weather",
          arguments: '{"location": "San Francisco, CA"}',
          parsed: { location: "San Francisco, CA" },
        },
      ],
    });
  });

  it("provider pairs: Chat Completions, Responses (instructions, flat tools, call_id), Anthropic Messages (input objects, text beside the call)", () => {
    expect(read("openai-chat.jsonl")[0]).toMatchObject({
      source: { format: "openai-chat" },
      api: "openai-chat",
      provider: "openai",
      model: "gpt-4o",
      time: "2025-01-02T09:00:00.000Z",
      tools: [{ name: "get_weather", description: "Get weather" }, { name: "get_time" }],
      tool_choice: { value: "auto", provenance: "traced" },
      calls: [{ id: "call_1", name: "get_weather", arguments: '{"location":"Paris"}' }],
      attributes: { workflow: "weather" },
    });
    expect(read("openai-responses.jsonl")[0]).toMatchObject({
      api: "openai-responses",
      system: "You answer weather questions.",
      tools: [{ name: "get_current_us_weather" }, { name: "get_usa_city_forecast" }],
      tool_choice: { value: "auto", provenance: "traced" },
      calls: [
        {
          id: "call_qCYF1LIA9qAK0Nvp24dMqNUP",
          name: "get_current_us_weather",
          arguments: '{"us_city":"Toledo"}',
        },
      ],
    });
    expect(read("anthropic.jsonl")[0]).toMatchObject({
      api: "anthropic-messages",
      provider: "anthropic",
      system: "You are a helpful assistant.",
      tools: [
        { name: "get_weather", description: "Get current weather", input_schema: WEATHER },
        { name: "get_time", description: "Get local time" },
      ],
      tool_choice: { value: { type: "auto" }, provenance: "traced" },
      calls: [
        {
          id: "toolu_01A09q90qw90lq917835lq9",
          name: "get_weather",
          arguments: '{"location":"San Francisco, CA"}',
          parsed: { location: "San Francisco, CA" },
        },
      ],
      text: "I'll check.",
    });
  });
});

describe("what a reader refuses, in one line", () => {
  const cases: [string, string, RegExp][] = [
    [
      "unknown.jsonl",
      '{"request":{}}\n{"hello":"world"}\n',
      /^route-eval: unknown\.jsonl:1: \(root\): not a trace this reader knows \(keys: request\): expected an OTLP export/,
    ],
    [
      "not-json.jsonl",
      '{"request":{"model":"m","messages":[]},"response":{"choices":[{"message":{"role":"assistant","content":"hi"}}]}}\n{oops\n',
      /^route-eval: not-json\.jsonl:2: not valid JSON \(.*\); a JSON Lines trace holds one JSON value per line\n$/,
    ],
    [
      "bad-role.jsonl",
      '{"request":{"messages":[{"role":"wizard","content":"x"}]},"response":{"choices":[{"message":{"content":"hi"}}]}}\n',
      /^route-eval: bad-role\.jsonl:1: request\.messages\[0\]\.role: expected system, developer, user, assistant or tool, got "wizard"\n$/,
    ],
    [
      "bad-span.jsonl",
      '{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"chat","attributes":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.input.messages","value":{"stringValue":"[{\\"role\\":\\"user\\"}]"}}]}]}]}]}\n',
      /^route-eval: bad-span\.jsonl:1: resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[gen_ai\.input\.messages\]\[0\]\.parts: expected a list of parts\n$/,
    ],
  ];
  it.each(cases)("%s", async (name, text, message) => {
    const dir = tempDir();
    writeFileSync(join(dir, name), text);
    const result = await runCli(["monitor", name], dir);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(message);
    expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it("arguments nested 100,000 deep are an invalid call, frozen and replayed, never a crash", async () => {
    const dir = tempDir();
    const deep = `{"x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const pair = {
      request: {
        model: "gpt-4o",
        messages: [{ role: "user", content: "Weather in Paris?" }],
        tools: [
          { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
        ],
      },
      response: {
        id: "chatcmpl-deep",
        object: "chat.completion",
        created: 0,
        model: "gpt-4o",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "c1", type: "function", function: { name: "get_weather", arguments: deep } },
              ],
            },
          },
        ],
      },
    };
    writeFileSync(join(dir, "deep.jsonl"), `${JSON.stringify(pair)}\n`);
    const frozen = await runCli(["freeze", "deep.jsonl", "--acceptable", "get_weather"], dir);
    expect(frozen.code, frozen.stderr).toBe(0);
    const replay = await runCli(
      [...frozen.stdout.trim().split(" ").slice(1), "--run-id", "deep", "-f", "json"],
      dir,
    );
    expect(replay.code, replay.stderr).toBe(0);
    const [record] = JSON.parse(replay.stdout).cases;
    expect(record.selections).toEqual({ get_weather: 1 });
    const monitor = await runCli(["monitor", "deep.jsonl", "-f", "json"], dir);
    expect(monitor.code, monitor.stderr).toBe(0);
    expect(JSON.parse(monitor.stdout).all.schema_rejection_rate).toMatchObject({
      numerator: 1,
      denominator: 1,
    });
  });

  it("a missing file, and no file at all", async () => {
    const dir = tempDir();
    expect((await runCli(["monitor", "nowhere.jsonl"], dir)).stderr).toBe(
      "route-eval: nowhere.jsonl: trace file not found\n",
    );
    expect((await runCli(["freeze"], dir)).stderr).toMatch(/missing required argument 'traces'/);
  });
});

describe("text from a trace is data", () => {
  it("never drives the terminal or renders as live HTML or Markdown", async () => {
    const dir = tempDir();
    const evil = "get_\u001b[2J\u001b]8;;http://x\u0007order<script>alert(1)</script>";
    const pair = {
      metadata: { tenant: "<img src=x onerror=alert(2)>\u001b[31m" },
      request: {
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        tools: [
          { type: "function", function: { name: evil, description: "**bold** [link](http://x)" } },
        ],
      },
      response: {
        choices: [
          {
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                { id: "c", type: "function", function: { name: evil, arguments: "{}" } },
              ],
            },
          },
        ],
      },
    };
    writeFileSync(join(dir, "evil.jsonl"), `${JSON.stringify(pair)}\n`);
    const terminal = await runCli(["monitor", "evil.jsonl", "--by", "tenant"], dir);
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).not.toMatch(/\u001b|\u0007/);
    const html = await runCli(["monitor", "evil.jsonl", "--by", "tenant", "--format", "html"], dir);
    expect(html.stdout).not.toMatch(/<script>alert|<img src=x/);
    const markdown = await runCli(
      ["monitor", "evil.jsonl", "--by", "tenant", "--format", "markdown"],
      dir,
    );
    expect(markdown.stdout).not.toMatch(/<img src=x|<script>alert/);
  });
});
