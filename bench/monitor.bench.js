// Issue 31: `route-eval monitor` over 1,000,000 generated OTLP spans (one ExportTraceServiceRequest
// per line, OpenTelemetry GenAI attributes as JSON strings: input and output messages and the tool
// definitions), against a plain line-by-line JSON.parse of the same file in the same bench
// (interleaved, median of 3). Then monitor's peak RSS on a quarter, a half and the whole file.
// Targets: wall ≤ 3× the plain parse; peak RSS flat as the file grows.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSpanWriter, interleave, measure, measuredScript, median } from "./generate.js";

const SPANS = Number(process.env.BENCH_SPANS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "route-eval-monitor-bench-"));
const { write } = createSpanWriter(SPANS);

const file = join(dir, "spans.jsonl");
const bytes = write(file, SPANS);

// The floor: read the file in chunks, split lines, JSON.parse each (no attribute decoding, no nested JSON).
const parseLines = (path) =>
  measure({
    code: measuredScript(`
const { openSync, readSync, closeSync } = await import("node:fs");
const fd = openSync(${JSON.stringify(path)}, "r");
const buffer = Buffer.allocUnsafe(1 << 20);
let rest = "", n = 0;
for (let read = readSync(fd, buffer); read > 0; read = readSync(fd, buffer)) {
  const lines = (rest + buffer.toString("utf8", 0, read)).split("\\n");
  rest = lines.pop();
  for (const line of lines) if (line) { JSON.parse(line); n++; }
}
if (rest) { JSON.parse(rest); n++; }
closeSync(fd);`),
    cwd: dir,
  });
const monitor = (path) =>
  measure({
    args: [
      "monitor",
      path,
      "--by",
      "tenant",
      "--format",
      "json",
      "--output",
      join(dir, "monitor.json"),
    ],
    cwd: dir,
  });

const [floor, ours] = interleave(
  runs,
  () => parseLines(file),
  () => monitor(file),
);
const f = median(floor.map((r) => r.wall));
const o = median(ours.map((r) => r.wall));
console.log(
  `spans: ${SPANS.toLocaleString("en")} (${(bytes / 1e6).toFixed(0)} MB, one OTLP export per line, GenAI attributes as JSON strings)`,
);
console.log(`plain line-by-line JSON.parse: ${f.toFixed(0)} ms wall (median of ${runs})`);
console.log(
  `route-eval monitor --by tenant (whole CLI process): ${o.toFixed(0)} ms wall, ${median(ours.map((r) => r.cpu)).toFixed(0)} ms CPU`,
);
console.log(`ratio: wall ${(o / f).toFixed(2)} (target ≤ 3)`);

// Peak RSS as the file grows: streams of a quarter and a half as many spans, drawn the same way.
const rss = [];
for (const share of [0.25, 0.5]) {
  const part = join(dir, `spans-${share}.jsonl`);
  write(part, Math.round(SPANS * share));
  rss.push([share, median(Array.from({ length: runs }, () => monitor(part).rss))]);
  rmSync(part);
}
rss.push([1, median(ours.map((r) => r.rss))]);
console.log(
  `monitor peak RSS: ${rss.map(([share, mb]) => `${Math.round(SPANS * share).toLocaleString("en")} spans ${mb.toFixed(0)} MB`).join(" · ")} (target: flat; whole / quarter ${(rss[2][1] / rss[0][1]).toFixed(2)})`,
);
if (process.env.KEEP) console.log(`kept ${dir}`);
else rmSync(dir, { recursive: true, force: true });
