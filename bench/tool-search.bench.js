// Issue 30: tool search.
// 1. route-eval's client-side search over 10,000 deferred tools (a generated enterprise catalogue):
//    median time of one search (bm25 and regex kinds), target ≤ 1 ms.
// 2. A search-on run's CPU per decision against a search-off run's on the same mock: a local
//    OpenAI-compatible server (a child process, so its CPU is not counted) that searches once when
//    it is offered search_tools, then calls a loaded tool; search off, it calls the first tool.
//    Interleaved, median of 3, at 20 and 100 catalogue tools. Measured twice: live (every call over
//    HTTP to the mock: a client search decision takes two calls, so this is near 2× by construction;
//    printed per call too) and replayed (the same decisions answered by the response store the live
//    run filled: route-eval's own work per decision — the loop, the search, hashing, records).
//    Target: the replayed ratio ≤ 1.3×.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createToolSearcher } from "../dist/discovery/tool-searcher.js";
import { loadConfig } from "../dist/config/load-config.js";
import { runEvaluation } from "../dist/trial/evaluate.js";
import { generateTools, median, seeded } from "./generate.js";

const TOOLS = 10_000;
const QUERIES = 1_000;
const K = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DECISIONS = Number(process.env.BENCH_TRIALS ?? 1_000);
const CASES = 100;

// ── 1. one search over 10,000 deferred tools ─────────────────────────────────────────────────
const tools = generateTools(TOOLS);
const deferred = tools.map((t) => t.name);
const { pick } = seeded(5);
const words = [
  "order",
  "customer",
  "invoice",
  "refund",
  "shipment",
  "ticket",
  "payment",
  "status",
  "history",
  "export",
  "archived",
  "draft",
  "team",
  "approval",
];
const queries = Array.from({ length: QUERIES }, () => [pick(words), pick(words), pick(words)]);
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

async function timeSearches(kind, queryOf) {
  const searcher = createToolSearcher(kind, tools);
  for (const q of queries.slice(0, 100)) await searcher.search(queryOf(q), deferred, K); // warm-up
  const times = [];
  let returned = 0;
  for (const q of queries) {
    const start = process.hrtime.bigint();
    const answer = await searcher.search(queryOf(q), deferred, K);
    times.push(ms(start));
    if ("error" in answer) throw new Error(answer.error);
    returned += answer.returned.length;
  }
  return {
    median: median(times),
    p95: [...times].sort((a, b) => a - b)[Math.floor(QUERIES * 0.95)],
    returned: returned / QUERIES,
  };
}

const bm25 = await timeSearches("bm25", (q) => q.join(" "));
const regex = await timeSearches("regex", (q) => q.join("|"));
console.log(
  `client-side search over ${TOOLS.toLocaleString("en")} deferred tools, ${QUERIES.toLocaleString("en")} queries of 3 words, k = ${K}`,
);
console.log(
  `  bm25:  median ${bm25.median.toFixed(3)} ms, p95 ${bm25.p95.toFixed(3)} ms (${bm25.returned.toFixed(1)} returned)`,
);
console.log(
  `  regex: median ${regex.median.toFixed(3)} ms, p95 ${regex.p95.toFixed(3)} ms (${regex.returned.toFixed(1)} returned; a|b|c stops at the first k matches in registry order)`,
);
console.log(
  `ratio: ${(bm25.median / 1).toFixed(2)} bm25 · ${(regex.median / 1).toFixed(2)} regex (median search / 1 ms target; ≤ 1 passes)`,
);

