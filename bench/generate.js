// Shared by the benches: seeded generators of realistic large inputs (registries, cases, projects)
// and a child-process measure that reports wall time, CPU time and peak RSS of one command.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

/** Seeded LCG: every run of a bench generates the same inputs. */
export function seeded(seed) {
  let state = seed;
  const rand = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { rand, pick: (list) => list[Math.floor(rand() * list.length)] };
}

const VERBS = [
  "get",
  "search",
  "list",
  "find",
  "create",
  "update",
  "delete",
  "send",
  "export",
  "sync",
  "archive",
  "refund",
  "approve",
  "assign",
  "merge",
];
const NOUNS = [
  "order",
  "customer",
  "invoice",
  "ticket",
  "product",
  "shipment",
  "payment",
  "user",
  "report",
  "task",
  "project",
  "file",
  "message",
  "contract",
  "lead",
  "account",
  "subscription",
  "coupon",
  "warehouse",
  "vendor",
  "asset",
  "incident",
  "budget",
  "policy",
];
const QUALIFIERS = [
  "",
  "",
  "",
  "",
  "by_email",
  "by_date",
  "for_team",
  "draft",
  "bulk",
  "archived",
  "pending",
];
export const FAMILIES = [
  "sales",
  "support",
  "finance",
  "ops",
  "catalog",
  "people",
  "projects",
  "admin",
];
const WORDS = (
  "record details status history owner amount date region team priority note attachment label summary " +
  "reference approval workflow schedule quota limit balance currency channel template audit export import queue " +
  "deadline milestone comment reviewer tag version revision snapshot backup restore permission role group member " +
  "invite access token secret key certificate domain endpoint webhook event trigger rule condition threshold alert " +
  "metric dashboard chart forecast estimate discount tax shipping carrier parcel label return exchange warranty " +
  "claim dispute chargeback payout transfer deposit withdrawal ledger journal entry period close reconcile"
).split(" ");

/** `n` tools of a plausible enterprise catalogue: overlapping names, families, effects, schemas. */
export function generateTools(n, seed = 7) {
  const { rand, pick } = seeded(seed);
  const sentence = (k) => Array.from({ length: k }, () => pick(WORDS)).join(" ");
  const tools = [];
  const seen = new Set();
  for (let i = 0; tools.length < n; i++) {
    const noun = pick(NOUNS);
    const verb = pick(VERBS);
    const qualifier = pick(QUALIFIERS);
    let name = [verb, noun, qualifier].filter(Boolean).join("_");
    if (seen.has(name)) name = `${name}_${i}`;
    seen.add(name);
    const effect = ["get", "search", "list", "find", "export"].includes(verb)
      ? "read_only"
      : verb === "delete"
        ? "destructive"
        : "mutating";
    const props = {};
    const count = 1 + Math.floor(rand() * 9);
    for (let p = 0; p < count; p++)
      props[`${pick(WORDS)}_${p}`] =
        rand() < 0.2 ? { type: "string" } : { type: "string", pattern: "^[a-z0-9_]+$" };
    if (rand() < 0.1) props.status = { type: "string" };
    if (rand() < 0.1)
      props.address = {
        type: "object",
        properties: { city: { type: "object", properties: { name: { type: "string" } } } },
      };
    tools.push({
      name,
      family: FAMILIES[NOUNS.indexOf(noun) % FAMILIES.length],
      purpose: `${verb} the ${noun} ${qualifier.replace(/_/g, " ")} ${sentence(8)}.`,
      use_when: [`The user asks to ${verb} a ${noun} with ${sentence(5)}.`],
      avoid_when:
        rand() < 0.7 ? [`The request is about ${sentence(4)}; use ${verb}_${pick(NOUNS)}.`] : [],
      input_schema: {
        type: "object",
        properties: props,
        required: Object.keys(props).slice(0, 1),
        additionalProperties: rand() < 0.8 ? false : true,
      },
      effect,
      idempotent: effect === "read_only",
      open_world: rand() < 0.2,
    });
  }
  return tools;
}

