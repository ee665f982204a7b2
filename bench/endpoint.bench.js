// Issue 13: the live path at the floor. N = 4,000 trials at concurrency 32 against a local
// OpenAI-compatible server (a child process) that answers every request after 100 ms, through the
// real SDK. The floor is a bare pool of 32 keep-alive node:http requests of the same bodies (no SDK,
// no route-eval), measured in the same process run, interleaved, median of 3.
// Targets: wall ≤ 1.05 × the floor; CPU per trial ≤ 1.3 × the floor's; CPU per trial flat (±10%)
// from 5 to 40 visible tools. BENCH_BASE=<another built checkout> runs its route-eval too, in the same
// rounds (interleaved), and prints both.
import { spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { loadConfig, DEFAULT_SYSTEM_PROMPT } from "../dist/config/load-config.js";
import { createDispatcher, createFetch } from "../dist/endpoint/http-transport.js";
import { runEvaluation } from "../dist/trial/evaluate.js";
import { BASE, median } from "./generate.js";

/** BENCH_BASE's own loadConfig and runEvaluation, when given. */
const before =
  BASE === null
    ? null
    : {
        ...(await import(
          new URL("dist/config/load-config.js", `file://${BASE.replace(/\/?$/, "/")}`).href
        )),
        ...(await import(
          new URL("dist/trial/evaluate.js", `file://${BASE.replace(/\/?$/, "/")}`).href
        )),
      };

/** route-eval's transport as a run without a proxy has it. */
const leanFetch = createFetch(createDispatcher({}));

const N = Number(process.env.BENCH_TRIALS ?? 4000);
const CONCURRENCY = 32;
const DELAY_MS = 100;
const CASES = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const SERVER = `
const http = require("node:http");
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const name = body.tools[0].function.name;
    setTimeout(() => {
      res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_bench" });
      res.end(JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion", created: 0, model: body.model,
        choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null,
          tool_calls: [{ id: "call_0", type: "function", function: { name, arguments: '{"id":"x_1"}' } }] } }],
        usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } }));
    }, ${DELAY_MS});
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

function startServer() {
  const child = spawn(process.execPath, ["-e", SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve) =>
    child.stdout.once("data", (data) => resolve({ child, port: Number(String(data).trim()) })),
  );
}

const schema = {
  type: "object",
  properties: { id: { type: "string" } },
  required: ["id"],
  additionalProperties: false,
};
const toolOf = (i) => ({
  name: `tool_${i}`,
  family: `fam_${i % 4}`,
  purpose: `Do task number ${i} for the customer.`,
  use_when: [`The user asks for task ${i}.`],
  avoid_when: [`The user asks for anything but task ${i}.`],
  input_schema: schema,
  effect: "read_only",
});

/** A project whose every trial shows `tools` ordinary tools (no retriever, no phases). */
function writeProject(dir, tools) {
  mkdirSync(join(dir, "registries"), { recursive: true });
  mkdirSync(join(dir, "cases"), { recursive: true });
  writeFileSync(
    join(dir, "registries", "bench.yaml"),
    JSON.stringify({
      snapshot: "bench",
      revision: "1",
      tools: Array.from({ length: tools }, (_, i) => toolOf(i)),
    }),
  );
  const cases = Array.from({ length: CASES }, (_, i) => ({
    id: `case-${i}`,
    goal: `Please do task ${i % tools} for x_${i}.`,
    acceptable: [`tool_${i % tools}`],
  }));
  writeFileSync(
    join(dir, "cases", "bench.yaml"),
    JSON.stringify({ registry: "../registries/bench.yaml", cases }),
  );
}

/**
 * The floor: the same number of requests with bodies of the same size, 32 at a time, and nothing
 * else — through Node's fetch (the issue's "bare fetch pool"), or through bare node:http (lower still).
 */
async function floor(port, tools, via = "fetch") {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const functions = Array.from({ length: tools + 3 }, (_, i) => ({
    type: "function",
    function: {
      name: `tool_${i}`,
      description: `Do task number ${i} for the customer.\nUse when: The user asks for task ${i}.\nAvoid when: The user asks for anything but task ${i}.`,
      parameters: schema,
    },
  }));
  const bodyObject = (i) => ({
    model: "bench-model",
    messages: [
      { role: "system", content: DEFAULT_SYSTEM_PROMPT },
      { role: "user", content: `Please do task ${i % tools} for x_${i}.` },
    ],
    tools: functions,
    temperature: 0,
  });
  const bodyOf = (i) => JSON.stringify(bodyObject(i));
  const viaFetch = async (i) =>
    (
      await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: bodyOf(i),
      })
    ).json();
  const viaHttp = (i) =>
    new Promise((resolve, reject) => {
      const body = bodyOf(i);
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/v1/chat/completions",
          method: "POST",
          agent,
          headers: { "content-type": "application/json" },
        },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve(JSON.parse(Buffer.concat(chunks).toString("utf8"))));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  // The SDK alone, on route-eval's transport, serialising each body itself: what a plain SDK-based
  // caller pays (route-eval hands the SDK the text its store key was written from instead).
  const client = new OpenAI({
    apiKey: "bench",
    baseURL: `http://127.0.0.1:${port}/v1`,
    maxRetries: 0,
    fetch: leanFetch,
  });
  const viaSdk = async (i) => client.chat.completions.create(bodyObject(i)).withResponse();
  const post = via === "fetch" ? viaFetch : via === "sdk" ? viaSdk : viaHttp;
  let next = 0;
  const worker = async () => {
    while (next < N) await post(next++);
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  agent.destroy();
  return { wall: performance.now() - started, cpuPerTrial: (used.user + used.system) / 1000 / N };
}

