/**
 * Shards and merge: `run --shard I/N` runs a stable partition of the (case, trial) units; merging
 * 1/3, 2/3 and 3/3 gives the unsharded run's report byte for byte (apart from its id and times);
 * shards of different runs, a missing shard and a shard given twice are refused with the reason.
 */
import { cpSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { fileSchemaErrors } from "./support/schemas.js";
import { inShard } from "../src/run-files/shard.js";
import { runCli, tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let dir: string;

/** Measured latency differs between two runs of the same trials; it is a time, like the ids and timestamps. */
function withoutLatency(_key: string, value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if ((value as { metric?: unknown }).metric === "latency_ms") return "<latency>";
  return "latency_ms" in value ? { ...value, latency_ms: "<latency>" } : value;
}

function normalised(file: string): string {
  const report = JSON.parse(readFileSync(file, "utf8"));
  for (const key of ["run_id", "started_at", "finished_at"]) delete report.run[key];
  return JSON.stringify(report, null, 2);
}

beforeAll(async () => {
  dir = tempDir("route-eval-shards-");
  for (const name of ["route-eval.yaml", "cases", "registries"])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  expect(
    (
      await runCli(
        ["run", "--run-id", "whole", "--no-progress", "--retriever", "bm25", "-k", "6"],
        dir,
      )
    ).code,
  ).toBeLessThanOrEqual(1);
  for (const i of [1, 2, 3]) {
    expect(
      (
        await runCli(
          [
            "run",
            "--run-id",
            `s${i}`,
            "--shard",
            `${i}/3`,
            "--no-progress",
            "--retriever",
            "bm25",
            "-k",
            "6",
          ],
          dir,
        )
      ).code,
    ).toBeLessThanOrEqual(1);
  }
}, 60_000);

describe("shards", () => {
  it("partition the units stably: every unit in exactly one shard, a case's units independent of the other cases", () => {
    const units = Array.from({ length: 83 }, (_, c) =>
      Array.from({ length: 3 }, (_, t) => [`case-${c}`, t] as const),
    ).flat();
    for (const [caseId, trial] of units)
      expect([1, 2, 3].filter((index) => inShard({ index, count: 3 }, caseId, trial))).toHaveLength(
        1,
      );
    const sizes = [1, 2, 3].map(
      (index) => units.filter(([c, t]) => inShard({ index, count: 3 }, c, t)).length,
    );
    expect(Math.min(...sizes)).toBeGreaterThan(50);
    const shardRecords = [1, 2, 3].map(
      (i) =>
        readFileSync(join(dir, "reports", `s${i}`, "records.jsonl"), "utf8")
          .trim()
          .split("\n").length,
    );
    expect(shardRecords.reduce((a, b) => a + b, 0)).toBe(318);
    expect(JSON.parse(readFileSync(join(dir, "reports", "s2", "run.json"), "utf8")).shard).toEqual({
      index: 2,
      count: 3,
    });
  });

  it("merge gives the unsharded run's report byte for byte, apart from its id and times", async () => {
    const merged = await runCli(
      [
        "merge",
        join(dir, "reports", "merged"),
        ...[1, 2, 3].map((i) => join(dir, "reports", `s${i}`)),
        "-f",
        "json",
      ],
      dir,
    );
    expect(merged.code, merged.stderr).toBeLessThanOrEqual(1);
    expect(merged.stderr).toContain(`merged 3 shards into ${join(dir, "reports", "merged")}`);
    expect(normalised(join(dir, "reports", "merged", "report.json"))).toBe(
      normalised(join(dir, "reports", "whole", "report.json")),
    );
    expect(
      JSON.parse(readFileSync(join(dir, "reports", "merged", "run.json"), "utf8")),
    ).not.toHaveProperty("shard");
    // The merged directory is an ordinary run.
    expect(
      (await runCli(["show", join(dir, "reports", "merged"), "--case", "refund-over-limit"], dir))
        .code,
    ).toBe(0);
  });

  it("refuses a missing shard, a shard given twice, shards of another run, and a run that is not a shard", async () => {
    const s = (i: number) => join(dir, "reports", `s${i}`);
    const missing = await runCli(["merge", join(dir, "reports", "m1"), s(1), s2()], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(
      /^route-eval: merge: \d+ \(case, trial\) units are in no shard given \(shards 1, 2 of 3\): .+; add the missing shards, or finish them with --resume\n$/,
    );
    const twice = await runCli(["merge", join(dir, "reports", "m2"), s(1), s(1), s(2), s(3)], dir);
    expect(twice.stderr).toMatch(
      /s1 and .*s1 are both shard 1\/3 \(the same shard given twice\?\)/,
    );
    expect(
      (
        await runCli(
          [
            "run",
            "--run-id",
            "other",
            "--shard",
            "3/3",
            "--no-progress",
            "-n",
            "2",
            "--retriever",
            "bm25",
            "-k",
            "6",
          ],
          dir,
        )
      ).code,
    ).toBeLessThanOrEqual(1);
    const other = await runCli(
      ["merge", join(dir, "reports", "m3"), s(1), s(2), join(dir, "reports", "other")],
      dir,
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("is not a shard of the same run as");
    expect(other.stderr).toContain("trials 3 → 2");
    const plain = await runCli(
      ["merge", join(dir, "reports", "m4"), join(dir, "reports", "whole")],
      dir,
    );
    expect(plain.stderr).toContain(
      "is not a shard (its run.json has no shard; run it with --shard I/N)",
    );
    function s2() {
      return s(2);
    }
  });

  it("a bad --shard is a usage error, and --resume keeps a shard a shard", async () => {
    expect((await runCli(["run", "--shard", "4/3", "--no-progress"], dir)).stderr).toContain(
      "expected I/N with 1 ≤ I ≤ N, e.g. 2/3.",
    );
    const resumed = await runCli(
      ["run", "--resume", join(dir, "reports", "s1"), "--shard", "2/3", "--no-progress"],
      dir,
    );
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain("shard 1/3 → 2/3");
    // Without --shard, --resume continues the shard it reopens.
    const again = await runCli(
      ["run", "--resume", join(dir, "reports", "s1"), "--no-progress"],
      dir,
    );
    expect(again.code, again.stderr).toBeLessThanOrEqual(1);
    expect(again.stderr).toMatch(/resuming .*s1: (\d+) of \1 trials kept/);
  });

  it("shards of a config with variants: merge gives the unsharded experiment.json (ids and times apart), the gates evaluated again", async () => {
    const config = join(dir, "variants.yaml");
    writeFileSync(
      config,
      `${readFileSync(join(dir, "route-eval.yaml"), "utf8")}\nvariants:\n  - name: bm25 k=6\n    discovery: {retriever: bm25, k: 6}\n  - name: purpose only\n    descriptions: purpose\n`.replace(
        "gates:\n",
        'gates:\n  variants:\n    bm25 k=6: {end_to_end_accuracy: ">= base"}\n',
      ),
    );
    const run = (...extra: string[]) =>
      runCli(["run", "-c", config, "--no-progress", "-f", "json", ...extra], dir);
    const whole = await run("--run-id", "exp-whole");
    expect(whole.code, whole.stderr).toBeLessThanOrEqual(1);
    for (const i of [1, 2, 3]) {
      const shard = await run("--run-id", `exp-s${i}`, "--shard", `${i}/3`);
      expect(shard.code, shard.stderr).toBeLessThanOrEqual(1);
    }
    const s2 = JSON.parse(readFileSync(join(dir, "reports", "exp-s2", "experiment.json"), "utf8"));
    expect(s2.shard).toEqual({ index: 2, count: 3 });
    expect(s2.notes[0]).toMatch(
      /^shard 2\/3: these comparisons cover this shard's \(case, trial\) units only/,
    );
    expect(
      JSON.parse(
        readFileSync(join(dir, "reports", "exp-s2", "variants", "bm25-k-6", "run.json"), "utf8"),
      ).shard,
    ).toEqual({ index: 2, count: 3 });
    expect(
      fileSchemaErrors("experiment.schema.json", join(dir, "reports", "exp-s2", "experiment.json")),
    ).toBeNull();
    expect(
      fileSchemaErrors(
        "run.schema.json",
        join(dir, "reports", "exp-s2", "variants", "bm25-k-6", "run.json"),
      ),
    ).toBeNull();
    const merged = await runCli(
      [
        "merge",
        join(dir, "reports", "exp-merged"),
        ...[3, 1, 2].map((i) => join(dir, "reports", `exp-s${i}`)),
        "-f",
        "json",
      ],
      dir,
    );
    expect(merged.code, merged.stderr).toBe(whole.code);
    expect(merged.stderr).toContain(
      `merged 3 experiment shards into ${join(dir, "reports", "exp-merged")}`,
    );
    const experiment = (id: string) => {
      const e = JSON.parse(readFileSync(join(dir, "reports", id, "experiment.json"), "utf8"));
      for (const key of ["experiment_id", "started_at", "finished_at"]) delete e[key];
      return JSON.stringify(e, withoutLatency, 2).replaceAll(join(dir, "reports", id), "<dir>");
    };
    expect(experiment("exp-merged")).toBe(experiment("exp-whole"));
    expect(
      fileSchemaErrors(
        "experiment.schema.json",
        join(dir, "reports", "exp-merged", "experiment.json"),
      ),
    ).toBeNull();
    expect(JSON.parse(experiment("exp-merged")).gates.map((g: { rule: string }) => g.rule)).toEqual(
      ["bm25 k=6: end_to_end_accuracy >= base"],
    );
    for (const slug of ["base", "bm25-k-6", "purpose-only"]) {
      expect(
        normalised(join(dir, "reports", "exp-merged", "variants", slug, "report.json")),
        slug,
      ).toBe(normalised(join(dir, "reports", "exp-whole", "variants", slug, "report.json")));
    }
    // A shard given twice, and a run shard mixed in, are refused before anything is written.
    const twice = await runCli(
      [
        "merge",
        join(dir, "reports", "exp-m2"),
        join(dir, "reports", "exp-s1"),
        join(dir, "reports", "exp-s1"),
      ],
      dir,
    );
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/are both shard 1\/3 \(the same shard given twice\?\)/);
    const mixed = await runCli(
      [
        "merge",
        join(dir, "reports", "exp-m3"),
        join(dir, "reports", "exp-s1"),
        join(dir, "reports", "s2"),
      ],
      dir,
    );
    expect(mixed.stderr).toMatch(
      /is an experiment shard and .* is a run shard; give the shards of one run, experiment or sweep/,
    );
    expect(existsSync(join(dir, "reports", "exp-m2"))).toBe(false);
    const missing = await runCli(
      [
        "merge",
        join(dir, "reports", "exp-m4"),
        join(dir, "reports", "exp-s1"),
        join(dir, "reports", "exp-s3"),
      ],
      dir,
    );
    expect(missing.stderr).toMatch(/units are in no shard given \(shards 1, 3 of 3\)/);
    expect(existsSync(join(dir, "reports", "exp-m4"))).toBe(false);
  }, 120_000);

  it("shards of a sweep: merge gives the unsharded sweep.json and sweep.csv (ids and times apart)", async () => {
    const sweep = (...extra: string[]) =>
      runCli(["sweep", "--sizes", "3,6", "--trials", "2", "-f", "json", ...extra], dir);
    expect((await sweep("--sweep-id", "sw-whole")).code).toBe(0);
    for (const i of [1, 2])
      expect((await sweep("--sweep-id", `sw-s${i}`, "--shard", `${i}/2`)).code).toBe(0);
    expect(
      JSON.parse(readFileSync(join(dir, "reports", "sw-s1", "sweep.json"), "utf8")).shard,
    ).toEqual({ index: 1, count: 2 });
    expect(
      fileSchemaErrors("sweep.schema.json", join(dir, "reports", "sw-s1", "sweep.json")),
    ).toBeNull();
    const merged = await runCli(
      [
        "merge",
        join(dir, "reports", "sw-merged"),
        join(dir, "reports", "sw-s1"),
        join(dir, "reports", "sw-s2"),
        "-f",
        "json",
      ],
      dir,
    );
    expect(merged.code, merged.stderr).toBe(0);
    const summary = (id: string) => {
      const s = JSON.parse(readFileSync(join(dir, "reports", id, "sweep.json"), "utf8"));
      for (const key of ["sweep_id", "started_at", "finished_at"]) delete s[key];
      return JSON.stringify(s, withoutLatency, 2);
    };
    expect(summary("sw-merged")).toBe(summary("sw-whole"));
    // sweep.csv: every column but the two latency ones.
    const csv = (id: string) => {
      const lines = readFileSync(join(dir, "reports", id, "sweep.csv"), "utf8").split("\n");
      const keep = lines[0].split(",").map((column) => !column.includes("latency"));
      return lines.map((line) =>
        line
          .split(",")
          .filter((_, i) => keep[i])
          .join(","),
      );
    };
    expect(csv("sw-merged")).toEqual(csv("sw-whole"));
    expect(normalised(join(dir, "reports", "sw-merged", "size-06", "report.json"))).toBe(
      normalised(join(dir, "reports", "sw-whole", "size-06", "report.json")),
    );
    const other = await runCli(
      ["sweep", "--sizes", "3,5", "--trials", "2", "--sweep-id", "sw-other", "--shard", "2/2"],
      dir,
    );
    expect(other.code).toBe(0);
    const refused = await runCli(
      [
        "merge",
        join(dir, "reports", "sw-m2"),
        join(dir, "reports", "sw-s1"),
        join(dir, "reports", "sw-other"),
      ],
      dir,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("is not a shard of the same sweep as");
    expect(refused.stderr).toContain("settings");
  }, 120_000);
});