/** A registry snapshot in block YAML (what a user's exported catalogue looks like), or JSON. */
export function writeRegistry(file, tools, format = "yaml") {
  if (format === "json") {
    writeFileSync(file, JSON.stringify({ revision: "bench", tools }, null, 2));
    return;
  }
  const scalar = (value) => JSON.stringify(value);
  const lines = ['revision: "bench"', "tools:"];
  for (const t of tools) {
    lines.push(
      `  - name: ${t.name}`,
      `    family: ${t.family}`,
      `    purpose: ${scalar(t.purpose)}`,
      "    use_when:",
    );
    for (const u of t.use_when) lines.push(`      - ${scalar(u)}`);
    lines.push(t.avoid_when.length === 0 ? "    avoid_when: []" : "    avoid_when:");
    for (const a of t.avoid_when) lines.push(`      - ${scalar(a)}`);
    lines.push("    input_schema:", "      type: object", "      properties:");
    for (const [key, value] of Object.entries(t.input_schema.properties))
      lines.push(`        ${key}: ${JSON.stringify(value)}`);
    lines.push(
      `      required: ${JSON.stringify(t.input_schema.required)}`,
      `      additionalProperties: ${t.input_schema.additionalProperties}`,
    );
    lines.push(
      `    effect: ${t.effect}`,
      `    idempotent: ${t.idempotent}`,
      `    open_world: ${t.open_world}`,
    );
  }
  writeFileSync(file, lines.join("\n") + "\n");
}

/**
 * A project: registry, `cases` cases (goals drawn from a target tool's own words, so the retriever
 * has real work: some targets rank in the top k, some do not), and a config with two phases.
 */
export function writeProject(
  dir,
  { tools, cases, k = 10, trials = 1, seed = 11, registryFormat = "yaml" },
) {
  const { rand, pick } = seeded(seed);
  mkdirSync(join(dir, "registries"), { recursive: true });
  mkdirSync(join(dir, "cases"), { recursive: true });
  const registryFile = `registries/bench.${registryFormat}`;
  writeRegistry(join(dir, registryFile), tools, registryFormat);
  const lines = [`registry: ../${registryFile}`, "cases:"];
  for (let i = 0; i < cases; i++) {
    const target = pick(tools);
    const words = target.purpose
      .split(" ")
      .filter((w) => rand() < 0.5)
      .slice(0, 6)
      .join(" ")
      .replace(/[.:]/g, "");
    const phase = rand() < 0.5 ? "desk" : "ops";
    lines.push(
      `  - id: case-${String(i).padStart(5, "0")}`,
      `    goal: ${JSON.stringify(`Please ${words} for ${target.name.split("_")[1]} ${i}`)}`,
      `    phase: ${phase}`,
      `    acceptable: [${target.name}]`,
    );
  }
  writeFileSync(join(dir, "cases", "bench.yaml"), lines.join("\n") + "\n");
  writeFileSync(
    join(dir, "route-eval.yaml"),
    [
      'cases: ["cases/*.yaml"]',
      "phases:",
      `  desk: {families: [${FAMILIES.slice(0, 5).join(", ")}], max_effect: mutating}`,
      "  ops: {max_effect: destructive}",
      "controls: [ask_user, no_applicable_tool]",
      `discovery: {retriever: bm25, k: ${k}}`,
      "endpoint: baseline",
      `trials: ${trials}`,
      "concurrency: 8",
      "",
    ].join("\n"),
  );
}

/**
 * Another built checkout of route-eval to measure beside this one (`BENCH_BASE=/path/to/checkout`,
 * after `npm ci && npm run build` there): the benches that take it print both, interleaved.
 */
export const BASE = process.env.BENCH_BASE ?? null;

/** The CLI module of a checkout (this one, or BASE). */
function cliOf(root) {
  const bundle = new URL("dist/bundle/cli.js", root);
  return (existsSync(bundle) ? bundle : new URL("dist/cli.js", root)).href;
}
const ROOT = new URL("../", import.meta.url);
const CLI = cliOf(ROOT);
/** Runs the CLI in a child exactly as bin/route-eval.js does, and reports its CPU time and peak RSS on exit. */
const driverOf = (cli) => `import(${JSON.stringify(cli)}).then(async ({ main }) => {
  process.exitCode = await main([process.argv[0], "route-eval", ...process.argv.slice(1)]);
  const u = process.resourceUsage();
  process.stderr.write("\\nbench: cpu_ms=" + (u.userCPUTime + u.systemCPUTime) / 1000 + " rss_kb=" + u.maxRSS + "\\n");
});`;
const DRIVER = driverOf(CLI);