// ── 2. CPU per decision, search on against off, on one mock ─────────────────────────────────
const SERVER = `
const http = require("node:http");
const reply = (res, model, name, args) => {
  res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_bench" });
  res.end(JSON.stringify({ id: "chatcmpl-bench", object: "chat.completion", created: 0, model,
    choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null,
      tool_calls: [{ id: "call_0", type: "function", function: { name, arguments: JSON.stringify(args) } }] } }],
    usage: { prompt_tokens: 900, completion_tokens: 20, total_tokens: 920 } }));
};
http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const names = body.tools.map((t) => t.function.name);
    const searched = body.messages.some((m) => m.role === "tool");
    const goal = body.messages.filter((m) => m.role === "user").pop().content;
    if (names.includes("search_tools") && !searched) return reply(res, body.model, "search_tools", { query: goal });
    const loaded = names.filter((n) => n !== "search_tools" && n !== "no_applicable_tool");
    reply(res, body.model, loaded[loaded.length - 1] ?? "no_applicable_tool", { id: "x_1" });
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
function writeProject(dir, count) {
  mkdirSync(join(dir, "registries"), { recursive: true });
  mkdirSync(join(dir, "cases"), { recursive: true });
  const registry = generateTools(count, 3).map((t) => ({ ...t, input_schema: schema }));
  writeFileSync(
    join(dir, "registries", "bench.yaml"),
    JSON.stringify({ snapshot: "bench", revision: "1", tools: registry }),
  );
  const cases = Array.from({ length: CASES }, (_, i) => {
    const tool = registry[i % count];
    return { id: `case-${i}`, goal: `${tool.purpose} for x_${i}`, acceptable: [tool.name] };
  });
  writeFileSync(
    join(dir, "cases", "bench.yaml"),
    JSON.stringify({ registry: "../registries/bench.yaml", cases }),
  );
}

let runs = 0;
/** One live run against the mock (filling the store), then the same decisions replayed from it. */
async function run(port, count, search) {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-search-bench-"));
  writeProject(dir, count);
  const measure = async (mode) => {
    const config = loadConfig(
      null,
      {
        endpoint: "openai:bench-model",
        base_url: `http://127.0.0.1:${port}/v1`,
        mode,
        controls: ["no_applicable_tool"],
        trials: DECISIONS / CASES,
        concurrency: 16,
        store_dir: join(dir, "store"),
        out_dir: join(dir, "reports"),
        tool_search: search ? { mode: "client" } : undefined,
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
    if (report.metrics.trials !== DECISIONS || report.metrics.errored !== 0)
      throw new Error(
        `expected ${DECISIONS} clean decisions, got ${report.metrics.trials} (${report.metrics.errored} errored)`,
      );
    const calls = search
      ? report.metrics.tool_search.searches_per_decision.total + DECISIONS
      : DECISIONS;
    return { cpu: (used.user + used.system) / 1000 / DECISIONS, calls: calls / DECISIONS };
  };
  const live = await measure("live");
  const replay = await measure("replay");
  rmSync(dir, { recursive: true, force: true });
  return { live: live.cpu, replay: replay.cpu, calls: live.calls };
}

const { child, port } = await startServer();
try {
  await run(port, 20, false); // warm-up: the SDK loads, the hot paths compile
  await run(port, 20, true);
  for (const count of [20, 100]) {
    const off = [];
    const on = [];
    let calls = 0;
    for (let i = 0; i < RUNS; i++) {
      off.push(await run(port, count, false));
      const searched = await run(port, count, true);
      on.push(searched);
      calls = searched.calls;
    }
    const pickOf = (list, key) => median(list.map((r) => r[key]));
    const [liveOff, liveOn, replayOff, replayOn] = [
      pickOf(off, "live"),
      pickOf(on, "live"),
      pickOf(off, "replay"),
      pickOf(on, "replay"),
    ];
    console.log(
      `${count} catalogue tools, ${DECISIONS.toLocaleString("en")} decisions (median of ${RUNS}, interleaved), CPU per decision:`,
    );
    console.log(
      `  live over HTTP: search off ${liveOff.toFixed(3)} ms (1 call) · client search ${liveOn.toFixed(3)} ms (${calls.toFixed(2)} calls): ${(liveOn / liveOff).toFixed(2)}× per decision, ${(liveOn / calls / liveOff).toFixed(2)}× per call`,
    );
    console.log(
      `  replayed from the store: search off ${replayOff.toFixed(3)} ms · client search ${replayOn.toFixed(3)} ms`,
    );
    console.log(
      `ratio: ${(replayOn / replayOff).toFixed(2)} (replayed, search on / off, CPU per decision; target ≤ 1.3)`,
    );
  }
} finally {
  child.kill();
}
