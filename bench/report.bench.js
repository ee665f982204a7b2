// Issues 13 and 32: `route-eval report` on 100,000 records whose sets differ per record (a randomised run:
// 2,000 cases × 50 trials over a 500-tool registry, four phases, bm25 k=10 with a shuffled order),
// against a bare line-by-line JSON.parse of the same file in the same bench (interleaved, median of 3).
// Targets: wall ≤ 2× the bare parse (issue 32; 3× in issue 13); peak RSS ≤ 2× the bare parse's.
import {
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
  openSync,
  writeSync,
  closeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { interleave, measure, measuredScript, median, seeded } from "./generate.js";
import { classifyRecord } from "../dist/classify/classify-trial.js";

const CASES = 2_000;
const TRIALS = 50;
const TOOLS = 500;
const K = 10;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "route-eval-report-bench-"));
const file = join(dir, "records.jsonl");
const { rand, pick } = seeded(42);

const controls = ["ask_user", "wait_for_event", "no_applicable_tool"];
const tools = Array.from({ length: TOOLS }, (_, i) => `tool_${String(i).padStart(3, "0")}`);
const registry = [...controls, ...tools];
const phases = ["support", "billing", "triage", "admin"];
const exposedOf = Object.fromEntries(
  phases.map((phase, p) => [
    phase,
    [...controls, ...tools.filter((_, i) => (i + p) % (p + 2) !== 0)],
  ]),
);
const id = (names) => createHash("sha256").update(JSON.stringify(names)).digest("hex").slice(0, 16);
const sets = [registry, ...Object.values(exposedOf)].map((names) => ({ id: id(names), names }));
writeFileSync(join(dir, "sets.jsonl"), sets.map((s) => JSON.stringify(s)).join("\n") + "\n");

const fd = openSync(file, "w");
let bytes = 0;
for (let c = 0; c < CASES; c++) {
  const phase = phases[c % 4];
  const exposed = exposedOf[phase];
  const ordinary = exposed.slice(controls.length);
  const expected = c % 97 === 0 ? "missing_tool" : pick(ordinary);
  const forbidden = [pick(tools)].filter((t) => t !== expected);
  const goal = `case ${c}: please handle ${expected} for order ord_${1000 + c} with ${pick(tools)}`;
  for (let trial = 0; trial < TRIALS; trial++) {
    // The retriever's top k + 3 differ per trial (a sampled query rewrite, an embedding jitter).
    const top = [];
    const seen = new Set();
    while (top.length < K + 3) {
      const name =
        rand() < 0.3 && !seen.has(expected) && expected !== "missing_tool"
          ? expected
          : pick(ordinary);
      if (seen.has(name)) continue;
      seen.add(name);
      top.push({
        name,
        rank: top.length + 1,
        score: Math.round((20 - top.length - rand()) * 1e4) / 1e4,
      });
    }
    const kept = top.slice(0, K).map((t) => t.name);
    const visible = [...kept, ...controls].sort(() => rand() - 0.5);
    const rankOf = top.findIndex((t) => t.name === expected);
    const acceptable =
      expected === "missing_tool"
        ? []
        : [
            rankOf >= 0
              ? top[rankOf]
              : { name: expected, rank: K + 4 + Math.floor(rand() * 200), score: 1 },
          ];
    const r = rand();
    const selected =
      r < 0.6
        ? expected
        : r < 0.85
          ? pick(kept)
          : r < 0.92
            ? "no_applicable_tool"
            : r < 0.95
              ? "ask_user"
              : null;
    const record = {
      case_id: `case-${String(c).padStart(4, "0")}`,
      trial,
      goal,
      phase,
      family: `fam-${c % 100}`,
      tags: [c % 2 ? "read" : "write"],
      acceptable: [expected],
      forbidden,
      registry_set: sets[0].id,
      exposed_set: id(exposed),
      visible_order: visible,
      retrieval_k: K,
      retrieval: { candidates: ordinary.length, top, acceptable },
      selected,
      arguments: selected ? { order_id: `ord_${1000 + c}` } : null,
      argument_errors: selected
        ? rand() < 0.9
          ? []
          : ["(root): must have required property 'reason'"]
        : null,
      argument_match: null,
      failed_stage: null,
      selection_error: null,
      violated: false,
      must_see: [],
      must_not_see: [],
      response_text: selected ? null : "I cannot help with that.",
      tool_calls: selected ? 1 : 0,
      usage: { input_tokens: 800 + Math.floor(rand() * 400), output_tokens: 20 },
      latency_ms: Math.floor(200 + rand() * 800),
      endpoint: "openai",
      model: "bench",
      request_hash: createHash("sha256").update(`${c}/${trial}`).digest("hex"),
      error: rand() < 0.01 ? "timeout after 60000 ms" : null,
      provider_request_id: null,
      retries: 0,
      acceptable_positions: visible.flatMap((n, i) => (n === expected ? [i] : [])),
      tools_shuffled: true,
    };
    // Classified as route-eval classifies the trials it records (the report re-checks, and agrees).
    const lists = { registry_names: registry, exposed_names: exposed, retrieved_names: visible };
    const line = JSON.stringify({ ...record, ...classifyRecord({ ...record, ...lists }) });
    bytes += writeSync(fd, line + "\n");
  }
}
closeSync(fd);

const bare = () =>
  measure({
    code: measuredScript(`
const { readFileSync } = await import("node:fs");
let n = 0;
for (const line of readFileSync(${JSON.stringify(file)}, "utf8").split("\\n")) if (line) { JSON.parse(line); n++; }`),
    cwd: dir,
  });
const report = () =>
  measure({
    args: ["report", dir, "--format", "json", "--no-gates", "--output", join(dir, "out.json")],
    cwd: dir,
  });

const [floor, ours] = interleave(runs, bare, report);
const f = {
  wall: median(floor.map((r) => r.wall)),
  rss: median(floor.map((r) => r.rss)),
  cpu: median(floor.map((r) => r.cpu)),
};
const o = {
  wall: median(ours.map((r) => r.wall)),
  rss: median(ours.map((r) => r.rss)),
  cpu: median(ours.map((r) => r.cpu)),
};
console.log(
  `records: ${(CASES * TRIALS).toLocaleString("en")} (${(bytes / 1e6).toFixed(1)} MB; sets differ per record: shuffled visible sets, per-trial top-k)`,
);
console.log(
  `bare line-by-line JSON.parse: ${f.wall.toFixed(0)} ms wall, ${f.cpu.toFixed(0)} ms CPU, ${f.rss.toFixed(0)} MB peak RSS (median of ${runs})`,
);
console.log(
  `route-eval report (whole CLI process, json): ${o.wall.toFixed(0)} ms wall, ${o.cpu.toFixed(0)} ms CPU, ${o.rss.toFixed(0)} MB peak RSS`,
);
console.log(
  `ratio: wall ${(o.wall / f.wall).toFixed(2)} (target ≤ 2) · CPU ${(o.cpu / f.cpu).toFixed(2)} · peak RSS ${(o.rss / f.rss).toFixed(2)} (target ≤ 2) · out.json ${(statSync(join(dir, "out.json")).size / 1e6).toFixed(1)} MB`,
);
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
