import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildConfigSchema } from "../src/config/config-schema.js";
import { CONFIG_KEYS } from "../src/config/keys.js";
import { runCli } from "./support/cli.js";

describe("the config key table", () => {
  it("is what schemas/config.schema.json says (run `npm run schemas` after changing a row)", () => {
    const file: unknown = JSON.parse(
      readFileSync(new URL("../schemas/config.schema.json", import.meta.url), "utf8"),
    );
    expect(file).toEqual(buildConfigSchema());
  });

  it("gives every row with a flag an option of `route-eval run`, naming its key in the help", async () => {
    const help = (await runCli(["run", "--help"])).stdout.replace(/\s+/g, " ");
    for (const [path, spec] of Object.entries(CONFIG_KEYS)) {
      if (!("flags" in spec) || spec.flags === undefined) continue;
      expect(help).toContain(spec.flags);
      expect(help).toContain(`(config: ${path})`);
    }
  });
});

describe("run.json records every setting", () => {
  it("each key of the config schema is in run.json's config (absent: its default) or named where run.json records it", async () => {
    const { LATER_RUN_KEYS, NOTED_RUN_KEYS, OPTIONAL_RUN_KEYS, RECORDED_ELSEWHERE, RUN_KEYS } =
      await import("../src/types/config.js");
    const schema = buildConfigSchema() as { properties: Record<string, unknown> };
    const recorded = [
      ...RUN_KEYS,
      ...LATER_RUN_KEYS,
      ...OPTIONAL_RUN_KEYS,
      ...NOTED_RUN_KEYS,
      ...Object.keys(RECORDED_ELSEWHERE),
    ];
    expect([...recorded].sort()).toEqual(Object.keys(schema.properties).sort());
    expect(new Set(recorded).size).toBe(recorded.length);
  });

  it("a run with operational settings off their defaults records them (the store relative to the config's folder)", async () => {
    const { mkdtempSync, cpSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "route-eval-runjson-"));
    for (const part of ["route-eval.yaml", "cases", "registries"])
      cpSync(part, join(dir, part), { recursive: true });
    const args = [
      "run",
      "--run-id",
      "r",
      "--no-progress",
      "--trials",
      "1",
      "--store",
      "store-elsewhere",
      "--max-retries",
      "2",
      "--retry-budget-ms",
      "5000",
      "--breaker-window-ms",
      "9000",
      "--retry-base-ms",
      "50",
    ];
    const result = await runCli(args, dir);
    expect(result.code, result.stderr).toBeLessThanOrEqual(1);
    const config = JSON.parse(readFileSync(join(dir, "reports", "r", "run.json"), "utf8")).config;
    expect([
      config.store_dir,
      config.max_retries,
      config.retry_budget_ms,
      config.breaker_window_ms,
      config.retry_base_ms,
    ]).toEqual(["store-elsewhere", 2, 5000, 9000, 50]);
    const plain = await runCli(["run", "--run-id", "p", "--no-progress", "--trials", "1"], dir);
    expect(plain.code, plain.stderr).toBeLessThanOrEqual(1);
    const defaults = JSON.parse(readFileSync(join(dir, "reports", "p", "run.json"), "utf8")).config;
    expect(
      Object.keys(defaults).filter((key) =>
        [
          "store_dir",
          "max_retries",
          "retry_budget_ms",
          "breaker_window_ms",
          "retry_base_ms",
          "headers_env",
        ].includes(key),
      ),
    ).toEqual([]);
  }, 60_000);
});
