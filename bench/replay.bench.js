// Issue 32: an offline replay (store hits only) of 20,000 single-decision cases over a 40-tool
// registry — `route-eval run --mode replay`, the whole CLI process — against its floor (issue 52):
// reading the store's packs and parsing each entry, sha256 of each request body as it was sent
// (a replay hashes every canonical request to find its entry), and writing the same records bytes
// the replay wrote. The store is filled first by a live run against a local OpenAI-compatible
// server, which keeps the bodies it was sent; the two are interleaved, median of RUNS. Target: ≤ 2.5×.
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fillStore,
  generateTools,
  interleave,
  measure,
  measuredScript,
  median,
  startFirstToolServer,
  writeProject,
} from "./generate.js";

const CASES = Number(process.env.BENCH_CASES ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const server = await startFirstToolServer();
const url = server.url;

const tools = generateTools(40);
const dir = mkdtempSync(join(tmpdir(), "route-eval-replay-bench-"));
writeProject(dir, { tools, cases: 1 });
const pick = (i) => tools[(i * 7) % tools.length].name;
const lines = ["registry: ../registries/bench.yaml", "cases:"];
for (let i = 0; i < CASES; i++)
  lines.push(
    `  - id: case-${i}`,
    `    goal: "Please handle request ${i} with ${pick(i)}"`,
    "    phase: ops",
    `    acceptable: [${pick(i)}]`,
  );
writeFileSync(join(dir, "cases", "bench.yaml"), `${lines.join("\n")}\n`);
writeFileSync(
  join(dir, "route-eval.yaml"),
  [
    'cases: ["cases/*.yaml"]',
    "phases:",
    "  ops: {max_effect: destructive}",
    "controls: [ask_user, no_applicable_tool]",
    `endpoint: "openai:bench"`,
    `base_url: "${url}"`,
    "trials: 1",
    "concurrency: 16",
    "",
  ].join("\n"),
);

await fillStore(dir);
server.close();
const bodiesFile = join(dir, "bodies.jsonl");
// One write per body: together they are more text than one string can hold.
const fd = openSync(bodiesFile, "w");
for (const body of server.bodies) writeSync(fd, `${body}\n`);
closeSync(fd);
server.bodies.length = 0;

try {
  const packs = join(dir, ".route-eval", "store", "packs");
  // The floor: every pack read and each entry parsed, each request body hashed, then the replay's records written again.
  const floor = (i) =>
    measure({
      code: measuredScript(`
const { readdirSync, readFileSync, writeFileSync } = await import("node:fs");
const { createHash } = await import("node:crypto");
const packs = ${JSON.stringify(packs)};
let n = 0;
for (const name of readdirSync(packs).sort()) {
  for (const line of readFileSync(packs + "/" + name, "utf8").split("\\n")) if (line) { JSON.parse(line.slice(line.indexOf("\\t") + 1)); n++; }
}
// The read of the bodies is timed: the bench prints the floor with it and without it.
const reading = performance.now();
const bodies = readFileSync(${JSON.stringify(bodiesFile)});
process.stderr.write("bench: read_ms=" + (performance.now() - reading) + "\\n");
for (let at = 0, end; (end = bodies.indexOf(10, at)) !== -1; at = end + 1) createHash("sha256").update(bodies.subarray(at, end)).digest("hex");
writeFileSync(${JSON.stringify(join(dir, "floor"))} + ${i} + ".jsonl", readFileSync(${JSON.stringify(join(dir, "reports", "replay-0", "records.jsonl"))}));`),
      cwd: dir,
    });
  const replay = (i) =>
    measure({
      args: [
        "run",
        "--run-id",
        `replay-${i}`,
        "--mode",
        "replay",
        "--no-progress",
        "--no-gates",
        "-f",
        "json",
        "-o",
        join(dir, `r${i}.json`),
      ],
      cwd: dir,
    });
  replay(0); // the records the floor writes again
  let i = 1;
  const [f, r] = interleave(
    RUNS,
    () => floor(i),
    () => replay(i++),
  );
  // The floor as issue 52 measured it (its read of the request bodies included: 0.93 s there), and
  // without that read (a replay builds its requests instead of reading them): the stricter one.
  const readMs = (x) => Number(/bench: read_ms=([0-9.]+)/.exec(x.stderr)[1]);
  const fw = median(f.map((x) => x.wall));
  const bare = median(f.map((x) => x.wall - readMs(x)));
  const rw = median(r.map((x) => x.wall));
  const packBytes = readdirSync(packs).length;
  console.log(
    `${CASES.toLocaleString("en")} decisions replayed from the store (${packBytes} pack${packBytes === 1 ? "" : "s"}), whole CLI process, median of ${RUNS} interleaved:`,
  );
  console.log(
    `  floor (read and parse the packs, read the request bodies as sent and sha256 each, write the same records): ${fw.toFixed(0)} ms wall; without reading the bodies: ${bare.toFixed(0)} ms`,
  );
  console.log(
    `  route-eval run --mode replay: ${rw.toFixed(0)} ms wall, ${median(r.map((x) => x.cpu)).toFixed(0)} ms CPU, ${median(r.map((x) => x.rss)).toFixed(0)} MB peak RSS · ${(CASES / (rw / 1000)).toFixed(0)} decisions/s`,
  );
  console.log(
    `  ratio: ${(rw / fw).toFixed(2)} (target ≤ 2.5); to the floor without its read of the bodies: ${(rw / bare).toFixed(2)}`,
  );
} finally {
  if (process.env.KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
