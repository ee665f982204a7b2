// Issue 32: a live run as a user starts it — the whole `route-eval run` process, from start-up to
// the report written — against the floor: a process that sends the same number of requests, 32
// at a time over keep-alive node:http, and does nothing else. N = 4,000 single-trial cases at
// concurrency 32 against a local OpenAI-compatible server (a child process) that answers every
// request after 100 ms. Interleaved, median of RUNS. Target: wall ≤ 1.03 × the floor.
// Issue 52 names a second floor, the one a user would write by hand: the same requests sent by the
// official openai SDK from a bare p-limit loop at the same concurrency. Targets against it: whole
// process ≤ 1.03×, CPU per trial ≤ 1.3×. Each process's phases as the server saw them say where
// the time beyond a floor goes: before its first request, in handling the first answers (the
// (c+1)-th request waits for them), after the last answer. The same 4,000 trials asked as 400
// cases × 10 trials (the repeated shape a run usually has) say which of route-eval's costs are per
// case (reading, checking and hashing the cases, discovery) and which per trial.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE, generateTools, measure, measuredScript, median, writeProject } from "./generate.js";

const N = Number(process.env.BENCH_TRIALS ?? 4_000);
const CONCURRENCY = 32;
const DELAY_MS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const REPEAT = 10;
process.env.OPENAI_API_KEY ??= "bench"; // the local server takes any key

// The server keeps when each request arrived and when the last answer left; GET /phases hands
// them over (and forgets them), so each process's phases are measured from outside it.
const SERVER = `
const { createServer } = await import("node:http");
let arrivals = [];
let lastAnswer = 0;
const server = createServer((req, res) => {
  if (req.method === "GET") {
    res.end(JSON.stringify({ first: arrivals[0], refill: arrivals[${CONCURRENCY}], lastAnswer, count: arrivals.length }));
    arrivals = [];
    return;
  }
  arrivals.push(Date.now());
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => setTimeout(() => {
    lastAnswer = Date.now();
    const name = JSON.parse(body).tools?.[0]?.function?.name ?? "no_applicable_tool";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 0, model: "bench", choices: [{ index: 0, finish_reason: "tool_calls",
      message: { role: "assistant", content: null, tool_calls: [{ id: "t", type: "function", function: { name, arguments: "{}" } }] } }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
  }, ${DELAY_MS}));
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;

const server = spawn(process.execPath, ["--input-type=module", "-e", SERVER], {
  stdio: ["ignore", "pipe", "inherit"],
});
const port = await new Promise((resolve) =>
  server.stdout.once("data", (chunk) => resolve(Number(String(chunk).trim()))),
);
const url = `http://127.0.0.1:${port}/v1`;

