// Issue 32: peak memory of `route-eval run` — the whole CLI process with the baseline endpoint over
// a 40-tool registry (bm25 k=10). A run keeps per-case tallies, not its records, so what it holds
// grows with its cases (their inputs, their retriever answer, their tally) and should not grow with
// the trials of a case. Three runs, interleaved, median of RUNS each:
//   A: 1,000 cases × 10 trials · B: 1,000 cases × 40 trials · C: 4,000 cases × 10 trials.
// B − A is what each trial adds (the target, ≤ 200 MB at 1M trials, is about this: records
// streamed); C − A is what each case adds with its trials. BENCH_MILLION=1 also runs 1,000 cases ×
// 1,000 trials (a million trials; minutes) and prints its peak, the figure the target is set against;
// BENCH_MANY_CASES=1 also runs the million as 100,000 cases × 10 trials (what a case holds, at scale).
// BENCH_BASE=<another built checkout> measures it too, each run beside this one's, and prints both.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BASE, generateTools, measure, median, writeProject } from "./generate.js";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET_MB = 200;
const SHAPES = [
  { cases: 1_000, trials: 10 },
  { cases: 1_000, trials: 40 },
  { cases: 4_000, trials: 10 },
];
// Each with its target: a million trials in flat memory (issue 32); a million as 100,000 cases
// with their inputs and tallies (issue 52).
const ONCE = [
  ...(process.env.BENCH_MILLION === "1"
    ? [{ cases: 1_000, trials: 1_000, target: TARGET_MB }]
    : []),
  ...(process.env.BENCH_MANY_CASES === "1" ? [{ cases: 100_000, trials: 10, target: 250 }] : []),
];
SHAPES.push(...ONCE);

const tools = generateTools(40);
const dirs = SHAPES.map((shape) => {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-memory-bench-"));
  writeProject(dir, { tools, ...shape });
  return dir;
});
try {
  let i = 0;
  const run = (dir, base = false) =>
    measure({
      args: [
        "run",
        "--run-id",
        `m-${i++}`,
        "--no-gates",
        "--no-progress",
        "--no-step-summary",
        "-f",
        "json",
        "-o",
        join(dir, "out.json"),
      ],
      cwd: dir,
      base,
    }).rss;
  const samples = SHAPES.map(() => []);
  const before = SHAPES.map(() => []);
  // The millions run once (minutes); the others RUNS times; BENCH_BASE's run right after each of this one's.
  for (let r = 0; r < RUNS; r++) {
    dirs.forEach((dir, s) => {
      if (s >= 3 && r > 0) return;
      samples[s].push(run(dir));
      if (BASE !== null) before[s].push(run(dir, true));
    });
  }
  const [a, b, c, ...once] = samples.map(median);
  const trialsOf = ({ cases, trials }) => cases * trials;
  const perTrialKb = ((b - a) * 1024) / (trialsOf(SHAPES[1]) - trialsOf(SHAPES[0]));
  const perCaseKb = ((c - a) * 1024) / (SHAPES[2].cases - SHAPES[0].cases);
  const mb = (x) => `${x.toFixed(0)} MB`;
  const shape = (s) =>
    `${s.cases.toLocaleString("en")} cases × ${s.trials.toLocaleString("en")} trials`;
  console.log(
    `route-eval run, baseline endpoint, 40 tools, bm25 k=10, peak RSS (median of ${RUNS}, interleaved):`,
  );
  SHAPES.slice(0, 3).forEach((s, k) =>
    console.log(
      `  ${shape(s)}: ${mb([a, b, c][k])}${BASE === null ? "" : ` · BENCH_BASE ${mb(median(before[k]))} (ratio ${([a, b, c][k] / median(before[k])).toFixed(3)})`}`,
    ),
  );
  // The peak also holds the garbage V8 has not yet collected, which grows with a run's length up to
  // a bound (app/bounded-heap.ts): a slope is not a rate to extrapolate; the million is measured.
  console.log(
    `  a trial adds (more trials, same cases): ${perTrialKb.toFixed(2)} KB · a case with its 10 trials adds: ${perCaseKb.toFixed(2)} KB`,
  );
  ONCE.forEach((s, k) =>
    console.log(
      `  ${shape(s)} (a million trials, measured once): ${mb(once[k])} (target ≤ ${s.target} MB)${BASE === null ? "" : ` · BENCH_BASE ${mb(before[3 + k][0])}`}`,
    ),
  );
  if (ONCE.length === 0)
    console.log(
      `  a million trials: BENCH_MILLION=1 measures 1,000 cases × 1,000 trials (target ≤ ${TARGET_MB} MB), BENCH_MANY_CASES=1 100,000 cases × 10 (target ≤ 250 MB); about 5 minutes each`,
    );
} finally {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
