import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createEndpoint } from "../src/trial/create-endpoint.js";
import type { EndpointOutcome, Message } from "../src/types.js";
import {
  anthropicError,
  anthropicReply,
  startFakeServer,
  type FakeHandler,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import { liveConfig, makeRequest, removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const KEY = "sk-ant-test-0123456789";
let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function callOnce(
  handler: FakeHandler,
  overrides: Parameters<typeof liveConfig>[1] = {},
  request = makeRequest(),
): Promise<{ outcome: EndpointOutcome; server: FakeServer }> {
  server = await startFakeServer(handler);
  const config = liveConfig(writeProject(), {
    endpoint: "anthropic:test-model",
    base_url: server.url,
    mode: "live",
    ...overrides,
  });
  const outcome = await createEndpoint(config, { env: { ANTHROPIC_API_KEY: KEY } }).call(request);
  return { outcome, server };
}

function response(outcome: EndpointOutcome) {
  if (!outcome.ok) throw new Error(`expected an answer, got: ${outcome.error}`);
  return outcome.response;
}

describe("anthropic endpoint against a local Messages server", () => {
  it("normalises a tool_use block and sends system, tools, max_tokens and the goal as the last user turn", async () => {
    const { outcome, server } = await callOnce(() =>
      anthropicReply([{ name: "get_order", input: { order_id: "ord_1" } }], "Looking it up."),
    );
    expect(response(outcome)).toMatchObject({
      selected: "get_order",
      arguments: { order_id: "ord_1" },
      arguments_error: null,
      tool_calls: 1,
      text: "Looking it up.",
      usage: { input_tokens: 210, output_tokens: 21 },
      provider_request_id: "req_fake_a",
    });
    const [request] = server.requests;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers.authorization ?? request.headers["x-api-key"]).toContain(KEY);
    expect(request.body).toMatchObject({
      model: "test-model",
      max_tokens: 1024,
      system: "You route.",
    });
    expect(request.body.temperature).toBeUndefined();
    expect(request.body.tools).toEqual([
      {
        name: "get_order",
        description: "Return one order.",
        input_schema: makeRequest().tools[0].input_schema,
      },
      {
        name: "no_applicable_tool",
        description: "Decline.",
        input_schema: { type: "object", properties: {} },
      },
    ]);
    expect(request.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Where is order ord_1?" }] },
    ]);
  });

  it("keeps a text answer as selected null", async () => {
    const { outcome } = await callOnce(() => anthropicReply([], "Which order?"));
    expect(response(outcome)).toMatchObject({
      selected: null,
      tool_calls: 0,
      text: "Which order?",
    });
  });

  it("takes the first of parallel tool_use blocks and counts them", async () => {
    const { outcome } = await callOnce(() =>
      anthropicReply([
        { name: "search_orders", input: { query: "teapot" } },
        { name: "get_order", input: { order_id: "ord_1" } },
      ]),
    );
    expect(response(outcome)).toMatchObject({ selected: "search_orders", tool_calls: 2 });
  });

  it("turns an input that is not an object (or unparseable JSON text) into an argument error", async () => {
    const { outcome } = await callOnce(() =>
      anthropicReply([{ name: "get_order", input: "{order_id: ord_1" }]),
    );
    const answer = response(outcome);
    expect(answer.selected).toBe("get_order");
    expect(answer.arguments).toBeNull();
    expect(answer.arguments_error).toContain('in "{order_id: ord_1"');
  });

  it("keeps a phantom tool under its own name", async () => {
    const { outcome } = await callOnce(() => anthropicReply([{ name: "wire_money", input: {} }]));
    expect(response(outcome).selected).toBe("wire_money");
  });

  it("maps prior turns: tool_use blocks, tool results as tool_result blocks merged with the goal into one user turn", async () => {
    const messages: Message[] = [
      { role: "user", content: "Where is ord_7?" },
      {
        role: "assistant",
        content: "Let me look.",
        tool_calls: [{ id: "c1", name: "get_order", arguments: { order_id: "ord_7" } }],
      },
      { role: "tool", tool_call_id: "c1", name: "get_order", content: '{"status":"delivered"}' },
    ];
    const request = makeRequest({
      messages,
      context: { actor: "customer_42" },
      goal: "Refund it.",
    });
    const { server } = await callOnce(() => anthropicReply([]), {}, request);
    expect(server.requests[0].body.system).toBe(
      'You route.\n\nTrusted context (from the application, not the user):\n{"actor":"customer_42"}',
    );
    expect(server.requests[0].body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Where is ord_7?" }] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Let me look." },
          { type: "tool_use", id: "c1", name: "get_order", input: { order_id: "ord_7" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "c1", content: '{"status":"delivered"}' },
          { type: "text", text: "Refund it." },
        ],
      },
    ]);
  });
});

describe("anthropic endpoint: retries and failures", () => {
  it("honours Retry-After on 429 and retries 529 (overloaded), then succeeds", async () => {
    const { outcome, server } = await callOnce((_, i) =>
      i === 0
        ? anthropicError(429, "rate_limit_error", "slow down", { "retry-after": "1" })
        : i === 1
          ? anthropicError(529, "overloaded_error", "overloaded")
          : anthropicReply([{ name: "get_order", input: {} }]),
    );
    expect(response(outcome).selected).toBe("get_order");
    expect(outcome.retries).toBe(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(950);
  });

  it("retries a 500 then succeeds", async () => {
    const { outcome } = await callOnce((_, i) =>
      i === 0
        ? anthropicError(500, "api_error", "boom")
        : anthropicReply([{ name: "get_order", input: {} }]),
    );
    expect(outcome).toMatchObject({ ok: true, retries: 1 });
  });

  it("times out a hung request and retries it", async () => {
    const { outcome, server } = await callOnce(
      (_, i) => (i === 0 ? { hang: true } : anthropicReply([{ name: "get_order", input: {} }])),
      { timeout_ms: 150 },
    );
    expect(outcome).toMatchObject({ ok: true, retries: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it("stops on 401 naming ANTHROPIC_API_KEY, with the provider's message", async () => {
    const { outcome, server } = await callOnce(() =>
      anthropicError(401, "authentication_error", "invalid x-api-key"),
    );
    expect(outcome).toMatchObject({ ok: false, kind: "fatal" });
    expect(!outcome.ok && outcome.error).toBe(
      "anthropic:test-model answered HTTP 401 (invalid x-api-key): the API key in ANTHROPIC_API_KEY was rejected; set ANTHROPIC_API_KEY to a valid key, or name another variable with --api-key-env",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("stops on 403 naming the model", async () => {
    const { outcome } = await callOnce(() => anthropicError(403, "permission_error", "no access"));
    expect(!outcome.ok && outcome.error).toContain('may not use model "test-model"');
  });
});
