// Issue 3: 2,000 trials at concurrency 32 against a local OpenAI-compatible server that answers
// every request after a fixed 100 ms. Wall time vs the limit ⌈N/c⌉·100 ms (target ratio ≤ 1.05),
// and CPU time per trial spent in route-eval (this process; the server runs in a child process).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { loadConfig } from "../dist/config/load-config.js";
import { DEFAULT_SYSTEM_PROMPT } from "../dist/config/load-config.js";
import { leanFetch } from "../dist/endpoint/http-transport.js";
import { runEvaluation } from "../dist/app/run.js";

const N = 2000;
const CONCURRENCY = 32;
const DELAY_MS = 100;
const CASES = 200;
const TRIALS = N / CASES;
const TOOLS = 20;

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
  return new Promise((resolve) => child.stdout.once("data", (data) => resolve({ child, port: Number(String(data).trim()) })));
}

function writeProject(dir) {
  mkdirSync(join(dir, "registries"));
  mkdirSync(join(dir, "cases"));
  const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false };
  const tools = Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${i}`, family: `fam_${i % 4}`, purpose: `Do task number ${i} for the customer.`,
    use_when: [`The user asks for task ${i}.`], avoid_when: [`The user asks for anything but task ${i}.`],
    input_schema: schema, effect: "read_only",
  }));
  writeFileSync(join(dir, "registries", "bench.yaml"), JSON.stringify({ snapshot: "bench", revision: "1", tools }));
  const cases = Array.from({ length: CASES }, (_, i) => ({ id: `case-${i}`, goal: `Please do task ${i % TOOLS} for x_${i}.`, acceptable: [`tool_${i % TOOLS}`] }));
  writeFileSync(join(dir, "cases", "bench.yaml"), JSON.stringify({ registry: "../registries/bench.yaml", cases }));
}

/**
 * The floor: the same number of SDK calls of the same size, at the same concurrency, with no
 * route-eval around them (same SDK, same transport). What route-eval adds is the difference.
 */
async function measureSdkFloor(port) {
  const client = new OpenAI({ apiKey: "bench", baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0, fetch: leanFetch });
  const schema = { type: "object", properties: { id: { type: "string" } }, required: ["id"], additionalProperties: false };
  const tools = Array.from({ length: TOOLS + 3 }, (_, i) => ({ type: "function", function: {
    name: `tool_${i}`, description: `Do task number ${i} for the customer.\nUse when: The user asks for task ${i}.\nAvoid when: The user asks for anything but task ${i}.`, parameters: schema } }));
  const body = { model: "bench-model", messages: [{ role: "system", content: DEFAULT_SYSTEM_PROMPT }, { role: "user", content: "Please do task 3 for x_3." }], tools, temperature: 0, max_tokens: 1024 };
  let next = 0;
  const worker = async () => {
    while (next++ < N) await client.chat.completions.create(body).withResponse();
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

const dir = mkdtempSync(join(tmpdir(), "route-eval-endpoint-bench-"));
writeProject(dir);
const { child, port } = await startServer();
try {
  const floor = await measureSdkFloor(port);
  const config = loadConfig(null, {
    endpoint: "openai:bench-model", base_url: `http://127.0.0.1:${port}/v1`, mode: "live",
    trials: TRIALS, concurrency: CONCURRENCY, store_dir: join(dir, "store"), out_dir: join(dir, "reports"),
  }, dir);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const marks = {};
  const onProgress = (p) => {
    marks.loopStart ??= performance.now();
    if (p.finished) marks.loopEnd = performance.now();
  };
  const { report } = await runEvaluation(config, { env: { OPENAI_API_KEY: "bench" }, onProgress });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (report.metrics.trials !== N || report.metrics.errored !== 0) throw new Error(`expected ${N} clean trials, got ${report.metrics.trials} (${report.metrics.errored} errored)`);
  const limit = Math.ceil(N / CONCURRENCY) * DELAY_MS;
  console.log(`trials: ${N.toLocaleString("en")}, concurrency ${CONCURRENCY}, server latency ${DELAY_MS} ms, ${TOOLS} tools per request`);
  console.log(`wall time: ${wall.toFixed(0)} ms (whole run) = load ${(marks.loopStart - started).toFixed(0)} ms + trials ${(marks.loopEnd - marks.loopStart).toFixed(0)} ms + report ${(performance.now() - marks.loopEnd).toFixed(0)} ms`);
  console.log(`limit ⌈N/c⌉·${DELAY_MS} ms: ${limit} ms`);
  console.log(`ratio: ${(wall / limit).toFixed(3)} (target ≤ 1.05)`);
  console.log(`trial loop alone (no loading, no report): ${((marks.loopEnd - marks.loopStart) / limit).toFixed(3)} of the limit`);
  console.log(`floor, the same SDK calls without route-eval: ${floor.wall.toFixed(0)} ms = ${(floor.wall / limit).toFixed(3)} of the limit`);
  const cpuMs = (used.user + used.system) / 1000;
  console.log(`CPU time of the run: ${cpuMs.toFixed(0)} ms, ${(cpuMs / N).toFixed(2)} ms per trial (all threads: SDK and HTTP included)`);
  console.log(`  of which the SDK calls alone: ${(floor.cpuMs / N).toFixed(2)} ms per call; route-eval's own: ${((cpuMs - floor.cpuMs) / N).toFixed(2)} ms per trial`);
} finally {
  child.kill();
  if (process.env.KEEP_BENCH_DIR) console.log(dir); else rmSync(dir, { recursive: true, force: true });
}