/** One measured child: `route-eval ...args` (or `code` as a module, when given) in `cwd`; `base: true` runs BASE's CLI. */
export function measure({ args = [], code = null, cwd, okCodes = [0, 1], base = false }) {
  const script =
    code ?? (base ? driverOf(cliOf(new URL(`file://${BASE.replace(/\/?$/, "/")}`))) : DRIVER);
  const start = process.hrtime.bigint();
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", script, ...args], {
    encoding: "utf8",
    cwd,
    maxBuffer: 1 << 30,
  });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (!okCodes.includes(out.status))
    throw new Error(`bench child failed (${out.status}): ${out.stderr.slice(-2000)}`);
  const cpu = Number(/bench: cpu_ms=([0-9.]+)/.exec(out.stderr)?.[1] ?? NaN);
  const rss = Number(/rss_kb=([0-9]+)/.exec(out.stderr)?.[1] ?? NaN) / 1024;
  return { wall, cpu, rss, stdout: out.stdout, stderr: out.stderr };
}

/** A module body that ends by printing the same cpu/rss line as the CLI driver. */
export function measuredScript(body) {
  return `${body}
const u = process.resourceUsage();
process.stderr.write("\\nbench: cpu_ms=" + (u.userCPUTime + u.systemCPUTime) / 1000 + " rss_kb=" + u.maxRSS + "\\n");`;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `a` and `b` alternately `times` times (this machine is noisy), returns both lists. */
export function interleave(times, a, b) {
  const as = [];
  const bs = [];
  for (let i = 0; i < times; i++) {
    as.push(a());
    bs.push(b());
  }
  return [as, bs];
}

/**
 * A local OpenAI-compatible server for the replay benches: it always calls the first offered tool.
 * Returns its base URL, the request bodies it was sent (as sent, in arrival order) and a close function.
 */
export async function startFirstToolServer() {
  const { createServer } = await import("node:http");
  const bodies = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      bodies.push(body);
      const name = JSON.parse(body).tools?.[0]?.function?.name ?? "no_applicable_tool";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          created: 0,
          model: "bench",
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "t", type: "function", function: { name, arguments: "{}" } }],
              },
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    bodies,
    close: () => server.close(),
  };
}

/** The live run that fills a project's store, in a child process (the server in this one keeps answering). */
export async function fillStore(dir) {
  const { spawn } = await import("node:child_process");
  const bin = new URL("../bin/route-eval.js", import.meta.url).pathname;
  await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, "run", "--run-id", "fill", "--mode", "live", "--no-progress", "--no-gates"],
      {
        cwd: dir,
        env: { ...process.env, OPENAI_API_KEY: "bench" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`fill failed (${code}): ${err.slice(-1000)}`)),
    );
  });
}

/**
 * Generated OTLP traffic (monitor and shadow benches): one ExportTraceServiceRequest per line, a
 * chat span each with OpenTelemetry GenAI attributes as JSON strings (input and output messages,
 * the tool definitions offered), spread over two days of `total` spans; seeded, so every run
 * writes the same spans. `write(file, count)` writes the next `count` of the sequence and returns
 * the file's size; `tools` are the 40 tools the spans offer (sets of 6). With `conversation`
 * ({system, turns, open}), each span is a turn of one of `open` conversations in progress at once
 * (interleaved, as a day of traffic is): it carries `system` as its instructions and the
 * conversation's earlier turns (up to `turns` − 1 of them, a user and an assistant message each).
 */
