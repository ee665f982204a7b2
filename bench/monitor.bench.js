// Issue 31: `route-eval monitor` over 1,000,000 generated OTLP spans (one ExportTraceServiceRequest
// per line, OpenTelemetry GenAI attributes as JSON strings: input and output messages and the tool
// definitions), against a plain line-by-line JSON.parse of the same file in the same bench
// (interleaved, median of 3). Then monitor's peak RSS on a quarter, a half and the whole file.
// Targets: wall ≤ 3× the plain parse; peak RSS flat as the file grows.
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interleave, measure, measuredScript, median, seeded } from "./generate.js";

const SPANS = Number(process.env.BENCH_SPANS ?? 1_000_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dir = mkdtempSync(join(tmpdir(), "route-eval-monitor-bench-"));
const { rand, pick } = seeded(31);

// 40 tools; each call offers one of 20 sets of 6 (a router's candidate sets), with descriptions and schemas.
const TOOLS = Array.from({ length: 40 }, (_, i) => ({
  type: "function",
  name: `${pick(["get", "search", "update", "cancel", "refund", "list"])}_${pick(["order", "invoice", "customer", "shipment", "ticket"])}_${i}`,
  description: `Tool ${i}: ${pick(["Look up", "Search", "Change", "Cancel", "Refund", "List"])} one ${pick(["order", "invoice", "customer record", "shipment", "ticket"])} by its id; use when the id is known.`,
  parameters: {
    type: "object",
    properties: { id: { type: "string" }, note: { type: "string" } },
    required: ["id"],
    additionalProperties: false,
  },
}));
const SETS = Array.from({ length: 20 }, () =>
  Array.from({ length: 6 }, () => pick(TOOLS)).filter((t, i, all) => all.indexOf(t) === i),
);
const SET_JSON = SETS.map((set) => JSON.stringify(set));
const TENANTS = Array.from({ length: 50 }, (_, i) => `tenant-${i}`);
const attr = (key, value) => ({
  key,
  value: typeof value === "string" ? { stringValue: value } : { intValue: String(value) },
});

function span(i) {
  const s = Math.floor(rand() * SETS.length);
  const set = SETS[s];
  const r = rand();
  const called =
    r < 0.85 ? pick(set).name : r < 0.9 ? "ask_user" : r < 0.93 ? "phantom_tool" : null;
  const args = rand() < 0.05 ? '{"id": ' : JSON.stringify({ id: `ord_${i}` });
  const output =
    called === null
      ? [
          {
            role: "assistant",
            parts: [
              {
                type: "text",
                content: rand() < 0.5 ? "Which order do you mean?" : "I cannot do that.",
              },
            ],
            finish_reason: "stop",
          },
        ]
      : [
          {
            role: "assistant",
            parts: [{ type: "tool_call", id: `call_${i}`, name: called, arguments: args }],
            finish_reason: "tool_calls",
          },
        ];
  const start = BigInt(1764547200 + Math.floor(i * (172800 / SPANS))) * 1_000_000_000n;
  return {
    resourceSpans: [
      {
        resource: {
          attributes: [attr("service.name", "support-agent"), attr("tenant", pick(TENANTS))],
        },
        scopeSpans: [
          {
            scope: { name: "bench" },
            spans: [
              {
                traceId: (i + 1).toString(16).padStart(32, "0"),
                spanId: (i + 1).toString(16).padStart(16, "0"),
                name: "chat gpt-4o",
                kind: 3,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + 900_000_000n),
                attributes: [
                  attr("gen_ai.operation.name", "chat"),
                  attr("gen_ai.provider.name", "openai"),
                  attr("gen_ai.request.model", "gpt-4o"),
                  attr("gen_ai.usage.input_tokens", 900 + (i % 300)),
                  attr(
                    "gen_ai.input.messages",
                    JSON.stringify([
                      {
                        role: "user",
                        parts: [
                          { type: "text", content: `Please help with order ord_${i}, it is late` },
                        ],
                      },
                    ]),
                  ),
                  attr("gen_ai.tool.definitions", SET_JSON[s]),
                  attr("gen_ai.output.messages", JSON.stringify(output)),
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}

/** The first `count` spans of the sequence, one per line. */
function write(file, count) {
  const fd = openSync(file, "w");
  let chunk = "";
  for (let i = 0; i < count; i++) {
    chunk += `${JSON.stringify(span(i))}\n`;
    if (chunk.length > 1 << 22) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  return statSync(file).size;
}

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
