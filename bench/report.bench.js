// Issue: `route-eval report` on 100,000 records vs a bare JSON.parse of every line (target ratio ≤ 3).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const N = 100_000;
const bin = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "route-eval-bench-"));
const file = join(dir, "records.jsonl");

// A plausible mix: 40 tools, 2,000 cases × 50 trials, every stage represented, seeded LCG.
let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const tools = Array.from({ length: 40 }, (_, i) => `tool_${i}`);
const controls = ["ask_user", "wait_for_event", "no_applicable_tool"];
const lines = [];
for (let i = 0; i < N; i++) {
  const c = Math.floor(i / 50);
  const expected = c % 50 === 0 ? "missing_tool" : tools[c % 40];
  const exposed = [...controls, ...tools.filter((_, j) => (j + c) % 5 !== 0)];
  const visible = exposed;
  const r = rand();
  const selected = r < 0.7 ? expected : r < 0.9 ? tools[(c + 1) % 40] : r < 0.95 ? "no_applicable_tool" : null;
  lines.push(JSON.stringify({
    case_id: `case-${String(c).padStart(4, "0")}`, trial: i % 50, phase: ["support", "billing", "admin"][c % 3],
    family: `fam-${c % 100}`, tags: [c % 2 ? "read" : "write"], acceptable: [expected], forbidden: [tools[(c + 7) % 40]],
    registry_names: [...controls, ...tools], exposed_names: exposed, retrieved_names: visible, visible_order: visible,
    retrieval_k: null, retrieval_scores: null, selected, arguments: { id: "x" }, argument_errors: selected ? [] : null,
    argument_match: null, failed_stage: null, selection_error: null, violated: false, must_see: [], must_not_see: [],
    response_text: null, tool_calls: selected ? 1 : 0, usage: { input_tokens: 900, output_tokens: 20 }, latency_ms: 300,
    endpoint: "bench", model: "bench", request_hash: "h" + i, error: rand() < 0.01 ? "timeout" : null,
  }));
}
writeFileSync(file, lines.join("\n") + "\n");
const mb = (readFileSync(file).length / 1e6).toFixed(1);

function time(fn) {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const parse = [];
const report = [];
for (let run = 0; run < (process.env.BENCH_RUNS ? Number(process.env.BENCH_RUNS) : 3); run++) {
  parse.push(time(() => {
    for (const line of readFileSync(file, "utf8").split("\n")) if (line) JSON.parse(line);
  }));
  report.push(time(() => {
    const r = spawnSync(process.execPath, [bin, "report", dir, "--format", "json", "--output", join(dir, "out.json")], { encoding: "utf8" });
    if (r.status !== 0 && r.status !== 1) throw new Error(`route-eval report failed: ${r.stderr}`);
  }));
}
const p = median(parse);
const q = median(report);
console.log(`records: ${N.toLocaleString("en")} (${mb} MB)`);
console.log(`bare JSON.parse of every line: ${p.toFixed(0)} ms (median of 3)`);
console.log(`route-eval report (whole CLI process, json rendering): ${q.toFixed(0)} ms (median of 3)`);
console.log(`ratio: ${(q / p).toFixed(2)} (target ≤ 3)`);
if (process.env.KEEP_BENCH_DIR) console.log(`kept ${dir}`); else rmSync(dir, { recursive: true, force: true });
