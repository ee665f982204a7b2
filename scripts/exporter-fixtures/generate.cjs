/**
 * Trace fixtures from the real exporters (issue 47): each scenario runs in its own process with
 * a real instrumentation from npm, drives the real SDK (openai, @anthropic-ai/sdk, ai) through a
 * small agent loop — a tool call, its result, a text answer, then a forced tool_choice — against
 * a local model server, and exports through the real OTLP/HTTP JSON exporter into a local
 * collector. Each export the collector receives is one line of
 * test/fixtures/traces/exporters/<scenario>.jsonl; VERSIONS.json records the packages.
 * Phoenix's span export is derived from the OpenInference spans by Phoenix's own rule
 * (src/phoenix/server/api/routers/v1/spans.py: attributes flattened, openinference.span.kind
 * popped into a top-level span_kind), as GET /v1/projects/{id}/spans returns it.
 *
 *   cd scripts/exporter-fixtures && npm install && node generate.cjs
 *
 * Not run in CI: the tests read the committed fixtures.
 */
"use strict";
const { createServer } = require("node:http");
const { spawn } = require("node:child_process");
const { mkdirSync, writeFileSync, readFileSync } = require("node:fs");
const { join } = require("node:path");

const OUT = join(__dirname, "..", "..", "test", "fixtures", "traces", "exporters");
const SYSTEM = "You are a weather assistant. Answer in one sentence.";
const GOAL = "What's the weather in Paris?";
const RESULT = "light rain, 9C";
const ANSWER = "Light rain and 9C in Paris.";
const FORCED = "And what time is it there?";
const TOOLS = [
  {
    name: "get_weather",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "get_time",
    description: "Local time in a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];

// ── the parent: a model server, a collector, one child per scenario ────────────────────────

const SCENARIOS = [
  "openinference-openai",
  "openinference-anthropic",
  "traceloop-openai",
  "otel-openai",
  "vercel-ai",
  "openinference-langchain",
];

function body(request) {
  return new Promise((resolve) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** OpenAI chat: a tool result last → the answer; a forced tool → that call; else get_weather. */
function chatReply(request) {
  const last = request.messages[request.messages.length - 1];
  const forced = request.tool_choice?.function?.name ?? null;
  const message =
    last.role === "tool"
      ? { role: "assistant", content: ANSWER }
      : {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: forced === null ? "call_weather_1" : "call_time_1",
              type: "function",
              function: { name: forced ?? "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
        };
  return {
    id: "chatcmpl-fixture",
    object: "chat.completion",
    created: 1764892800,
    model: request.model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: message.tool_calls === undefined ? "stop" : "tool_calls",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 },
  };
}

/** Anthropic messages: a tool_result last → the answer; a forced tool → it; else get_weather. */
function messagesReply(request) {
  const last = request.messages[request.messages.length - 1];
  const answered =
    Array.isArray(last.content) && last.content.some((b) => b.type === "tool_result");
  const forced = request.tool_choice?.type === "tool" ? request.tool_choice.name : null;
  const content = answered
    ? [{ type: "text", text: ANSWER }]
    : [
        {
          type: "tool_use",
          id: forced === null ? "toolu_weather_1" : "toolu_time_1",
          name: forced ?? "get_weather",
          input: { city: "Paris" },
        },
      ];
  return {
    id: "msg_fixture",
    type: "message",
    role: "assistant",
    model: request.model,
    content,
    stop_reason: answered ? "end_turn" : "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 120, output_tokens: 12 },
  };
}

async function parent() {
  const exports = new Map(SCENARIOS.map((s) => [s, []]));
  let current = null;
  const model = createServer(async (request, response) => {
    const text = await body(request);
    const json = JSON.parse(text);
    const reply = request.url.endsWith("/chat/completions")
      ? chatReply(json)
      : request.url.endsWith("/messages")
        ? messagesReply(json)
        : null;
    response
      .writeHead(reply === null ? 404 : 200, {
        "content-type": "application/json",
        "x-request-id": "req_fixture",
      })
      .end(JSON.stringify(reply ?? { error: { message: `no route ${request.url}` } }));
  });
  const collector = createServer(async (request, response) => {
    const text = await body(request);
    const signal = request.url.endsWith("/v1/logs") ? "logs" : "traces";
    exports.get(current).push({ signal, body: JSON.parse(text) });
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise((r) => model.listen(0, "127.0.0.1", r));
  await new Promise((r) => collector.listen(0, "127.0.0.1", r));
  const modelUrl = `http://127.0.0.1:${model.address().port}`;
  const collectorUrl = `http://127.0.0.1:${collector.address().port}`;
  mkdirSync(OUT, { recursive: true });
  for (const scenario of SCENARIOS) {
    current = scenario;
    await new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [__filename, scenario], {
        stdio: "inherit",
        env: {
          ...process.env,
          MODEL_URL: modelUrl,
          COLLECTOR_URL: collectorUrl,
          OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: "true",
          TRACELOOP_TRACE_CONTENT: "true",
        },
      });
      child.on("exit", (code) =>
        code === 0 ? resolve() : reject(new Error(`${scenario}: ${code}`)),
      );
    });
    const lines = exports.get(scenario).map((e) => JSON.stringify(e.body));
    writeFileSync(join(OUT, `${scenario}.jsonl`), `${lines.join("\n")}\n`);
    console.log(
      `${scenario}: ${lines.length} exports (${exports
        .get(scenario)
        .map((e) => e.signal)
        .join(", ")})`,
    );
  }
  writePhoenix(exports.get("openinference-openai").concat(exports.get("openinference-anthropic")));
  const pkg = require("./package.json");
  const installed = Object.fromEntries(
    Object.keys(pkg.dependencies).map((name) => [
      name,
      JSON.parse(readFileSync(join(__dirname, "node_modules", name, "package.json"), "utf8"))
        .version,
    ]),
  );
  writeFileSync(
    join(OUT, "VERSIONS.json"),
    `${JSON.stringify({ node: process.version, packages: installed }, null, 2)}\n`,
  );
  model.close();
  collector.close();
}

// ── Phoenix's span export, by Phoenix's rule ───────────────────────────────────────────────

function anyValue(value) {
  if ("stringValue" in value) return value.stringValue;
  if ("intValue" in value) return Number(value.intValue);
  if ("doubleValue" in value) return value.doubleValue;
  if ("boolValue" in value) return value.boolValue;
  if ("arrayValue" in value) return (value.arrayValue.values ?? []).map(anyValue);
  return null;
}

const iso = (nanos) =>
  new Date(Number(BigInt(nanos) / 1000000n)).toISOString().replace("Z", "+00:00");

function writePhoenix(exported) {
  const data = [];
  for (const { signal, body: request } of exported) {
    if (signal !== "traces") continue;
    for (const resource of request.resourceSpans)
      for (const scope of resource.scopeSpans)
        for (const span of scope.spans) {
          // OTLP attributes are already flat (dotted keys); Phoenix pops the span kind.
          const attributes = Object.fromEntries(
            span.attributes.map((kv) => [kv.key, anyValue(kv.value)]),
          );
          const kind = attributes["openinference.span.kind"] ?? "UNKNOWN";
          delete attributes["openinference.span.kind"];
          data.push({
            id: `U3Bhbjo${data.length + 1}`,
            name: span.name,
            context: { trace_id: span.traceId, span_id: span.spanId },
            span_kind: kind,
            parent_id: span.parentSpanId || null,
            start_time: iso(span.startTimeUnixNano),
            end_time: iso(span.endTimeUnixNano),
            status_code: ["UNSET", "OK", "ERROR"][span.status?.code ?? 0],
            status_message: span.status?.message ?? "",
            attributes,
            events: [],
          });
        }
  }
  writeFileSync(
    join(OUT, "phoenix-spans.json"),
    `${JSON.stringify({ data, next_cursor: null }, null, 2)}\n`,
  );
  console.log(`phoenix-spans: ${data.length} spans`);
}

// ── a child: one instrumentation, one SDK, the agent loop ──────────────────────────────────

function tracing() {
  const { NodeTracerProvider } = require("@opentelemetry/sdk-trace-node");
  const { SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");
  const { OTLPTraceExporter } = require("@opentelemetry/exporter-trace-otlp-http");
  const { resourceFromAttributes } = require("@opentelemetry/resources");
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": "weather-agent" }),
    spanProcessors: [
      new SimpleSpanProcessor(
        new OTLPTraceExporter({ url: `${process.env.COLLECTOR_URL}/v1/traces` }),
      ),
    ],
  });
  provider.register();
  return provider;
}

function logging() {
  const { LoggerProvider, SimpleLogRecordProcessor } = require("@opentelemetry/sdk-logs");
  const { OTLPLogExporter } = require("@opentelemetry/exporter-logs-otlp-http");
  const { logs } = require("@opentelemetry/api-logs");
  const provider = new LoggerProvider({
    processors: [
      new SimpleLogRecordProcessor(
        new OTLPLogExporter({ url: `${process.env.COLLECTOR_URL}/v1/logs` }),
      ),
    ],
  });
  logs.setGlobalLoggerProvider(provider);
  return provider;
}

const openaiTools = TOOLS.map((t) => ({ type: "function", function: t }));

async function openaiLoop(OpenAI) {
  const client = new OpenAI({ apiKey: "sk-fixture", baseURL: `${process.env.MODEL_URL}/v1` });
  const messages = [
    { role: "system", content: SYSTEM },
    { role: "user", content: GOAL },
  ];
  const first = await client.chat.completions.create({
    model: "gpt-4o-mini",
    messages,
    tools: openaiTools,
  });
  const call = first.choices[0].message;
  messages.push(call, { role: "tool", tool_call_id: call.tool_calls[0].id, content: RESULT });
  const second = await client.chat.completions.create({
    model: "gpt-4o-mini",
    messages,
    tools: openaiTools,
  });
  messages.push(second.choices[0].message, { role: "user", content: FORCED });
  await client.chat.completions.create({
    model: "gpt-4o-mini",
    messages,
    tools: openaiTools,
    tool_choice: { type: "function", function: { name: "get_time" } },
  });
}

async function anthropicLoop(Anthropic) {
  const client = new Anthropic({ apiKey: "sk-ant-fixture", baseURL: process.env.MODEL_URL });
  const tools = TOOLS.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters,
  }));
  const messages = [{ role: "user", content: GOAL }];
  const ask = (extra = {}) =>
    client.messages.create({
      model: "claude-sonnet-4-6",
      max_tokens: 256,
      system: SYSTEM,
      messages,
      tools,
      ...extra,
    });
  const first = await ask();
  const use = first.content.find((b) => b.type === "tool_use");
  messages.push(
    { role: "assistant", content: first.content },
    { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: RESULT }] },
  );
  const second = await ask();
  messages.push({ role: "assistant", content: second.content }, { role: "user", content: FORCED });
  await ask({ tool_choice: { type: "tool", name: "get_time" } });
}

