// Issue 32: peak memory of `route-eval run` as the trials grow — the whole CLI process with the
// baseline endpoint over a 40-tool registry (bm25 k=10), 10 trials per case, at two sizes. The
// slope between them is what each trial keeps in memory; extrapolated to a million trials it is
// set against the target (≤ 200 MB at 1M trials: records streamed, per-case tallies only).
// Median of RUNS per size, the sizes interleaved.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTools, interleave, measure, median, writeProject } from "./generate.js";

const TRIALS = 10;
const SMALL = Number(process.env.BENCH_SMALL_CASES ?? 1_000);
const LARGE = Number(process.env.BENCH_LARGE_CASES ?? 4_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MB = 200;

const tools = generateTools(40);
const dirs = [SMALL, LARGE].map((cases) => {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-memory-bench-"));
  writeProject(dir, { tools, cases, trials: TRIALS });
  return dir;
});
try {
  let i = 0;
  const run = (dir) => measure({ args: ["run", "--run-id", `m-${i++}`, "--no-gates", "--no-progress", "--no-step-summary", "-f", "json", "-o", join(dir, "out.json")], cwd: dir });
  const [small, large] = interleave(RUNS, () => run(dirs[0]), () => run(dirs[1])).map((xs) => median(xs.map((x) => x.rss)));
  const [n, m] = [SMALL * TRIALS, LARGE * TRIALS];
  const perTrialKb = ((large - small) * 1024) / (m - n);
  const atMillion = large + ((1_000_000 - m) * perTrialKb) / 1024;
  console.log(`route-eval run, baseline endpoint, 40 tools, ${TRIALS} trials per case, peak RSS (median of ${RUNS}, interleaved):`);
  console.log(`  ${n.toLocaleString("en")} trials: ${small.toFixed(0)} MB · ${m.toLocaleString("en")} trials: ${large.toFixed(0)} MB`);
  console.log(`  kept per trial: ${perTrialKb.toFixed(2)} KB · at 1,000,000 trials (extrapolated): ${atMillion.toFixed(0)} MB (target ≤ ${TARGET_MB} MB)`);
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