export function createSpanWriter(total, seed = 31, conversation = null) {
  const { rand, pick } = seeded(seed);

  // 40 tools; each call offers one of 20 sets of 6 (a router's candidate sets), with descriptions and schemas.
  const TOOLS = Array.from({ length: 40 }, (_, i) => ({
    type: "function",
    name: `${pick(["get", "search", "update", "cancel", "refund", "list"])}_${pick(["order", "invoice", "customer", "shipment", "ticket"])}_${i}`,
    description: `Tool ${i}: ${pick(["Look up", "Search", "Change", "Cancel", "Refund", "List"])} one ${pick(["order", "invoice", "customer record", "shipment", "ticket"])} by its id; use when the id is known.`,
    parameters: {
      type: "object",
      properties: { id: { type: "string" }, note: { type: "string" } },
      required: ["id"],
      additionalProperties: false,
    },
  }));
  const SETS = Array.from({ length: 20 }, () =>
    Array.from({ length: 6 }, () => pick(TOOLS)).filter((t, i, all) => all.indexOf(t) === i),
  );
  const SET_JSON = SETS.map((set) => JSON.stringify(set));
  const TENANTS = Array.from({ length: 50 }, (_, i) => `tenant-${i}`);
  const attr = (key, value) => ({
    key,
    value: typeof value === "string" ? { stringValue: value } : { intValue: String(value) },
  });
  /** Span i's input messages: its conversation's earlier turns, then its own request. */
  const inputOf = (i) => {
    const own = [
      {
        role: "user",
        parts: [{ type: "text", content: `Please help with order ord_${i}, it is late` }],
      },
    ];
    if (conversation === null) return own;
    const { turns, open } = conversation;
    const at = Math.floor(i / open) % turns;
    const earlier = Array.from({ length: at }, (_, t) => {
      const before = i - (at - t) * open;
      return [
        {
          role: "user",
          parts: [{ type: "text", content: `Please help with order ord_${before}, it is late` }],
        },
        {
          role: "assistant",
          parts: [{ type: "text", content: `Order ord_${before} ships tomorrow.` }],
        },
      ];
    }).flat();
    return [...earlier, ...own];
  };
  const SYSTEM =
    conversation === null
      ? []
      : [
          attr(
            "gen_ai.system_instructions",
            JSON.stringify([{ type: "text", content: conversation.system }]),
          ),
        ];

  function span(i) {
    const s = Math.floor(rand() * SETS.length);
    const set = SETS[s];
    const r = rand();
    const called =
      r < 0.85 ? pick(set).name : r < 0.9 ? "ask_user" : r < 0.93 ? "phantom_tool" : null;
    const args = rand() < 0.05 ? '{"id": ' : JSON.stringify({ id: `ord_${i}` });
    const output =
      called === null
        ? [
            {
              role: "assistant",
              parts: [
                {
                  type: "text",
                  content: rand() < 0.5 ? "Which order do you mean?" : "I cannot do that.",
                },
              ],
              finish_reason: "stop",
            },
          ]
        : [
            {
              role: "assistant",
              parts: [{ type: "tool_call", id: `call_${i}`, name: called, arguments: args }],
              finish_reason: "tool_calls",
            },
          ];
    const start = BigInt(1764547200 + Math.floor(i * (172800 / total))) * 1_000_000_000n;
    return {
      resourceSpans: [
        {
          resource: {
            attributes: [attr("service.name", "support-agent"), attr("tenant", pick(TENANTS))],
          },
          scopeSpans: [
            {
              scope: { name: "bench" },
              spans: [
                {
                  traceId: (i + 1).toString(16).padStart(32, "0"),
                  spanId: (i + 1).toString(16).padStart(16, "0"),
                  name: "chat gpt-4o",
                  kind: 3,
                  startTimeUnixNano: String(start),
                  endTimeUnixNano: String(start + 900_000_000n),
                  attributes: [
                    attr("gen_ai.operation.name", "chat"),
                    attr("gen_ai.provider.name", "openai"),
                    attr("gen_ai.request.model", "gpt-4o"),
                    attr("gen_ai.usage.input_tokens", 900 + (i % 300)),
                    ...SYSTEM,
                    attr("gen_ai.input.messages", JSON.stringify(inputOf(i))),
                    attr("gen_ai.tool.definitions", SET_JSON[s]),
                    attr("gen_ai.output.messages", JSON.stringify(output)),
                  ],
                },
              ],
            },
          ],
        },
      ],
    };
  }

  /** The first `count` spans of the sequence, one per line. */
  function write(file, count) {
    const fd = openSync(file, "w");
    let chunk = "";
    for (let i = 0; i < count; i++) {
      chunk += `${JSON.stringify(span(i))}\n`;
      if (chunk.length > 1 << 22) {
        writeSync(fd, chunk);
        chunk = "";
      }
    }
    writeSync(fd, chunk);
    closeSync(fd);
    return statSync(file).size;
  }
  return { tools: TOOLS, write };
}
