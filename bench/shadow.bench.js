// Issue 52: `route-eval shadow` over generated production traffic (the monitor bench's OTLP spans:
// one export per line, a chat span each with its offered tools and its call), the baseline router
// standing in for the candidate model, against `route-eval monitor` on the same file — whole CLI
// processes, interleaved, median of RUNS; then shadow's peak RSS at a quarter, a half and all of
// the turns (what a turn adds). BENCH_SPANS sets the turns (default 20,000; the issue's figure is
// 1,000,000). Targets: shadow ≤ 5× monitor's wall time; peak RSS ≤ 300 MB at 1,000,000 turns.
// Last, the same number of turns as agents send them (a 5 KB system prompt in every span, each
// turn with its conversation's earlier turns): shadow's peak RSS, and what a turn costs in all.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSpanWriter, interleave, measure, median } from "./generate.js";

const SPANS = Number(process.env.BENCH_SPANS ?? 20_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "route-eval-shadow-bench-"));
const { tools, write } = createSpanWriter(SPANS);

// The candidate: the first traced tool's description rewritten; every other tool keeps its trace's.
const [first] = tools;
writeFileSync(
  join(dir, "candidate-tools.yaml"),
  [
    "snapshot: candidate",
    'revision: "bench"',
    "tools:",
    `  - name: ${first.name}`,
    "    family: orders",
    `    purpose: ${JSON.stringify(first.description)}`,
    "    use_when: [The user says an order is late and gives its id.]",
    "    avoid_when: []",
    "    input_schema:",
    `      ${JSON.stringify(first.parameters)}`,
    "    effect: read_only",
    "    idempotent: true",
    "    open_world: false",
    "",
  ].join("\n"),
);
writeFileSync(
  join(dir, "candidate.yaml"),
  [
    "endpoint: baseline",
    "registry: candidate-tools.yaml",
    "controls: [ask_user, no_applicable_tool]",
    "",
  ].join("\n"),
);

const SYSTEM_PROMPT = Array.from(
  { length: 60 },
  (_, i) =>
    `Rule ${i}: be helpful, cite the order id, never promise refunds without checking the ledger.`,
).join("\n");

let run = 0;
const shadow = (file) =>
  measure({
    args: [
      "shadow",
      file,
      "--config",
      "candidate.yaml",
      "--run-id",
      `s-${run++}`,
      "--no-progress",
      "--format",
      "json",
      "--output",
      join(dir, "shadow.json"),
    ],
    cwd: dir,
  });
const monitor = (file) =>
  measure({
    args: ["monitor", file, "--format", "json", "--output", join(dir, "monitor.json")],
    cwd: dir,
  });

try {
  // Peak RSS as the traffic grows: a quarter and a half of the turns first, then all of them.
  const rss = [];
  for (const share of [0.25, 0.5]) {
    const part = join(dir, `spans-${share}.jsonl`);
    write(part, Math.round(SPANS * share));
    rss.push([share, shadow(part).rss]);
    rmSync(part);
  }
  const file = join(dir, "spans.jsonl");
  const bytes = write(file, SPANS);
  const [m, s] = interleave(
    RUNS,
    () => monitor(file),
    () => shadow(file),
  );
  const mw = median(m.map((r) => r.wall));
  const sw = median(s.map((r) => r.wall));
  rss.push([1, median(s.map((r) => r.rss))]);
  const turns = (share) => Math.round(SPANS * share).toLocaleString("en");
  console.log(
    `traced turns: ${turns(1)} (${(bytes / 1e6).toFixed(0)} MB of OTLP spans), whole CLI processes, median of ${RUNS} interleaved:`,
  );
  console.log(
    `  route-eval monitor: ${mw.toFixed(0)} ms wall, ${median(m.map((r) => r.rss)).toFixed(0)} MB peak RSS`,
  );
  console.log(
    `  route-eval shadow (baseline candidate): ${sw.toFixed(0)} ms wall, ${median(s.map((r) => r.cpu)).toFixed(0)} ms CPU`,
  );
  console.log(`  ratio: wall ${(sw / mw).toFixed(2)} (target ≤ 5)`);
  const perTurn = ((rss[2][1] - rss[0][1]) * 1024) / (SPANS * 0.75);
  console.log(
    `  shadow peak RSS: ${rss.map(([share, mb]) => `${turns(share)} turns ${mb.toFixed(0)} MB`).join(" · ")} — a turn adds ${perTurn.toFixed(2)} KB (target ≤ 300 MB at 1,000,000 turns)`,
  );
  // Traffic as agents send it: a system prompt of about 5 KB in every span, and each turn of a
  // conversation carrying the ones before it (up to 7; 2,000 conversations under way at once).
  const talk = join(dir, "conversations.jsonl");
  createSpanWriter(SPANS, 31, { system: SYSTEM_PROMPT, turns: 8, open: 2_000 }).write(talk, SPANS);
  const spoken = median(Array.from({ length: RUNS }, () => shadow(talk).rss));
  console.log(
    `  the same turns as conversations with a 5 KB system prompt: shadow peak RSS ${spoken.toFixed(0)} MB, ${((spoken * 1024) / SPANS).toFixed(2)} KB a turn in all`,
  );
} finally {
  if (process.env.KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