async function child(scenario) {
  const provider = tracing();
  if (scenario === "openinference-openai") {
    const { OpenAIInstrumentation } = require("@arizeai/openinference-instrumentation-openai");
    const OpenAI = require("openai");
    new OpenAIInstrumentation().manuallyInstrument(OpenAI);
    await openaiLoop(OpenAI.OpenAI ?? OpenAI);
  } else if (scenario === "openinference-anthropic") {
    const {
      AnthropicInstrumentation,
    } = require("@arizeai/openinference-instrumentation-anthropic");
    const Anthropic = require("@anthropic-ai/sdk");
    new AnthropicInstrumentation().manuallyInstrument(Anthropic);
    await anthropicLoop(Anthropic.Anthropic ?? Anthropic.default ?? Anthropic);
  } else if (scenario === "traceloop-openai") {
    const { OpenAIInstrumentation } = require("@traceloop/instrumentation-openai");
    const OpenAI = require("openai");
    const instrumentation = new OpenAIInstrumentation({ traceContent: true });
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument(OpenAI.OpenAI ?? OpenAI);
    await openaiLoop(OpenAI.OpenAI ?? OpenAI);
  } else if (scenario === "otel-openai") {
    const loggers = logging();
    const { registerInstrumentations } = require("@opentelemetry/instrumentation");
    const { OpenAIInstrumentation } = require("@opentelemetry/instrumentation-openai");
    registerInstrumentations({ instrumentations: [new OpenAIInstrumentation()] });
    const OpenAI = require("openai");
    await openaiLoop(OpenAI.OpenAI ?? OpenAI);
    await loggers.forceFlush();
    await loggers.shutdown();
  } else if (scenario === "openinference-langchain") {
    const {
      LangChainInstrumentation,
    } = require("@arizeai/openinference-instrumentation-langchain");
    const callbacks = require("@langchain/core/callbacks/manager");
    new LangChainInstrumentation().manuallyInstrument(callbacks);
    const { ChatOpenAI } = require("@langchain/openai");
    const { HumanMessage, SystemMessage, ToolMessage } = require("@langchain/core/messages");
    const model = new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-fixture",
      configuration: { baseURL: `${process.env.MODEL_URL}/v1` },
    });
    const tools = TOOLS.map((t) => ({ type: "function", function: t }));
    const history = [new SystemMessage(SYSTEM), new HumanMessage(GOAL)];
    const first = await model.bindTools(tools).invoke(history);
    history.push(first, new ToolMessage({ content: RESULT, tool_call_id: first.tool_calls[0].id }));
    const second = await model.bindTools(tools).invoke(history);
    history.push(second, new HumanMessage(FORCED));
    await model.bindTools(tools, { tool_choice: "get_time" }).invoke(history);
  } else if (scenario === "vercel-ai") {
    const { generateText, tool, stepCountIs, jsonSchema } = require("ai");
    const { createOpenAI } = require("@ai-sdk/openai");
    const openai = createOpenAI({ apiKey: "sk-fixture", baseURL: `${process.env.MODEL_URL}/v1` });
    const tools = Object.fromEntries(
      TOOLS.map((t) => [
        t.name,
        tool({
          description: t.description,
          inputSchema: jsonSchema(t.parameters),
          execute: async () => RESULT,
        }),
      ]),
    );
    const telemetry = { isEnabled: true, functionId: "weather-agent" };
    await generateText({
      model: openai.chat("gpt-4o-mini"),
      system: SYSTEM,
      prompt: GOAL,
      tools,
      stopWhen: stepCountIs(2),
      experimental_telemetry: telemetry,
    });
    await generateText({
      model: openai.chat("gpt-4o-mini"),
      system: SYSTEM,
      prompt: FORCED,
      tools,
      toolChoice: { type: "tool", toolName: "get_time" },
      experimental_telemetry: telemetry,
    });
  }
  await provider.forceFlush();
  await provider.shutdown();
}

if (process.argv[2] === undefined)
  parent().catch((e) => {
    console.error(e);
    process.exit(1);
  });
else
  child(process.argv[2]).catch((e) => {
    console.error(e);
    process.exit(1);
  });
