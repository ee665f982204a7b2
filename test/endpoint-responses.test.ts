/**
 * The openai-responses endpoint and the provider tool controls, through the real SDKs against a
 * local server that speaks each wire format: what the request carries (server logs), what the
 * reply becomes (records), and that a control is part of the content address.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import {
  anthropicReply,
  offeredTools,
  openaiError,
  openaiReply,
  responsesReply,
  useFakeServers,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const ENV = {
  OPENAI_API_KEY: "sk-test-responses-0123456789",
  ANTHROPIC_API_KEY: "sk-ant-test-0123456789",
};

function records(dir: string, runId: string): Record<string, unknown>[] {
  return readFileSync(join(dir, "reports", runId, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

function run(dir: string, url: string, ...extra: string[]) {
  return runCli(
    [
      "run",
      "-e",
      "openai-responses:test-model",
      "--base-url",
      `${url}/v1`,
      "--mode",
      "live",
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--no-gates",
      ...extra,
    ],
    { cwd: dir, env: ENV },
  );
}

describe("openai-responses endpoint", () => {
  it("sends function tools, instructions and input items; reads function_call items, text, usage", async () => {
    const dir = writeProject();
    const server = await fake.start((request) =>
      responsesReply([{ name: offeredTools(request.body)[0], arguments: '{"order_id":"ord_1"}' }]),
    );
    const result = await run(dir, server.url, "--run-id", "calls");
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests.every((r) => r.path === "/v1/responses")).toBe(true);
    const body = server.requests[0].body;
    expect(body).not.toHaveProperty("messages");
    expect(body.model).toBe("test-model");
    expect(typeof body.instructions).toBe("string");
    expect(body.max_output_tokens).toBe(1024);
    expect((body.tools as { type: string; name: string; strict: boolean }[])[0]).toMatchObject({
      type: "function",
      strict: false,
    });
    const input = body.input as { role?: string; content?: string }[];
    expect(input[input.length - 1]).toEqual({ role: "user", content: expect.any(String) });
    const first = records(dir, "calls")[0];
    expect(first).toMatchObject({
      endpoint: "openai-responses",
      model: "test-model",
      tool_calls: 1,
      usage: { input_tokens: 150, output_tokens: 9 },
      provider_request_id: "req_fake_r",
    });
    expect(first.selected).toBe(offeredTools(server.requests[0].body)[0]);
  });

  it("maps prior turns to input items: the assistant's function call and its output", async () => {
    const dir = writeProject();
    const server = await fake.start(() =>
      responsesReply([{ name: "refund_order", arguments: '{"order_id":"ord_7"}' }]),
    );
    expect((await run(dir, server.url, "--run-id", "turns")).code).toBe(0);
    const refund = server.requests.find((r) =>
      JSON.stringify(r.body.input).includes("Refund it please."),
    );
    expect(refund?.body.input).toEqual([
      { role: "user", content: "Where is ord_7?" },
      { role: "assistant", content: "Let me look." },
      {
        type: "function_call",
        call_id: "c1",
        name: "get_order",
        arguments: '{"order_id":"ord_7"}',
      },
      { type: "function_call_output", call_id: "c1", output: '{"status":"delivered"}' },
      { role: "user", content: "Refund it please." },
    ]);
  });

  it("records a text answer as no call, and every call of a reply with several (extra_call_rate)", async () => {
    const dir = writeProject();
    const server = await fake.start((request, i) =>
      i % 2 === 0
        ? responsesReply([], "I cannot help with that.")
        : responsesReply([
            { name: offeredTools(request.body)[0], arguments: "{}" },
            { name: "no_applicable_tool", arguments: '{"reason":"x"}' },
          ]),
    );
    const result = await run(
      dir,
      server.url,
      "--concurrency",
      "1",
      "--run-id",
      "mixed",
      "-f",
      "json",
    );
    expect(result.code, result.stderr).toBe(0);
    const all = records(dir, "mixed");
    const text = all.filter((r) => r.selected === null);
    expect(text.length).toBe(3);
    expect(text[0]).toMatchObject({ response_text: "I cannot help with that.", tool_calls: 0 });
    const several = all.filter((r) => r.tool_calls === 2);
    expect(several).toHaveLength(3);
    expect((several[0].calls as { tool: string }[]).map((c) => c.tool)[1]).toBe(
      "no_applicable_tool",
    );
    expect(JSON.parse(result.stdout).metrics.extra_call_rate).toMatchObject({
      numerator: 3,
      denominator: 6,
    });
  });

  it("retries a 429 and stops the run on a 401, as the Chat Completions path does", async () => {
    const dir = writeProject();
    const server = await fake.start((request, i) =>
      i === 0
        ? openaiError(429, "slow down", { "retry-after-ms": "1" })
        : responsesReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const ok = await run(dir, server.url, "--run-id", "retried");
    expect(ok.code, ok.stderr).toBe(0);
    expect(server.requests).toHaveLength(7);
    const denied = await fake.start(() => openaiError(401, "Incorrect API key provided"));
    const stopped = await run(dir, denied.url, "--run-id", "denied");
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toContain("openai-responses:test-model answered HTTP 401");
    expect(stopped.stderr).not.toContain(ENV.OPENAI_API_KEY);
  });
});

describe("provider tool controls", () => {
  it("appear in the request body of every provider that has them", async () => {
    const dir = writeProject();
    const chat = await fake.start((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const a = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${chat.url}/v1`,
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "--tool-choice",
        "required",
        "--parallel-tool-calls",
        "false",
        "--strict",
        "--run-id",
        "chat",
      ],
      { cwd: dir, env: ENV },
    );
    expect(a.code, a.stderr).toBe(0);
    expect(chat.requests[0].body).toMatchObject({
      tool_choice: "required",
      parallel_tool_calls: false,
    });
    expect(
      (chat.requests[0].body.tools as { function: { strict?: boolean } }[])[0].function.strict,
    ).toBe(true);

    const responses = await fake.start((request) =>
      responsesReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    expect(
      (
        await run(
          dir,
          responses.url,
          "--tool-choice",
          "get_order",
          "--parallel-tool-calls",
          "true",
          "--run-id",
          "resp",
        )
      ).code,
    ).toBe(0);
    expect(responses.requests[0].body).toMatchObject({
      tool_choice: { type: "function", name: "get_order" },
      parallel_tool_calls: true,
    });

    const messages = await fake.start((request) =>
      anthropicReply([{ name: offeredTools(request.body)[0], input: {} }]),
    );
    const c = await runCli(
      [
        "run",
        "-e",
        "anthropic:test-model",
        "--base-url",
        messages.url,
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "--tool-choice",
        "required",
        "--disable-parallel-tool-use",
        "true",
        "--run-id",
        "msgs",
      ],
      { cwd: dir, env: ENV },
    );
    expect(c.code, c.stderr).toBe(0);
    expect(messages.requests[0].body.tool_choice).toEqual({
      type: "any",
      disable_parallel_tool_use: true,
    });
    const pinned = JSON.parse(
      readFileSync(join(dir, "reports", "msgs", "run.json"), "utf8"),
    ).config;
    expect(pinned).toMatchObject({ tool_choice: "required", disable_parallel_tool_use: true });
  });

  it("parallel_tool_calls maps to Anthropic's disable_parallel_tool_use (false → disabled), through the real SDK", async () => {
    const dir = writeProject();
    const messages = await fake.start((request) =>
      anthropicReply([{ name: offeredTools(request.body)[0], input: {} }]),
    );
    const result = await runCli(
      [
        "run",
        "-e",
        "anthropic:test-model",
        "--base-url",
        messages.url,
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "--parallel-tool-calls",
        "false",
        "--trials",
        "1",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(messages.requests.map((r) => r.body.tool_choice)).toEqual(
      messages.requests.map(() => ({ type: "auto", disable_parallel_tool_use: true })),
    );
  });

  it("are an error on an endpoint that has no such control, naming the ones that do", async () => {
    const dir = writeProject();
    const result = await runCli(
      ["run", "-e", "anthropic:test-model", "--strict", "--no-progress"],
      { cwd: dir, env: ENV },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "route-eval: strict: endpoint anthropic has no such control (it applies to openai, openai-responses); remove it or choose one of those endpoints\n",
    );
    const baseline = await runCli(["run", "--tool-choice", "required", "--no-progress"], dir);
    expect(baseline.stderr).toContain("tool_choice: endpoint baseline has no such control");
  });

  it("as a variant, change the content address: the constrained variant asks its own requests", async () => {
    const dir = writeProject();
    const file = join(dir, "route-eval.yaml");
    writeFileSync(
      file,
      stringify({
        ...(parse(readFileSync(file, "utf8")) as object),
        variants: [{ name: "forced", tool_choice: "required" }],
      }),
    );
    const server = await fake.start((request) =>
      openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
    );
    const result = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--no-progress",
        "--run-id",
        "v",
      ],
      { cwd: dir, env: ENV },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(12);
    expect(server.requests.filter((r) => r.body.tool_choice === "required")).toHaveLength(6);
    const hashes = (slug: string) =>
      new Set(
        readFileSync(join(dir, "reports", "v", "variants", slug, "records.jsonl"), "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).request_hash),
      );
    const shared = [...hashes("base")].filter((h) => hashes("forced").has(h));
    expect(shared).toEqual([]);
  });
});
