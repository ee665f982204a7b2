/**
 * Shards and merge: `run --shard I/N` runs a stable partition of the (case, trial) units; merging
 * 1/3, 2/3 and 3/3 gives the unsharded run's report byte for byte (apart from its id and times);
 * shards of different runs, a missing shard and a shard given twice are refused with the reason.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { inShard } from "../src/run-files/shard.js";
import { runCli, tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let dir: string;

function normalised(file: string): string {
  const report = JSON.parse(readFileSync(file, "utf8"));
  for (const key of ["run_id", "started_at", "finished_at"]) delete report.run[key];
  return JSON.stringify(report, null, 2);
}

beforeAll(async () => {
  dir = tempDir("route-eval-shards-");
  for (const name of ["route-eval.yaml", "cases", "registries"]) cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  expect((await runCli(["run", "--run-id", "whole", "--no-progress", "--retriever", "bm25", "-k", "6"], dir)).code).toBeLessThanOrEqual(1);
  for (const i of [1, 2, 3]) {
    expect((await runCli(["run", "--run-id", `s${i}`, "--shard", `${i}/3`, "--no-progress", "--retriever", "bm25", "-k", "6"], dir)).code).toBeLessThanOrEqual(1);
  }
}, 60_000);

describe("shards", () => {
  it("partition the units stably: every unit in exactly one shard, a case's units independent of the other cases", () => {
    const units = Array.from({ length: 83 }, (_, c) => Array.from({ length: 3 }, (_, t) => [`case-${c}`, t] as const)).flat();
    for (const [caseId, trial] of units) expect([1, 2, 3].filter((index) => inShard({ index, count: 3 }, caseId, trial))).toHaveLength(1);
    const sizes = [1, 2, 3].map((index) => units.filter(([c, t]) => inShard({ index, count: 3 }, c, t)).length);
    expect(Math.min(...sizes)).toBeGreaterThan(50);
    const shardRecords = [1, 2, 3].map((i) => readFileSync(join(dir, "reports", `s${i}`, "records.jsonl"), "utf8").trim().split("\n").length);
    expect(shardRecords.reduce((a, b) => a + b, 0)).toBe(249);
    expect(JSON.parse(readFileSync(join(dir, "reports", "s2", "run.json"), "utf8")).shard).toEqual({ index: 2, count: 3 });
  });

  it("merge gives the unsharded run's report byte for byte, apart from its id and times", async () => {
    const merged = await runCli(["merge", join(dir, "reports", "merged"), ...[1, 2, 3].map((i) => join(dir, "reports", `s${i}`)), "-f", "json"], dir);
    expect(merged.code, merged.stderr).toBeLessThanOrEqual(1);
    expect(merged.stderr).toContain(`merged 3 shards into ${join(dir, "reports", "merged")}`);
    expect(normalised(join(dir, "reports", "merged", "report.json"))).toBe(normalised(join(dir, "reports", "whole", "report.json")));
    expect(JSON.parse(readFileSync(join(dir, "reports", "merged", "run.json"), "utf8"))).not.toHaveProperty("shard");
    // The merged directory is an ordinary run.
    expect((await runCli(["show", join(dir, "reports", "merged"), "--case", "refund-over-limit"], dir)).code).toBe(0);
  });

  it("refuses a missing shard, a shard given twice, shards of another run, and a run that is not a shard", async () => {
    const s = (i: number) => join(dir, "reports", `s${i}`);
    const missing = await runCli(["merge", join(dir, "reports", "m1"), s(1), s2()], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^route-eval: merge: \d+ \(case, trial\) units are in no shard given \(shards 1, 2 of 3\): .+; add the missing shards, or finish them with --resume\n$/);
    const twice = await runCli(["merge", join(dir, "reports", "m2"), s(1), s(1), s(2), s(3)], dir);
    expect(twice.stderr).toMatch(/is in both .*s1 and .*s1 \(the same shard given twice\?\)/);
    expect((await runCli(["run", "--run-id", "other", "--shard", "3/3", "--no-progress", "-n", "2", "--retriever", "bm25", "-k", "6"], dir)).code).toBeLessThanOrEqual(1);
    const other = await runCli(["merge", join(dir, "reports", "m3"), s(1), s(2), join(dir, "reports", "other")], dir);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("is not a shard of the same run as");
    expect(other.stderr).toContain("trials 3 → 2");
    const plain = await runCli(["merge", join(dir, "reports", "m4"), join(dir, "reports", "whole")], dir);
    expect(plain.stderr).toContain("is not a shard (its run.json has no shard; run it with --shard I/N)");
    function s2() {
      return s(2);
    }
  });

  it("a bad --shard is a usage error, and --resume keeps a shard a shard", async () => {
    expect((await runCli(["run", "--shard", "4/3", "--no-progress"], dir)).stderr).toContain("expected I/N with 1 ≤ I ≤ N, e.g. 2/3.");
    const resumed = await runCli(["run", "--resume", join(dir, "reports", "s1"), "--shard", "2/3", "--no-progress"], dir);
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("shard 1/3 → 2/3");
    // Without --shard, --resume continues the shard it reopens.
    const again = await runCli(["run", "--resume", join(dir, "reports", "s1"), "--no-progress"], dir);
    expect(again.code, again.stderr).toBeLessThanOrEqual(1);
    expect(again.stderr).toMatch(/resuming .*s1: (\d+) of \1 trials kept/);
  });
});
