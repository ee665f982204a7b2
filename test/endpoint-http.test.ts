/**
 * The http endpoint against a local agent service on 127.0.0.1: the protocol's request as the
 * POST body, headers from the environment (never written to a file), and the failure set of the
 * provider endpoints — 429 with Retry-After, 5xx, resets, cut-off bodies, hangs, 401, a 400.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";
import { useFakeServers, type FakeReply, type ReceivedRequest } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);
const fake = useFakeServers();
const TOKEN = "agent-token-0123456789";

/** The agent service's answer: the first ordinary tool it was shown. */
function answer(request: ReceivedRequest): FakeReply {
  const tools = request.body.tools as { name: string }[];
  return {
    body: {
      tool: tools.find((t) => t.name !== "no_applicable_tool")?.name ?? null,
      arguments: {},
      usage: { input_tokens: 42, output_tokens: 3 },
    },
  };
}

async function run(dir: string, url: string, ...extra: string[]) {
  return runCli(
    [
      "run",
      "-e",
      "http:support-agent",
      "--base-url",
      `${url}/route`,
      "--mode",
      "live",
      "--no-progress",
      "--no-gates",
      "--retry-base-ms",
      "1",
      "--timeout-ms",
      "500",
      ...extra,
    ],
    { cwd: dir, env: { AGENT_TOKEN: TOKEN } },
  );
}

/** The project's config (JSON, which is YAML) with the agent's Authorization header read from AGENT_TOKEN. */
function withHeaders(dir: string): void {
  const file = join(dir, "route-eval.yaml");
  writeFileSync(
    file,
    JSON.stringify(
      { ...JSON.parse(readFileSync(file, "utf8")), headers_env: { Authorization: "AGENT_TOKEN" } },
      null,
      2,
    ),
  );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("http endpoint", () => {
  it("POSTs the protocol's request with headers from the environment; the token is in no file", async () => {
    const dir = writeProject();
    withHeaders(dir);
    const server = await fake.start(answer);
    const result = await run(dir, server.url, "--run-id", "ok", "-f", "json");
    expect(result.code, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(6);
    const first = server.requests[0];
    expect(first.path).toBe("/route");
    expect(first.headers.authorization).toBe(TOKEN);
    expect(first.body).toMatchObject({
      protocol: "route-eval-endpoint/1",
      trial: expect.any(Number),
      version: null,
      tool_controls: {},
    });
    expect(Object.keys(first.body.renderings as object)).toEqual(["openai", "anthropic", "mcp"]);
    const report = JSON.parse(result.stdout);
    expect(report.run).toMatchObject({ endpoint: "http", model: "support-agent" });
    for (const file of filesUnder(dir)) expect(readFileSync(file, "utf8")).not.toContain(TOKEN);
  });

  it("retries 429 (Retry-After), 5xx, resets, cut-off bodies and hangs; errors a 400; stops on 401", async () => {
    const dir = writeProject();
    const faults: FakeReply[] = [
      { status: 429, headers: { "retry-after-ms": "5" }, body: { error: "slow down" } },
      { status: 503, body: { error: "unavailable" } },
      { reset: true },
      { cut: { tool: "get_order", arguments: {} } },
      { hang: true },
    ];
    const server = await fake.start((request, i) =>
      i < faults.length ? faults[i] : answer(request),
    );
    const result = await run(
      dir,
      server.url,
      "--concurrency",
      "1",
      "--run-id",
      "faults",
      "-f",
      "json",
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.metrics.errored).toBe(0);
    expect(report.metrics.scored).toBe(6);
    expect(server.requests).toHaveLength(6 + faults.length);

    const picky = await fake.start((request) =>
      (request.body.goal as string).includes("teapot")
        ? { status: 400, body: { error: "cannot parse goal" } }
        : answer(request),
    );
    const partly = await run(dir, picky.url, "--run-id", "picky", "-f", "json");
    expect(partly.code, partly.stderr).toBe(3); // errored trials: never a green run
    const errored = JSON.parse(partly.stdout).errored;
    expect(errored).toHaveLength(2);
    expect(errored[0].error).toMatch(
      /^endpoint http at http:\/\/127\.0\.0\.1:\d+\/route answered HTTP 400: \{"error":"cannot parse goal"\} \(case "order-free-text" trial \d\)$/,
    );

    const locked = await fake.start(() => ({ status: 401, body: { error: "who are you" } }));
    const denied = await run(dir, locked.url, "--run-id", "denied");
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain("answered HTTP 401");
    expect(denied.stderr).toContain("check the headers it needs (headers_env)");
  }, 20_000);

  it("errors a trial whose reply does not fit the protocol, and names a header variable that is not set", async () => {
    const dir = writeProject();
    const server = await fake.start(() => ({ body: { tool: "get_order", argumnets: {} } }));
    const result = await run(dir, server.url, "--run-id", "shape", "-f", "json");
    expect(result.code, result.stderr).toBe(3); // errored trials: never a green run
    expect(JSON.parse(result.stdout).errored[0].error).toContain(
      'the response body does not fit route-eval-endpoint/1 (schemas/endpoint-reply.schema.json): unknown key "argumnets" (did you mean "arguments"?',
    );
    withHeaders(dir);
    const missing = await runCli(
      ["run", "-e", "http", "--base-url", `${server.url}/route`, "--no-progress"],
      { cwd: dir, env: {} },
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      "route-eval: headers_env.Authorization: AGENT_TOKEN is not set; export AGENT_TOKEN (its value is the header's)\n",
    );
  });

  it("follows a redirect within the service's origin; one to another origin errors the trial and sends nothing there", async () => {
    const dir = writeProject();
    withHeaders(dir);
    const elsewhere = await fake.start(answer);
    const server = await fake.start((request) =>
      request.path === "/route"
        ? { status: 307, headers: { location: "/v2/route" }, body: {} }
        : request.path === "/v2/route"
          ? answer(request)
          : { status: 404, body: {} },
    );
    const same = await run(dir, server.url, "--run-id", "same", "-f", "json", "--trials", "1");
    expect(same.code, same.stderr).toBeLessThanOrEqual(1);
    expect(JSON.parse(same.stdout).metrics.errored).toBe(0);
    const away = await fake.start(() => ({
      status: 307,
      headers: { location: `${elsewhere.url}/route` },
      body: {},
    }));
    const result = await run(dir, away.url, "--run-id", "away", "-f", "json", "--trials", "1");
    expect(result.code, result.stderr).toBe(3); // errored trials: never a green run
    const report = JSON.parse(result.stdout);
    expect(report.metrics.errored).toBe(report.metrics.trials);
    expect(report.errored[0].error).toContain(
      `redirected to another origin (${elsewhere.url}); not followed — POST to the service's own URL (base_url)`,
    );
    expect(elsewhere.requests).toEqual([]);
  });
});
