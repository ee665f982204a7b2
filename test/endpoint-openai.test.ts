import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEndpoint } from "../src/trial/create-endpoint.js";
import { renderOpenAIRequest } from "../src/endpoint/openai-wire.js";
import type { EndpointOutcome, Message } from "../src/types.js";
import {
  openaiError,
  openaiReply,
  startFakeServer,
  type FakeHandler,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import {
  liveConfig,
  makeRequest,
  makeTempDir,
  removeTempDirs,
  writeProject,
} from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const KEY = "sk-test-openai-0123456789";
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function callOnce(
  handler: FakeHandler,
  overrides: Parameters<typeof liveConfig>[1] = {},
  env: NodeJS.ProcessEnv = { OPENAI_API_KEY: KEY },
): Promise<{ outcome: EndpointOutcome; server: FakeServer }> {
  server = await startFakeServer(handler);
  const dir = writeProject();
  const config = liveConfig(dir, {
    endpoint: "openai:test-model",
    base_url: `${server.url}/v1`,
    mode: "live",
    ...overrides,
  });
  const outcome = await createEndpoint(config, { env }).call(makeRequest({ seed: 7 }));
  return { outcome, server };
}

function response(outcome: EndpointOutcome) {
  if (!outcome.ok) throw new Error(`expected an answer, got: ${outcome.error}`);
  return outcome.response;
}

describe("openai endpoint against a local Chat Completions server", () => {
  it("normalises a tool call: selected, arguments, usage, request id; sends the key, tools and the goal last", async () => {
    const { outcome, server } = await callOnce(() =>
      openaiReply([{ name: "get_order", arguments: '{"order_id":"ord_1"}' }]),
    );
    expect(response(outcome)).toMatchObject({
      selected: "get_order",
      arguments: { order_id: "ord_1" },
      arguments_error: null,
      tool_calls: 1,
      text: null,
      usage: { input_tokens: 120, output_tokens: 12 },
      provider_request_id: "req_fake_1",
    });
    expect(outcome.retries).toBe(0);
    expect(outcome.request_hash).toMatch(/^[0-9a-f]{64}$/);
    const [request] = server.requests;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.body).toMatchObject({
      model: "test-model",
      temperature: 0,
      seed: 7,
      max_tokens: 1024,
    });
    expect(request.body.max_completion_tokens).toBeUndefined();
    expect(request.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "get_order",
          description: "Return one order.",
          parameters: makeRequest().tools[0].input_schema,
        },
      },
      {
        type: "function",
        function: {
          name: "no_applicable_tool",
          description: "Decline.",
          parameters: { type: "object", properties: {} },
        },
      },
    ]);
    expect(request.body.messages).toEqual([
      { role: "system", content: "You route." },
      { role: "user", content: "Where is order ord_1?" },
    ]);
  });

  it("keeps a text answer with no call as selected null", async () => {
    const { outcome } = await callOnce(() => openaiReply([], "Which order do you mean?"));
    expect(response(outcome)).toMatchObject({
      selected: null,
      arguments: null,
      tool_calls: 0,
      text: "Which order do you mean?",
    });
  });

  it("takes the first of parallel calls and counts them all", async () => {
    const calls = [
      { name: "search_orders", arguments: '{"query":"teapot"}' },
      { name: "get_order", arguments: '{"order_id":"ord_1"}' },
    ];
    const { outcome } = await callOnce(() => openaiReply(calls));
    expect(response(outcome)).toMatchObject({
      selected: "search_orders",
      arguments: { query: "teapot" },
      tool_calls: 2,
    });
  });

  it("turns invalid JSON arguments into an argument error, not a crash", async () => {
    const { outcome } = await callOnce(() =>
      openaiReply([{ name: "get_order", arguments: "{order_id: ord_1" }]),
    );
    const answer = response(outcome);
    expect(answer.selected).toBe("get_order");
    expect(answer.arguments).toBeNull();
    expect(answer.arguments_error).toContain('in "{order_id: ord_1"');
  });

  it("rejects arguments that parse to something other than an object", async () => {
    const { outcome } = await callOnce(() =>
      openaiReply([{ name: "get_order", arguments: '["ord_1"]' }]),
    );
    expect(response(outcome).arguments_error).toBe("expected a JSON object, got an array");
  });

  it("keeps a call to a tool that was not offered under its own name (a phantom)", async () => {
    const { outcome } = await callOnce(() =>
      openaiReply([{ name: "delete_everything", arguments: "{}" }]),
    );
    expect(response(outcome)).toMatchObject({ selected: "delete_everything", arguments: {} });
  });

  it("maps prior turns: assistant tool_calls with JSON-string arguments, tool results by tool_call_id, trusted context in the system message", async () => {
    server = await startFakeServer(() => openaiReply([]));
    const config = liveConfig(writeProject(), {
      endpoint: "openai:test-model",
      base_url: `${server.url}/v1`,
      mode: "live",
    });
    const messages: Message[] = [
      { role: "user", content: "Where is ord_7?" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [{ id: "c1", name: "get_order", arguments: { order_id: "ord_7" } }],
      },
      { role: "tool", tool_call_id: "c1", name: "get_order", content: '{"status":"delivered"}' },
      { role: "assistant", content: "It was delivered." },
    ];
    await createEndpoint(config, { env: { OPENAI_API_KEY: KEY } }).call(
      makeRequest({
        messages,
        context: { actor: "customer_42", tier: "gold" },
        goal: "Refund it.",
      }),
    );
    expect(server.requests[0].body.messages).toEqual([
      {
        role: "system",
        content:
          'You route.\n\nTrusted context (from the application, not the user):\n{"actor":"customer_42","tier":"gold"}',
      },
      { role: "user", content: "Where is ord_7?" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [
          {
            id: "c1",
            type: "function",
            function: { name: "get_order", arguments: '{"order_id":"ord_7"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: '{"status":"delivered"}' },
      { role: "assistant", content: "It was delivered." },
      { role: "user", content: "Refund it." },
    ]);
  });

  it("asks the official API for max_completion_tokens (reasoning models reject max_tokens)", () => {
    const body = renderOpenAIRequest(makeRequest(), {
      model: "gpt-4.1-mini",
      maxTokens: 300,
      official: true,
    });
    expect(body.max_completion_tokens).toBe(300);
    expect(body.max_tokens).toBeUndefined();
  });
});

describe("openai endpoint: retries and failures", () => {
  it("waits as long as Retry-After says after a 429, then succeeds", async () => {
    const { outcome, server } = await callOnce((_, i) =>
      i === 0
        ? openaiError(429, "slow down", { "retry-after": "1" })
        : openaiReply([{ name: "get_order", arguments: "{}" }]),
    );
    expect(response(outcome).selected).toBe("get_order");
    expect(outcome.retries).toBe(1);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(950);
  });

  it("honours retry-after-ms", async () => {
    const { outcome, server } = await callOnce((_, i) =>
      i === 0
        ? openaiError(429, "slow down", { "retry-after-ms": "200" })
        : openaiReply([{ name: "get_order", arguments: "{}" }]),
    );
    expect(outcome.ok).toBe(true);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(190);
  });

  it("retries a 500 and a dropped connection, then succeeds", async () => {
    const { outcome, server } = await callOnce((_, i) =>
      i === 0
        ? openaiError(500, "boom")
        : i === 1
          ? { reset: true }
          : openaiReply([{ name: "get_order", arguments: "{}" }]),
    );
    expect(response(outcome).selected).toBe("get_order");
    expect(outcome.retries).toBe(2);
    expect(server.requests).toHaveLength(3);
  });

  it("gives up after max_retries and records the trial as errored", async () => {
    const { outcome, server } = await callOnce(() => openaiError(503, "overloaded"), {
      max_retries: 2,
    });
    expect(outcome).toMatchObject({ ok: false, kind: "errored", retries: 2 });
    expect(!outcome.ok && outcome.error).toMatch(
      /^HTTP 503: overloaded \(gave up after 3 attempts in \d+\.\d s\)$/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it("times out a hung request and retries it", async () => {
    const { outcome, server } = await callOnce(
      (_, i) => (i === 0 ? { hang: true } : openaiReply([{ name: "get_order", arguments: "{}" }])),
      { timeout_ms: 150 },
    );
    expect(response(outcome).selected).toBe("get_order");
    expect(outcome.retries).toBe(1);
    expect(server.requests).toHaveLength(2);
  });

  it("reports a request that always hangs as timed out", async () => {
    const { outcome } = await callOnce(() => ({ hang: true }), { timeout_ms: 100, max_retries: 1 });
    expect(outcome).toMatchObject({ ok: false, kind: "errored" });
    expect(!outcome.ok && outcome.error).toMatch(
      /^timed out after 100 ms \(gave up after 2 attempts in \d+\.\d s\)$/,
    );
  });

  // Stopped at once and never retried: a bad key.
  const STOP_AT_ONCE: [string, number, string, string][] = [
    [
      "401, naming the key variable",
      401,
      "Incorrect API key provided",
      "the API key in OPENAI_API_KEY was rejected; set OPENAI_API_KEY to a valid key",
    ],
  ];
  for (const [what, status, message, expected] of STOP_AT_ONCE) {
    it(`stops on ${what}; never retries it`, async () => {
      const { outcome, server } = await callOnce(() => openaiError(status, message));
      expect(outcome).toMatchObject({ ok: false, kind: "fatal" });
      expect(!outcome.ok && outcome.error).toContain(expected);
      expect(server.requests).toHaveLength(1);
    });
  }

  it("errors a 422 for this trial without retrying it (the run stops only when every request is refused alike)", async () => {
    const { outcome, server } = await callOnce(() =>
      openaiError(422, "tools[0].parameters: unsupported"),
    );
    expect(outcome).toMatchObject({ ok: false, kind: "errored" });
    expect(!outcome.ok && outcome.error).toMatch(
      /^the request was rejected \(HTTP 422: tools\[0\]\.parameters: unsupported\)/,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("names the --api-key-env variable when the key came from it", async () => {
    const { outcome } = await callOnce(
      () => openaiError(401, "bad key"),
      { api_key_env: "MY_GATEWAY_KEY" },
      { MY_GATEWAY_KEY: KEY },
    );
    expect(!outcome.ok && outcome.error).toContain("the API key in MY_GATEWAY_KEY was rejected");
  });

  it("stops on 404 pointing at --model and --base-url; a 400 errors that trial, naming the case", async () => {
    const notFound = await callOnce(() => openaiError(404, "model not found"));
    expect(notFound.outcome).toMatchObject({ ok: false, kind: "fatal" });
    expect(!notFound.outcome.ok && notFound.outcome.error).toContain(
      "check --model and --base-url",
    );
    await server?.close();
    const bad = await callOnce(() => openaiError(400, "temperature unsupported"));
    expect(bad.outcome).toMatchObject({ ok: false, kind: "errored" });
    expect(!bad.outcome.ok && bad.outcome.error).toMatch(
      /^the request was rejected \(HTTP 400: temperature unsupported\); check that model "test-model" supports tool calling/,
    );
  });

  it("records a 413 as an errored trial without retrying (it concerns this request only)", async () => {
    const { outcome, server } = await callOnce(() => openaiError(413, "context too long"));
    expect(outcome).toMatchObject({
      ok: false,
      kind: "errored",
      error: "HTTP 413: context too long",
    });
    expect(server.requests).toHaveLength(1);
  });

  it("redacts the key when a server echoes it in an error", async () => {
    const { outcome } = await callOnce(() => openaiError(413, `key ${KEY} is not allowed here`));
    expect(!outcome.ok && outcome.error).toBe("HTTP 413: key [redacted] is not allowed here");
  });
});

describe("openai endpoint: keys", () => {
  it("refuses to start a live run without the key variable, naming it", () => {
    const dir = writeProject();
    const config = liveConfig(dir, { endpoint: "openai:gpt-4.1-mini", mode: "live" });
    expect(() => createEndpoint(config, { env: {} })).toThrow(
      /OPENAI_API_KEY is not set: endpoint openai:gpt-4.1-mini needs an API key/,
    );
  });

  it("in cached mode, stops at the first trial the store lacks, naming the variable (no call is made)", async () => {
    const dir = writeProject();
    const store = makeTempDir("route-eval-store-");
    const config = liveConfig(dir, {
      endpoint: "openai:gpt-4.1-mini",
      mode: "cached",
      store_dir: store,
    });
    const outcome = await createEndpoint(config, { env: {} }).call(makeRequest());
    expect(outcome).toMatchObject({ ok: false, kind: "fatal" });
    expect(!outcome.ok && outcome.error).toMatch(
      /^OPENAI_API_KEY is not set: case "case-1" trial 0 needs a live call/,
    );
  });

  it("takes the model from --model when the endpoint string has none", () => {
    const config = liveConfig(writeProject(), {
      endpoint: "openai",
      model: "qwen3:8b",
      base_url: "http://127.0.0.1:9/v1",
    });
    expect(createEndpoint(config, { env: {} })).toMatchObject({ id: "openai", model: "qwen3:8b" });
    const bare = liveConfig(writeProject(), { endpoint: "openai" });
    expect(() => createEndpoint(bare, { env: {} })).toThrow(
      'endpoint "openai" needs a model: write openai:MODEL or pass --model',
    );
  });
});