const dir = mkdtempSync(join(tmpdir(), "route-eval-live-bench-"));
try {
  const tools = generateTools(40);
  const repeated = join(dir, "repeated");
  for (const [where, cases, trials] of [
    [dir, N, 1],
    [repeated, Math.ceil(N / REPEAT), REPEAT],
  ]) {
    writeProject(where, { tools, cases, trials });
    const config = readFileSync(join(where, "route-eval.yaml"), "utf8")
      .replace("endpoint: baseline", `endpoint: "openai:bench"\nbase_url: "${url}"`)
      .replace("concurrency: 8", `concurrency: ${CONCURRENCY}`);
    writeFileSync(join(where, "route-eval.yaml"), config);
  }
  // The floor's body: a request of the same size as the run's (system, goal, ten visible tools and controls).
  const body = JSON.stringify({
    model: "bench",
    messages: [
      { role: "system", content: "You route requests to tools." },
      { role: "user", content: "Please handle this request." },
    ],
    tools: tools.slice(0, 12).map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.purpose, parameters: tool.input_schema },
    })),
  });
  const floor = () =>
    measure({
      code: measuredScript(`
const { Agent, request } = await import("node:http");
const agent = new Agent({ keepAlive: true, maxSockets: ${CONCURRENCY} });
const body = ${JSON.stringify(body)};
let next = 0;
const one = () => new Promise((resolve, reject) => {
  const req = request({ host: "127.0.0.1", port: ${port}, path: "/v1/chat/completions", method: "POST", agent,
    headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
    let text = "";
    res.on("data", (chunk) => (text += chunk));
    res.on("end", () => { JSON.parse(text); resolve(); });
  });
  req.on("error", reject);
  req.end(body);
});
await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => { while (next++ < ${N}) await one(); }));
agent.destroy();`),
      cwd: dir,
    });
  // The SDK floor: the official client, p-limit, the same body, nothing else.
  const sdkFloor = () =>
    measure({
      code: measuredScript(`
const { default: OpenAI } = await import(${JSON.stringify(import.meta.resolve("openai"))});
const { default: pLimit } = await import(${JSON.stringify(import.meta.resolve("p-limit"))});
const client = new OpenAI({ baseURL: ${JSON.stringify(url)}, apiKey: "bench", maxRetries: 0 });
const limit = pLimit(${CONCURRENCY});
const body = ${body};
await Promise.all(Array.from({ length: ${N} }, () => limit(() => client.chat.completions.create(body))));`),
      cwd: dir,
    });
  let i = 0;
  const run = (base = false, cwd = dir) =>
    measure({
      base,
      args: [
        "run",
        "--run-id",
        `live-${i++}`,
        "--mode",
        "live",
        "--no-progress",
        "--no-gates",
        "-f",
        "json",
        "-o",
        join(dir, "out.json"),
      ],
      cwd,
    });
  /** One process measured, with its phases as the server saw them (ms): start to the first request, the first to the (c+1)-th (the first answers' handling), the last answer to the end. */
  const phased = async (measured) => {
    const started = Date.now();
    const result = measured();
    const ended = Date.now();
    const seen = await (await fetch(`http://127.0.0.1:${port}/phases`)).json();
    return {
      ...result,
      phases: [seen.first - started, seen.refill - seen.first, ended - seen.lastAnswer],
    };
  };
  // All interleaved: floor, SDK floor, route-eval, the repeated shape (and BENCH_BASE's route-eval), RUNS times.
  const f = [];
  const s = [];
  const r = [];
  const q = [];
  const b = [];
  for (let k = 0; k < RUNS; k++) {
    f.push(await phased(floor));
    s.push(await phased(sdkFloor));
    r.push(await phased(run));
    q.push(await phased(() => run(false, repeated)));
    if (BASE !== null) b.push(await phased(() => run(true)));
  }
  const phases = (runs) =>
    [0, 1, 2].map((k) => median(runs.map((x) => x.phases[k])).toFixed(0)).join(" / ");
  const fw = median(f.map((x) => x.wall));
  const rw = median(r.map((x) => x.wall));
  console.log(
    `${N.toLocaleString("en")} trials, concurrency ${CONCURRENCY}, server latency ${DELAY_MS} ms (limit ⌈N/c⌉·L = ${Math.ceil(N / CONCURRENCY) * DELAY_MS} ms), whole processes, median of ${RUNS} interleaved:`,
  );
  console.log(
    `  floor (a process sending the requests over a bare keep-alive pool): ${fw.toFixed(0)} ms wall, ${median(f.map((x) => x.cpu)).toFixed(0)} ms CPU`,
  );
  console.log(
    `  route-eval run (start-up, cases, SDK, store, records, report): ${rw.toFixed(0)} ms wall, ${median(r.map((x) => x.cpu)).toFixed(0)} ms CPU, ${median(r.map((x) => x.rss)).toFixed(0)} MB peak RSS`,
  );
  console.log(
    `  ratio: ${(rw / fw).toFixed(3)} (target ≤ 1.03); route-eval's time beyond the floor: ${(rw - fw).toFixed(0)} ms`,
  );
  const sw = median(s.map((x) => x.wall));
  const sc = median(s.map((x) => x.cpu));
  const rc = median(r.map((x) => x.cpu));
  console.log(
    `  SDK floor (the official openai client from a bare p-limit loop, same requests): ${sw.toFixed(0)} ms wall, ${sc.toFixed(0)} ms CPU`,
  );
  console.log(
    `  ratio to the SDK floor: wall ${(rw / sw).toFixed(3)} (target ≤ 1.03), CPU per trial ${(rc / sc).toFixed(3)} (${((rc / N) * 1000).toFixed(0)} vs ${((sc / N) * 1000).toFixed(0)} µs; target ≤ 1.3)`,
  );
  console.log(
    `  as the server saw them, ms — start to the first request / the first to request ${CONCURRENCY + 1} (the first answers handled) / the last answer to the end: route-eval ${phases(r)} · SDK floor ${phases(s)} · floor ${phases(f)}`,
  );
  const qw = median(q.map((x) => x.wall));
  console.log(
    `  the same trials as ${Math.ceil(N / REPEAT).toLocaleString("en")} cases × ${REPEAT} trials: ${qw.toFixed(0)} ms wall (${(qw / sw).toFixed(3)}× the SDK floor), ${median(q.map((x) => x.cpu)).toFixed(0)} ms CPU, phases ${phases(q)} — route-eval's time beyond the SDK floor is ${(rw - sw).toFixed(0)} ms with a case a trial, ${(qw - sw).toFixed(0)} ms with a case every ${REPEAT} trials`,
  );
  if (BASE !== null) {
    const bw = median(b.map((x) => x.wall));
    const bc = median(b.map((x) => x.cpu));
    console.log(
      `  BENCH_BASE's route-eval (${BASE}): ${bw.toFixed(0)} ms wall (${(bw / sw).toFixed(3)}× the SDK floor), ${bc.toFixed(0)} ms CPU (${(bc / sc).toFixed(3)}×), phases ${phases(b)}; this checkout / it: wall ${(rw / bw).toFixed(3)}, CPU ${(rc / bc).toFixed(3)}`,
    );
  }
} finally {
  server.kill();
  if (process.env.KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