let runs = 0;
async function run(port, tools, code = { loadConfig, runEvaluation }) {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-endpoint-bench-"));
  writeProject(dir, tools);
  const config = code.loadConfig(
    null,
    {
      endpoint: "openai:bench-model",
      base_url: `http://127.0.0.1:${port}/v1`,
      mode: "live",
      trials: N / CASES,
      concurrency: CONCURRENCY,
      store_dir: join(dir, "store"),
      out_dir: join(dir, "reports"),
    },
    dir,
  );
  const cpu = process.cpuUsage();
  const started = performance.now();
  const { report } = await code.runEvaluation(config, {
    env: { OPENAI_API_KEY: "bench" },
    place: { kind: "new", id: `r${runs++}` },
    now: () => new Date(),
  });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (report.metrics.trials !== N || report.metrics.errored !== 0)
    throw new Error(
      `expected ${N} clean trials, got ${report.metrics.trials} (${report.metrics.errored} errored)`,
    );
  rmSync(dir, { recursive: true, force: true });
  return { wall, cpuPerTrial: (used.user + used.system) / 1000 / N };
}

const { child, port } = await startServer();
try {
  // Warm-up, not counted: the first run in a process loads the SDK and compiles the hot paths.
  await floor(port, 20);
  await run(port, 20);
  // Every round measures every size — the floor, the SDK alone and route-eval, in turn — so a
  // machine that slows down mid-bench slows every figure alike; each figure is the median of RUNS.
  const SIZES = [5, 20, 40];
  if (before !== null) await run(port, 20, before);
  const samples = new Map(
    SIZES.map((tools) => [tools, { floor: [], sdk: [], ours: [], before: [] }]),
  );
  for (let i = 0; i < RUNS; i++) {
    for (const tools of SIZES) {
      const at = samples.get(tools);
      at.floor.push(await floor(port, tools));
      at.sdk.push(await floor(port, tools, "sdk"));
      at.ours.push(await run(port, tools));
      if (before !== null) at.before.push(await run(port, tools, before));
    }
  }
  const bare = await floor(port, 20, "http");
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const bySize = SIZES.map((tools) => {
    const at = samples.get(tools);
    return {
      tools,
      cpu: pick(at.ours, "cpuPerTrial"),
      wall: pick(at.ours, "wall"),
      floor: pick(at.floor, "cpuPerTrial"),
      floorWall: pick(at.floor, "wall"),
      sdk: pick(at.sdk, "cpuPerTrial"),
    };
  });
  const base = bySize[1];
  console.log(
    `trials: ${N.toLocaleString("en")}, concurrency ${CONCURRENCY}, server latency ${DELAY_MS} ms (limit ⌈N/c⌉·L = ${Math.ceil(N / CONCURRENCY) * DELAY_MS} ms); every figure a median of ${RUNS} interleaved runs`,
  );
  console.log(
    `20 tools — floor (bare fetch pool): ${base.floorWall.toFixed(0)} ms wall, ${base.floor.toFixed(3)} ms CPU per request; ` +
      `bare node:http pool, for scale: ${bare.wall.toFixed(0)} ms, ${bare.cpuPerTrial.toFixed(3)} ms per request; ` +
      `the SDK alone on route-eval's transport: ${base.sdk.toFixed(3)} ms per request`,
  );
  console.log(
    `20 tools — route-eval run (SDK, store, records, report): ${base.wall.toFixed(0)} ms wall, ${base.cpu.toFixed(3)} ms CPU per trial`,
  );
  console.log(
    `ratio: wall ${(base.wall / base.floorWall).toFixed(3)} (target ≤ 1.05) · CPU per trial ${(base.cpu / base.floor).toFixed(2)} (target ≤ 1.3)`,
  );
  if (before !== null) {
    const at = samples.get(20).before;
    const [wall, cpu] = [pick(at, "wall"), pick(at, "cpuPerTrial")];
    console.log(
      `20 tools — BENCH_BASE's route-eval: ${wall.toFixed(0)} ms wall, ${cpu.toFixed(3)} ms CPU per trial; this one over it: wall ${(base.wall / wall).toFixed(3)}, CPU per trial ${(base.cpu / cpu).toFixed(3)}`,
    );
  }
  const departure = (value) =>
    (Math.max(...bySize.map((s) => Math.abs(value(s) / value(base) - 1))) * 100).toFixed(1);
  console.log(
    `CPU per trial by visible tools: ${bySize.map((s) => `${s.tools}: ${s.cpu.toFixed(3)} ms (floor ${s.floor.toFixed(3)}, SDK alone ${s.sdk.toFixed(3)})`).join(" · ")}`,
  );
  console.log(
    `  route-eval's own, over the SDK alone: ${bySize.map((s) => `${s.tools}: ${(s.cpu - s.sdk).toFixed(3)} ms`).join(" · ")}`,
  );
  console.log(
    `  largest departure from 20 tools: ${departure((s) => s.cpu)}% (target ≤ 10%); of route-eval's ratio to the floor at the same size: ${departure((s) => s.cpu / s.floor)}%`,
  );
} finally {
  child.kill();
}
