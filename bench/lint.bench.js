// Issues 13 and 32: `route-eval lint` on generated 527-, 10,000- and 20,000-tool registries (rival
// detection included; the generated names and words are few, so the rival pairs are dense: about
// 1,000,000 at 20,000 tools). Targets (whole CLI process, median of 3): 527 tools ≤ 0.5 s,
// 10,000 ≤ 4 s, 20,000 ≤ 8 s, peak RSS ≤ 1 GB; output lines ≤ 10 × tools at every size.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { generateTools, measure, median, writeRegistry } from "./generate.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SIZES = [
  { tools: 527, target: 500, runs: RUNS },
  { tools: 10_000, target: 4_000, runs: RUNS },
  { tools: 20_000, target: 8_000, runs: RUNS },
];
const dir = mkdtempSync(join(tmpdir(), "route-eval-lint-bench-"));

// A fixed CPU-bound reference, so a reader can tell a slow machine from a slow linter.
const LOOP =
  "const c = process.cpuUsage(); let x = 0; for (let i = 0; i < 1e8; i++) x += i; " +
  "const u = process.cpuUsage(c); console.log((u.user + u.system) / 1000, x > 0);";
const loopCpuMs = median(
  Array.from({ length: 3 }, () =>
    Number(spawnSync(process.execPath, ["-e", LOOP], { encoding: "utf8" }).stdout.split(" ")[0]),
  ),
);

for (const { tools, target, runs } of SIZES) {
  const file = join(dir, `registry-${tools}.yaml`);
  writeRegistry(file, generateTools(tools));
  const out = join(dir, `lint-${tools}.txt`);
  const results = Array.from({ length: runs }, () =>
    measure({ args: ["lint", file, "--output", out], cwd: dir }),
  );
  const lines = readFileSync(out, "utf8").split("\n").length - 1;
  const json = measure({ args: ["lint", file, "--format", "json"], cwd: dir });
  const findings = JSON.parse(json.stdout).findings;
  const rivals = findings.filter((f) => f.rule === "rival-pair").length;
  const wall = median(results.map((r) => r.wall));
  const cpu = median(results.map((r) => r.cpu));
  const rss = median(results.map((r) => r.rss));
  const timing = `ratio to target ${(wall / target).toFixed(2)} (≤ 1 wanted, target ${target / 1000} s; RSS ≤ 1,024 MB)`;
  console.log(
    `${String(tools).padStart(6)} tools: ${wall.toFixed(0)} ms wall, ${cpu.toFixed(0)} ms CPU, ${rss.toFixed(0)} MB peak RSS (median of ${runs}) · ${timing}`,
  );
  console.log(
    `        output ${lines.toLocaleString("en")} lines = ${(lines / tools).toFixed(1)} per tool (target ≤ 10); ` +
      `${findings.length.toLocaleString("en")} findings, ${rivals.toLocaleString("en")} rival pairs listed; json ${(json.stdout.length / 1e6).toFixed(1)} MB`,
  );
}
console.log(
  `machine check: a 1e8-iteration loop took ${loopCpuMs.toFixed(0)} ms CPU (about 100 ms on an idle modern core; ` +
    "a busy or throttled machine inflates this and the figures above alike)",
);
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
