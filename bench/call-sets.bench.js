// Issue 46: call sets and the agent loop. A 1,000-case replay where each decision takes 3 model
// calls (a call, a second call after its result, then a text answer: `calls:` with max_steps 3)
// against today's single-call replay of 1,000 cases (`acceptable:`), both answered by the
// response store a live run against a local OpenAI-compatible mock (a child process) filled.
// Interleaved, median of BENCH_RUNS (3). Prints route-eval's CPU per model call of each and the
// ratio. Target: ≤ 1 (a step costs no more than a single-call decision).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../dist/config/load-config.js";
import { runEvaluation } from "../dist/trial/evaluate.js";
import { generateTools, median } from "./generate.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CASES = Number(process.env.BENCH_CASES ?? 1_000);
const TOOLS = 40;

const SERVER = `
const http = require("node:http");
http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const names = body.tools.map((t) => t.function.name).filter((n) => n !== "no_applicable_tool");
    const step = body.messages.filter((m) => m.role === "assistant").length;
    const message = step < 2
      ? { role: "assistant", content: null, tool_calls: [{ id: "call_0", type: "function",
          function: { name: names[step], arguments: JSON.stringify({ id: "x_" + step }) } }] }
      : { role: "assistant", content: "Done." };
    res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_bench" });
    res.end(JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion", created: 0, model: body.model,
      choices: [{ index: 0, finish_reason: step < 2 ? "tool_calls" : "stop", message }],
      usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } }));
  });
}).listen(0, "127.0.0.1", function () { console.log(this.address().port); });
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

function writeProject(dir, stepped) {
  mkdirSync(join(dir, "registries"), { recursive: true });
  mkdirSync(join(dir, "cases"), { recursive: true });
  const registry = generateTools(TOOLS, 3).map((t) => ({ ...t, input_schema: schema }));
  writeFileSync(
    join(dir, "registries", "bench.yaml"),
    JSON.stringify({ snapshot: "bench", revision: "1", tools: registry }),
  );
  const [first, second] = registry;
  const cases = Array.from({ length: CASES }, (_, i) =>
    stepped
      ? {
          id: `case-${i}`,
          goal: `${first.purpose}, then ${second.purpose}, for x_${i}`,
          calls: [{ tool: first.name }, { tool: second.name }],
          order: "sequence",
          max_steps: 3,
          results: [{ tool: first.name, result: { ok: true, id: `x_${i}` } }],
        }
      : { id: `case-${i}`, goal: `${first.purpose} for x_${i}`, acceptable: [first.name] },
  );
  writeFileSync(
    join(dir, "cases", "bench.yaml"),
    JSON.stringify({ registry: "../registries/bench.yaml", cases }),
  );
}

let runs = 0;
/** A live run against the mock (filling the store), then the same decisions replayed: CPU per model call of the replay. */
async function run(port, stepped) {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-callsets-bench-"));
  writeProject(dir, stepped);
  const measure = async (mode) => {
    const config = loadConfig(
      null,
      {
        endpoint: "openai:bench-model",
        base_url: `http://127.0.0.1:${port}/v1`,
        mode,
        controls: ["no_applicable_tool"],
        trials: 1,
        concurrency: 16,
        store_dir: join(dir, "store"),
        out_dir: join(dir, "reports"),
      },
      dir,
    );
    const cpu = process.cpuUsage();
    const { report } = await runEvaluation(config, {
      env: { OPENAI_API_KEY: "bench" },
      place: { kind: "new", id: `r${runs++}` },
      now: () => new Date(),
    });
    const used = process.cpuUsage(cpu);
    if (report.metrics.trials !== CASES || report.metrics.errored !== 0)
      throw new Error(`expected ${CASES} clean decisions, got ${report.metrics.trials}`);
    const calls = stepped ? report.metrics.call_sets.steps_per_decision.total : CASES;
    if (stepped && calls !== 3 * CASES)
      throw new Error(`expected 3 steps a decision, got ${calls}`);
    return (used.user + used.system) / 1000 / calls;
  };
  await measure("live");
  const replay = await measure("replay");
  rmSync(dir, { recursive: true, force: true });
  return replay;
}

const { child, port } = await startServer();
try {
  await run(port, false); // warm-up
  await run(port, true);
  const single = [];
  const stepped = [];
  for (let i = 0; i < RUNS; i++) {
    single.push(await run(port, false));
    stepped.push(await run(port, true));
  }
  const [one, three] = [median(single), median(stepped)];
  console.log(
    `${CASES.toLocaleString("en")} cases replayed from the store (median of ${RUNS}, interleaved), CPU per model call:`,
  );
  console.log(
    `  single call (acceptable): ${one.toFixed(3)} ms · 3 steps (calls:, max_steps 3): ${three.toFixed(3)} ms`,
  );
  console.log(`ratio: ${(three / one).toFixed(2)} (per model call, 3-step / single; target ≤ 1)`);
} finally {
  child.kill();
}
