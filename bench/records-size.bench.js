// Issue 13: bytes per trial record at 100, 1,000 and 10,000 registry tools (bm25 k=10).
// Target: the same within 10% across registry sizes (a record's size must not depend on the registry's).
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateTools, measure, writeProject } from "./generate.js";

const SIZES = [100, 1_000, 10_000];
const CASES = 300;
const rows = [];
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), "route-eval-records-size-"));
  writeProject(dir, { tools: generateTools(size), cases: CASES, k: 10 });
  measure({
    args: [
      "run",
      "--run-id",
      "r",
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
  const records = readFileSync(join(dir, "reports", "r", "records.jsonl"), "utf8");
  const lines = records.trim().split("\n").length;
  const sets = statSync(join(dir, "reports", "r", "sets.jsonl")).size;
  rows.push({ size, perRecord: Buffer.byteLength(records) / lines, lines, sets });
  rmSync(dir, { recursive: true, force: true });
}
const smallest = rows[0].perRecord;
for (const row of rows) {
  console.log(
    `${String(row.size).padStart(6)} tools: ${row.perRecord.toFixed(0)} bytes per record (${row.lines} records), ` +
      `sets.jsonl ${(row.sets / 1024).toFixed(0)} KB once per run · ratio to 100 tools: ${(row.perRecord / smallest).toFixed(3)}`,
  );
}
const worst = Math.max(...rows.map((r) => Math.abs(r.perRecord / smallest - 1)));
console.log(
  `largest departure from the 100-tool size: ${(worst * 100).toFixed(1)}% (target ≤ 10%)`,
);
