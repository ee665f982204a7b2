/**
 * route-eval freeze (docs/traces.md#freeze): a traced production call becomes a case, a snapshot
 * of exactly the tools it saw and its reply in the store; the printed replay command then
 * reproduces the traced call through the real SDK with no request reaching the local server
 * (asked in cached mode too, which would call on a miss). Name-only tools are joined or marked
 * partial, never given an invented schema; a second freeze changes nothing; redaction removes
 * every planted secret from every file written (grep).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import { useFakeServers, type FakeServer } from "./fixtures/fake-provider.js";

const FIXTURES = new URL("./fixtures/traces/", import.meta.url).pathname;
const fake = useFakeServers();

/** A server that must never be asked: any request gets a 500 (and is recorded). */
async function silentServer(): Promise<FakeServer> {
  return fake.start(() => ({ status: 500, body: { error: { message: "no call was expected" } } }));
}

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => statSync(join(dir, name)).isFile())
    .sort();
}

function records(dir: string): Record<string, any>[] {
  const reports = join(dir, "reports");
  const [run] = readdirSync(reports).filter((name) => name !== "baselines");
  return readFileSync(join(reports, run, "records.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** The printed replay command as CLI arguments (it is one line of plain words and quoted paths). */
function commandArgs(stdout: string): string[] {
  const line = stdout.trim();
  expect(line.startsWith("route-eval run ")).toBe(true);
  return line
    .slice("route-eval ".length)
    .split(" ")
    .map((word) => word.replace(/^'|'$/g, ""));
}

interface Traced {
  file: string;
  span?: string;
  endpoint: string;
  call: string;
  args: Record<string, unknown> | null;
  reply: "as traced" | "synthesized";
}

const FORMATS: Traced[] = [
  {
    file: "otel-genai.jsonl",
    span: "00f067aa0ba902b7",
    endpoint: "openai:gpt-4",
    call: "get_weather",
    args: { location: "Paris" },
    reply: "synthesized",
  },
  {
    file: "openinference.jsonl",
    endpoint: "openai:gpt-4o",
    call: "get_weather",
    args: { location: "San Francisco, CA" },
    reply: "synthesized",
  },
  {
    file: "openai-chat.jsonl",
    endpoint: "openai:gpt-4o",
    call: "get_weather",
    args: { location: "Paris" },
    reply: "as traced",
  },
  {
    file: "openai-responses.jsonl",
    endpoint: "openai-responses:gpt-4o",
    call: "get_current_us_weather",
    args: { us_city: "Toledo" },
    reply: "as traced",
  },
  {
    file: "anthropic.jsonl",
    endpoint: "anthropic:claude-sonnet-4-5",
    call: "get_weather",
    args: { location: "San Francisco, CA" },
    reply: "as traced",
  },
  {
    file: "otel-genai.jsonl",
    span: "AQIDBAUGBwg=",
    endpoint: "openai:gpt-4",
    call: "get_time",
    args: null,
    reply: "synthesized",
  },
];

describe("freeze → run --mode replay reproduces the traced call with no request", () => {
  it.each(FORMATS)("$file $span → $endpoint", async (traced) => {
    const dir = tempDir();
    const server = await silentServer();
    const env = { cwd: dir, env: {} };
    const span = traced.span === undefined ? [] : ["--span", traced.span];
    const frozen = await runCli(
      [
        "freeze",
        join(FIXTURES, traced.file),
        ...span,
        "--acceptable",
        traced.call,
        "--base-url",
        server.url,
      ],
      env,
    );
    expect(frozen.stderr).not.toMatch(/replay selects/);
    expect(frozen.code).toBe(0);
    const args = commandArgs(frozen.stdout);
    expect(args).toContain(traced.endpoint);
    const replay = await runCli([...args, "--run-id", "replay"], env);
    expect(replay.code).toBe(0);
    // Cached mode calls on a miss: nothing is missed.
    const cached = await runCli(
      [...args.map((a) => (a === "replay" ? "cached" : a)), "--run-id", "cached"],
      env,
    );
    expect(cached.code).toBe(0);
    expect(server.requests).toHaveLength(0);
    for (const runId of ["replay", "cached"]) {
      const [record] = readFileSync(join(dir, "reports", runId, "records.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(record.selected).toBe(traced.call);
      expect(record.error).toBeNull();
      if (traced.args === null) expect(record.argument_errors[0]).toMatch(/not valid JSON|parse/i);
      else expect(record.arguments).toEqual(traced.args);
    }
    const caseFile = parse(readFileSync(join(dir, args[args.indexOf("--cases") + 1]), "utf8"));
    expect(caseFile.cases[0].origin.reply).toBe(traced.reply);
    if (traced.args === null)
      expect(caseFile.cases[0].origin.calls[0]).toEqual({
        name: "get_time",
        arguments: '{"tz": "Europe/Paris"',
        arguments_invalid: true,
      });
  });

  it("freezes a step of an agent loop (a call that answers a tool result) with its earlier steps, and replays it with no request", async () => {
    const dir = tempDir();
    const server = await silentServer();
    // The second call of a traced loop: the first call and its result follow the user's message.
    const [pair] = readFileSync(join(FIXTURES, "openai-chat.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const first = pair.response.choices[0].message;
    const step = structuredClone(pair);
    step.request.messages.push(first, {
      role: "tool",
      tool_call_id: "call_1",
      content: '{"temp_c": 9, "sky": "light rain"}',
    });
    step.response.choices[0].message = {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "call_2",
          type: "function",
          function: { name: "get_time", arguments: '{"tz":"Europe/Paris"}' },
        },
      ],
    };
    const trace = join(dir, "loop.jsonl");
    writeFileSync(trace, `${JSON.stringify(step)}\n`);
    const frozen = await runCli(
      ["freeze", trace, "--acceptable", "get_time", "--base-url", server.url],
      { cwd: dir, env: {} },
    );
    expect(frozen.code, frozen.stderr).toBe(0);
    const args = commandArgs(frozen.stdout);
    const [entry] = parse(readFileSync(join(dir, args[args.indexOf("--cases") + 1]), "utf8")).cases;
    expect(entry.goal).toBe("Weather in Paris?");
    expect(entry.messages).toBeUndefined();
    expect(entry.prior_steps).toEqual([
      {
        role: "assistant",
        tool_calls: [{ id: "call_1", name: "get_weather", arguments: { location: "Paris" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"temp_c": 9, "sky": "light rain"}' },
    ]);
    const replay = await runCli([...args, "--run-id", "replay"], { cwd: dir, env: {} });
    expect(replay.code, replay.stderr).toBe(0);
    expect(server.requests).toHaveLength(0);
    const [record] = records(dir);
    expect(record).toMatchObject({
      selected: "get_time",
      arguments: { tz: "Europe/Paris" },
      failed_stage: null,
    });
  });

  it("a second freeze of the same turn writes nothing new, and the run it prints still replays", async () => {
    const dir = tempDir();
    const args = [join(FIXTURES, "openai-chat.jsonl"), "--acceptable", "get_weather"];
    const first = await runCli(["freeze", ...args], dir);
    const before = Object.fromEntries(
      filesUnder(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]),
    );
    const second = await runCli(["freeze", ...args], dir);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toMatch(/case:\s+cases\/frozen\/trace-chatcmpl-abc\.yaml \(unchanged\)/);
    expect(second.stderr).toMatch(/registry: registries\/frozen\/[0-9a-f]{16}\.yaml \(kept\)/);
    const after = Object.fromEntries(
      filesUnder(dir).map((name) => [name, readFileSync(join(dir, name), "utf8")]),
    );
    expect(after).toEqual(before);
  });

  it("a case edited since is kept unless --force", async () => {
    const dir = tempDir();
    const args = [join(FIXTURES, "openai-chat.jsonl")];
    await runCli(["freeze", ...args], dir);
    const file = join(dir, "cases", "frozen", "trace-chatcmpl-abc.yaml");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(/  todo: .*\n/, "    acceptable: [get_weather]\n"),
    );
    const again = await runCli(["freeze", ...args], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      "route-eval: cases/frozen/trace-chatcmpl-abc.yaml exists and differs from this freeze (edited since?); keep it, or pass --force to write it again\n",
    );
  });
});

describe("tools the trace names without a definition", () => {
  it("are listed as partial (no schema invented; lint reports them), or joined by name with --join", async () => {
    const dir = tempDir();
    const partial = await runCli(
      [
        "freeze",
        join(FIXTURES, "otel-genai.jsonl"),
        "--span",
        "0102030405060708",
        "--acceptable",
        "get_time",
      ],
      dir,
    );
    expect(partial.code).toBe(0);
    expect(partial.stderr).toMatch(
      /2 tools known by name alone \(partial\): get_weather, get_time/,
    );
    const [registryFile] = filesUnder(join(dir, "registries", "frozen"));
    const registry = parse(readFileSync(join(dir, "registries", "frozen", registryFile), "utf8"));
    expect(registry.partial).toEqual(["get_weather", "get_time"]);
    expect(
      registry.tools.map((t: Record<string, unknown>) => [t.name, t.purpose, "input_schema" in t]),
    ).toEqual([
      ["get_weather", "get_weather", false],
      ["get_time", "get_time", false],
    ]);
    const lint = await runCli(
      ["lint", "--format", "json", join("registries", "frozen", registryFile)],
      dir,
    );
    const findings = JSON.parse(lint.stdout).findings.filter(
      (f: Record<string, unknown>) => f.rule === "tool-partial",
    );
    expect(findings.map((f: Record<string, unknown>) => [f.tool, f.severity])).toEqual([
      ["get_weather", "warning"],
      ["get_time", "warning"],
    ]);

    writeFileSync(
      join(dir, "known.yaml"),
      [
        "snapshot: known",
        'revision: "1"',
        "tools:",
        "  - {name: get_weather, family: weather, purpose: Current weather for a city., input_schema: {type: object, properties: {location: {type: string}}, required: [location]}, effect: read_only, idempotent: true, open_world: true}",
        "  - {name: get_time, family: clock, purpose: Local time in a time zone., input_schema: {type: object, properties: {tz: {type: string}}, required: [tz]}, effect: read_only, idempotent: true, open_world: false}",
        "",
      ].join("\n"),
    );
    const joined = await runCli(
      [
        "freeze",
        join(FIXTURES, "otel-genai.jsonl"),
        "--span",
        "0102030405060708",
        "--acceptable",
        "get_time",
        "--join",
        "known.yaml",
        "--cases-dir",
        "joined",
      ],
      dir,
    );
    expect(joined.code).toBe(0);
    const written = parse(readFileSync(join(dir, "joined", "trace-0102030405060708.yaml"), "utf8"));
    const joinedRegistry = parse(readFileSync(join(dir, "joined", written.registry), "utf8"));
    expect(joinedRegistry.partial).toBeUndefined();
    expect(
      joinedRegistry.tools.map((t: Record<string, unknown>) => [t.name, t.purpose, t.effect]),
    ).toEqual([
      ["get_weather", "Current weather for a city.", "read_only"],
      ["get_time", "Local time in a time zone.", "read_only"],
    ]);
  });
});

describe("acceptable left to the user", () => {
  it("is a todo: lint reports it, and the printed run refuses the case until it is written", async () => {
    const dir = tempDir();
    const frozen = await runCli(["freeze", join(FIXTURES, "anthropic.jsonl")], dir);
    expect(frozen.code).toBe(0);
    const written = parse(
      readFileSync(join(dir, "cases", "frozen", "trace-msg_01Aq9w938a90dw8q.yaml"), "utf8"),
    );
    expect(written.cases[0].acceptable).toBeUndefined();
    expect(written.cases[0].todo).toBe(
      "name the acceptable tools: the tools any of which would have been right (production called get_weather)",
    );
    const lint = await runCli(
      ["lint", "--format", "json", "cases/frozen/trace-msg_01Aq9w938a90dw8q.yaml"],
      dir,
    );
    expect(
      JSON.parse(lint.stdout)
        .findings.filter((f: Record<string, unknown>) => f.rule === "case-todo")
        .map((f: Record<string, unknown>) => f.severity),
    ).toEqual(["error"]);
    const run = await runCli(commandArgs(frozen.stdout), dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `route-eval: cases/frozen/trace-msg_01Aq9w938a90dw8q.yaml:6: case "trace-msg_01Aq9w938a90dw8q" is not written yet: ${written.cases[0].todo}; write its acceptable tools and remove todo: (route-eval lint lists every case left)\n`,
    );
  });
});

describe("redaction", () => {
  const SECRETS = [
    "ops@acme-corp.com",
    "sk-proj-abcdefghijklmnop1234",
    "+1 415 555 0132",
    "boss@acme-corp.com",
    "jane.doe@example.org",
    "(415) 555-0199",
    "ACCT-123456",
    "AKIAABCDEFGHIJKLMNOP",
  ];
  it("removes every planted secret from every file written, and the case records what it removed", async () => {
    const dir = tempDir();
    const pair = {
      metadata: { tenant: "ops@acme-corp.com" },
      request: {
        model: "gpt-4o",
        messages: [
          { role: "system", content: "Escalations go to ops@acme-corp.com." },
          { role: "user", content: "Earlier: my key is sk-proj-abcdefghijklmnop1234" },
          { role: "assistant", content: "Noted; we will call +1 415 555 0132." },
          {
            role: "user",
            content:
              "Update account ACCT-123456 with email jane.doe@example.org, aws AKIAABCDEFGHIJKLMNOP",
          },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "update_contact",
              description: "Update a contact; escalate to boss@acme-corp.com.",
              parameters: {
                type: "object",
                properties: { email: { type: "string" }, account: { type: "string" } },
              },
            },
          },
        ],
      },
      response: {
        id: "chatcmpl-secret",
        object: "chat.completion",
        created: 1764000000,
        model: "gpt-4o",
        choices: [
          {
            index: 0,
            finish_reason: "tool_calls",
            message: {
              role: "assistant",
              content: "Call (415) 555-0199 if it fails.",
              tool_calls: [
                {
                  id: "call_s",
                  type: "function",
                  function: {
                    name: "update_contact",
                    arguments: '{"email":"jane.doe@example.org","account":"ACCT-123456"}',
                  },
                },
              ],
            },
          },
        ],
      },
    };
    writeFileSync(join(dir, "secret.jsonl"), `${JSON.stringify(pair)}\n`);
    const frozen = await runCli(
      ["freeze", "secret.jsonl", "--acceptable", "update_contact", "--redact", "ACCT-[0-9]{6}"],
      dir,
    );
    expect(frozen.code).toBe(0);
    const written = filesUnder(dir).filter((name) => name !== "secret.jsonl");
    expect(written.some((name) => name.startsWith(".route-eval/store/"))).toBe(true);
    expect(written.some((name) => name.startsWith("cases/"))).toBe(true);
    expect(written.some((name) => name.startsWith("registries/"))).toBe(true);
    for (const name of written) {
      const text = readFileSync(join(dir, name), "utf8");
      for (const secret of SECRETS)
        expect(text.includes(secret), `${secret} in ${relative(dir, join(dir, name))}`).toBe(false);
    }
    const entry = parse(
      readFileSync(join(dir, "cases", "frozen", "trace-chatcmpl-secret.yaml"), "utf8"),
    ).cases[0];
    // By hand, over the normalised turn and the reply body kept beside it:
    //   email: tenant attribute, system, goal, description, the call's text, its parsed object, the reply body's call = 7
    //   key: sk-proj… (an earlier message), AKIA… (the goal) = 2 · phone: the earlier assistant text, the reply text, the reply body = 3
    //   custom:1 (ACCT-…): goal, the call's text, its parsed object, the reply body's call = 4
    expect(entry.origin.redacted).toEqual({ email: 7, key: 2, phone: 3, "custom:1": 4 });
    expect(entry.goal).toBe(
      "Update account [REDACTED:custom:1] with email [REDACTED:email], aws [REDACTED:key]",
    );
    // The replay still reproduces the (redacted) call.
    const run = await runCli(commandArgs(frozen.stdout), dir);
    expect(run.code).toBe(0);
    expect(records(dir)[0].arguments).toEqual({
      email: "[REDACTED:email]",
      account: "[REDACTED:custom:1]",
    });
  });
});

describe("candidate sets logged per filtering stage", () => {
  it("are kept on the case, in the order the trace gives them", async () => {
    const dir = tempDir();
    const attr = (key: string, value: unknown) => ({
      key,
      value:
        typeof value === "string"
          ? { stringValue: value }
          : { arrayValue: { values: (value as string[]).map((v) => ({ stringValue: v })) } },
    });
    const span = {
      traceId: "0af7651916cd43dd8448eb211c80319c",
      spanId: "00000000000000aa",
      name: "chat gpt-4o",
      startTimeUnixNano: "1764000000000000000",
      attributes: [
        attr("gen_ai.operation.name", "chat"),
        attr("gen_ai.provider.name", "openai"),
        attr("gen_ai.request.model", "gpt-4o"),
        attr("route_eval.candidates.connector", [
          "get_order",
          "cancel_order",
          "refund_order",
          "get_weather",
        ]),
        attr("route_eval.candidates.tenant", ["get_order", "cancel_order", "refund_order"]),
        attr("route_eval.candidates.router", ["get_order", "cancel_order"]),
        attr(
          "gen_ai.input.messages",
          JSON.stringify([
            { role: "user", parts: [{ type: "text", content: "Cancel order ord_9" }] },
          ]),
        ),
        attr(
          "gen_ai.tool.definitions",
          JSON.stringify([
            { type: "function", name: "get_order" },
            { type: "function", name: "cancel_order" },
          ]),
        ),
        attr(
          "gen_ai.output.messages",
          JSON.stringify([
            {
              role: "assistant",
              parts: [
                {
                  type: "tool_call",
                  id: "c1",
                  name: "get_order",
                  arguments: { order_id: "ord_9" },
                },
              ],
            },
          ]),
        ),
      ],
    };
    writeFileSync(
      join(dir, "staged.jsonl"),
      `${JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] })}\n`,
    );
    const frozen = await runCli(["freeze", "staged.jsonl", "--acceptable", "cancel_order"], dir);
    expect(frozen.code).toBe(0);
    const entry = parse(
      readFileSync(join(dir, "cases", "frozen", "trace-00000000000000aa.yaml"), "utf8"),
    ).cases[0];
    expect(entry.origin.stages).toEqual([
      { stage: "connector", tools: ["get_order", "cancel_order", "refund_order", "get_weather"] },
      { stage: "tenant", tools: ["get_order", "cancel_order", "refund_order"] },
      { stage: "router", tools: ["get_order", "cancel_order"] },
    ]);
  });
});
