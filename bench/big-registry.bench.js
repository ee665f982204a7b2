// Issue 13: `route-eval run` with bm25 k=10, 1,000 cases × 1 trial, on a 10,000-tool YAML registry,
// against a bare YAML parse of that registry in the same bench (interleaved, median of 3).
// Targets: wall ≤ 3× the bare parse; peak RSS ≤ 2× the bare parse's.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import {
  generateTools,
  interleave,
  measure,
  measuredScript,
  median,
  writeProject,
} from "./generate.js";

const TOOLS = 10_000;
const CASES = 1_000;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "route-eval-big-registry-"));
writeProject(dir, { tools: generateTools(TOOLS), cases: CASES, k: 10 });
const registry = join(dir, "registries", "bench.yaml");
const yaml = createRequire(import.meta.url).resolve("yaml");

// The floor: node starts, loads the yaml package and parses the registry — nothing else.
const bare = () =>
  measure({
    code: measuredScript(`
const { parse } = await import(${JSON.stringify(yaml)});
const { readFileSync } = await import("node:fs");
parse(readFileSync(${JSON.stringify(registry)}, "utf8"));`),
    cwd: dir,
  });
let n = 0;
const run = () =>
  measure({
    args: [
      "run",
      "--run-id",
      `r${n++}`,
      "--no-gates",
      "--no-progress",
      "--no-step-summary",
      "-f",
      "json",
      "--output",
      join(dir, "out.json"),
    ],
    cwd: dir,
  });

const [floor, ours] = interleave(runs, bare, run);
const f = { wall: median(floor.map((r) => r.wall)), rss: median(floor.map((r) => r.rss)) };
const o = {
  wall: median(ours.map((r) => r.wall)),
  rss: median(ours.map((r) => r.rss)),
  cpu: median(ours.map((r) => r.cpu)),
};
const records = statSync(join(dir, "reports", "r0", "records.jsonl")).size;
console.log(
  `registry: ${TOOLS.toLocaleString("en")} tools, ${(statSync(registry).size / 1e6).toFixed(1)} MB of YAML; ${CASES.toLocaleString("en")} cases × 1 trial, bm25 k=10`,
);
console.log(
  `bare YAML parse (node + yaml.parse): ${f.wall.toFixed(0)} ms wall, ${f.rss.toFixed(0)} MB peak RSS (median of ${runs})`,
);
console.log(
  `route-eval run (whole CLI process): ${o.wall.toFixed(0)} ms wall, ${o.cpu.toFixed(0)} ms CPU, ${o.rss.toFixed(0)} MB peak RSS; records.jsonl ${(records / 1e6).toFixed(1)} MB`,
);
console.log(
  `ratio: wall ${(o.wall / f.wall).toFixed(2)} (target ≤ 3) · peak RSS ${(o.rss / f.rss).toFixed(2)} (target ≤ 2)`,
);
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
