// Issue 28: a teacher-forced replay of 1,000 conversations × 5 turns (store hits only) against
// today's single-decision replay of the same number of decisions (5,000 cases): CPU and wall per
// decision, and the ratio (goal: ≤ 1). Both suites share one 40-tool registry; their stores are
// filled first by a live run against a local OpenAI-compatible server, then each replay is a whole
// CLI process (`route-eval run --mode replay`), the two interleaved, median of RUNS.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  fillStore,
  generateTools,
  interleave,
  measure,
  median,
  startFirstToolServer,
  writeProject,
} from "./generate.js";

const CONVERSATIONS = 1_000;
const TURNS = 5;
const DECISIONS = CONVERSATIONS * TURNS;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

// The model: the first offered tool, always.
const server = await startFirstToolServer();
const url = server.url;

const tools = generateTools(40);
function project(kind) {
  const dir = mkdtempSync(join(tmpdir(), `route-eval-conv-bench-${kind}-`));
  writeProject(dir, { tools, cases: 1 });
  const pick = (i) => tools[(i * 7) % tools.length].name;
  const lines = ["registry: ../registries/bench.yaml", "cases:"];
  if (kind === "single") {
    for (let i = 0; i < DECISIONS; i++)
      lines.push(
        `  - id: case-${i}`,
        `    goal: "Please handle request ${i} with ${pick(i)}"`,
        "    phase: ops",
        `    acceptable: [${pick(i)}]`,
      );
  } else {
    for (let c = 0; c < CONVERSATIONS; c++) {
      lines.push(`  - id: conv-${c}`, "    phase: ops", "    turns:");
      for (let t = 0; t < TURNS; t++)
        lines.push(
          `      - user: "Please handle request ${c * TURNS + t} with ${pick(c * TURNS + t)}"`,
          `        acceptable: [${pick(c * TURNS + t)}]`,
        );
    }
  }
  writeFileSync(join(dir, "cases", "bench.yaml"), `${lines.join("\n")}\n`);
  // No retriever: the replay measures the store and the pipeline, not bm25.
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
  return dir;
}

const single = project("single");
const conversations = project("conversations");
try {
  for (const dir of [single, conversations]) await fillStore(dir);
  const replay = (dir, i) =>
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
  let i = 0;
  const [a, b] = interleave(
    RUNS,
    () => replay(single, i++),
    () => replay(conversations, i++),
  );
  const per = (runs, key) => median(runs.map((r) => r[key])) / DECISIONS;
  const [sc, cc, sw, cw] = [per(a, "cpu"), per(b, "cpu"), per(a, "wall"), per(b, "wall")];
  console.log(
    `${DECISIONS.toLocaleString("en")} decisions replayed from the store (whole CLI process, median of ${RUNS} interleaved runs):`,
  );
  console.log(
    `  single-decision cases:            ${(sc * 1000).toFixed(1)} µs CPU, ${(sw * 1000).toFixed(1)} µs wall per decision`,
  );
  console.log(
    `  ${CONVERSATIONS.toLocaleString("en")} conversations × ${TURNS} turns: ${(cc * 1000).toFixed(1)} µs CPU, ${(cw * 1000).toFixed(1)} µs wall per decision`,
  );
  console.log(
    `  ratio conversations / single: CPU ${(cc / sc).toFixed(2)}, wall ${(cw / sw).toFixed(2)} (≤ 1 wanted)`,
  );
} finally {
  server.close();
  if (process.env.KEEP) console.log(`kept ${single} ${conversations}`);
  else rmSync(single, { recursive: true, force: true });
  if (!process.env.KEEP) rmSync(conversations, { recursive: true, force: true });
}
