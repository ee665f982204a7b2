// Issue 5: `route-eval diff` of two 50,000-record runs vs `route-eval report` of each (target ratio ≤ 1.5).
// diff rebuilds both reports from their records, then pairs 50,000 trials per metric.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const N = 50_000;
const TRIALS = 50;
const bin = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "route-eval-diff-bench-"));

// 1,000 cases × 50 trials, 20 tools; CURRENT re-draws each trial with a slightly different mix.
function writeRun(name, seed, correctShare) {
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const tools = Array.from({ length: 20 }, (_, i) => `tool_${i}`);
  const controls = ["ask_user", "wait_for_event", "no_applicable_tool"];
  const lines = [];
  for (let i = 0; i < N; i++) {
    const c = Math.floor(i / TRIALS);
    const expected = tools[c % 20];
    const exposed = [...controls, ...tools.filter((_, j) => (j + c) % 5 !== 0 || j === c % 20)];
    const r = rand();
    const selected =
      r < correctShare ? expected : r < 0.92 ? tools[(c + 1) % 20] : "no_applicable_tool";
    lines.push(
      JSON.stringify({
        case_id: `case-${String(c).padStart(4, "0")}`,
        trial: i % TRIALS,
        phase: "support",
        family: `fam-${c % 100}`,
        tags: [],
        acceptable: [expected],
        forbidden: [tools[(c + 7) % 20]],
        registry_names: [...controls, ...tools],
        exposed_names: exposed,
        retrieved_names: exposed,
        visible_order: exposed,
        retrieval_k: null,
        selected,
        arguments: {},
        argument_errors: [],
        argument_match: null,
        endpoint: "bench",
        model: "bench",
        request_hash: `h${i}`,
        error: null,
      }),
    );
  }
  mkdirSync(join(dir, name));
  writeFileSync(join(dir, name, "records.jsonl"), lines.join("\n") + "\n");
  return join(dir, name);
}

const base = writeRun("base", 42, 0.7);
const current = writeRun("current", 7, 0.72);
const mb = ((readFileSync(join(base, "records.jsonl")).length * 2) / 1e6).toFixed(1);

function time(args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`route-eval ${args[0]} failed: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const reports = [];
const diffs = [];
for (let run = 0; run < 3; run++) {
  reports.push(
    time(["report", base, "-f", "json", "--output", join(dir, "a.json")]) +
      time(["report", current, "-f", "json", "--output", join(dir, "b.json")]),
  );
  diffs.push(time(["diff", base, current, "-f", "json", "--output", join(dir, "diff.json")]));
}
const r = median(reports);
const d = median(diffs);
console.log(`records: 2 × ${N.toLocaleString("en")} (${mb} MB)`);
console.log(
  `route-eval report of BASE + of CURRENT (two CLI processes): ${r.toFixed(0)} ms (median of 3)`,
);
console.log(
  `route-eval diff BASE CURRENT (one CLI process, json): ${d.toFixed(0)} ms (median of 3)`,
);
console.log(`ratio: ${(d / r).toFixed(2)} (target ≤ 1.5)`);
rmSync(dir, { recursive: true, force: true });
