/**
 * Ablations and variants through the real pipeline: the ladder on the bundled example (each rung's
 * report equals a plain run with that rung's settings; paired statistics equal `route-eval diff`'s),
 * the shared store against a local OpenAI-compatible server, variant validation, SIGKILL + resume.
 */
import { spawn } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse, stringify } from "yaml";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Experiment } from "../src/types/ablate.js";
import { loadConfig } from "../src/config/load-config.js";
import type { Diff } from "../src/types/diff.js";
import { runCli, tempDir } from "./support/cli.js";
import {
  offeredTools,
  openaiReply,
  startFakeServer,
  type FakeServer,
} from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";

afterAll(removeTempDirs);

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin", "route-eval.js");
const ENV = { OPENAI_API_KEY: "sk-test-variants-0123456789" };

/** The bundled example copied to a fresh directory (its config, cases and registries). */
function copyExample(): string {
  const dir = tempDir();
  for (const name of ["route-eval.yaml", "cases", "registries"])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** report.json without what differs between two runs of the same experiment: ids and times. */
function normalised(file: string): string {
  const report = readJson<{ run: Record<string, unknown> }>(file);
  for (const key of ["run_id", "started_at", "finished_at"]) delete report.run[key];
  return JSON.stringify(report, null, 2);
}

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("route-eval ablate on the bundled example (baseline endpoint)", () => {
  it("writes one run per rung and experiment.json; each rung's report equals a plain run with the rung's settings", async () => {
    const dir = copyExample();
    const result = await runCli(["ablate", "--run-id", "ladder", "--no-progress"], dir);
    expect(result.code, result.stderr).toBe(0);
    const experiment = readJson<Experiment>(join(dir, "reports", "ladder", "experiment.json"));
    expect(experiment.kind).toBe("ladder");
    expect(experiment.variants.map((v) => [v.name, v.dir, v.reference])).toEqual([
      ["purpose-only", "variants/purpose-only", null],
      ["+ boundaries", "variants/boundaries", "purpose-only"],
      ["+ exposure", "variants/exposure", "+ boundaries"],
      ["+ controls", "variants/controls", "+ exposure"],
    ]);
    expect(experiment.skipped.map((s) => s.name)).toEqual([
      "+ retrieval",
      "+ tool search",
      "+ router",
    ]);
    expect(experiment.variants.map((v) => v.changes)).toEqual([
      {},
      { descriptions: "full" },
      { exposure: "on" },
      { controls: ["ask_user", "wait_for_event", "no_applicable_tool"] },
    ]);
    // The terminal table names every rung, and the verdict of each pair.
    for (const v of experiment.variants) expect(result.stdout).toContain(v.name);
    expect(result.stdout).toContain("+ boundaries vs purpose-only: helped");

    // Each rung by hand, as a user would write it without ablate: the example's config with the rung's settings.
    const base = parse(readFileSync(join(dir, "route-eval.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    const rungs: [string, Record<string, unknown>][] = [
      ["purpose-only", { descriptions: "purpose", exposure: "off", controls: "off" }],
      ["boundaries", { exposure: "off", controls: "off" }],
      ["exposure", { controls: "off" }],
      ["controls", {}],
    ];
    for (const [slug, settings] of rungs) {
      writeFileSync(join(dir, `${slug}.yaml`), stringify({ ...base, ...settings }));
      const plain = await runCli(
        ["run", "-c", `${slug}.yaml`, "--run-id", `plain-${slug}`, "--no-progress", "-f", "json"],
        dir,
      );
      // Exit 1 is a failed run gate (the lower rungs fall short of the example's gates): the run is complete.
      expect(plain.code, plain.stderr).toBeLessThanOrEqual(1);
      expect(normalised(join(dir, "reports", "ladder", "variants", slug, "report.json"))).toBe(
        normalised(join(dir, "reports", `plain-${slug}`, "report.json")),
      );
    }
  }, 60_000);

  it("computes each pair's paired statistics exactly as route-eval diff does on the two variant directories", async () => {
    const dir = copyExample();
    expect(
      (await runCli(["ablate", "--run-id", "ladder", "--no-progress", "-f", "json"], dir)).code,
    ).toBe(0);
    const experiment = readJson<Experiment>(join(dir, "reports", "ladder", "experiment.json"));
    expect(experiment.comparisons).toHaveLength(3);
    for (const comparison of experiment.comparisons) {
      const dirOf = (name: string) =>
        join(dir, "reports", "ladder", experiment.variants.find((v) => v.name === name)?.dir ?? "");
      const result = await runCli(
        ["diff", dirOf(comparison.reference), dirOf(comparison.variant), "-f", "json", "--force"],
        dir,
      );
      const diff = JSON.parse(result.stdout) as Diff;
      expect(comparison.metrics).toEqual(diff.metrics);
      expect(comparison.outcome).toEqual(diff.outcome);
      expect(comparison.power).toEqual(diff.power);
      expect(comparison.confusions).toEqual(diff.confusions);
      expect(comparison.fixed).toEqual(
        diff.flips.filter((f) => f.kind === "fixed").map((f) => f.case_id),
      );
      expect(comparison.broken).toEqual(
        diff.flips.filter((f) => f.kind === "regressed").map((f) => f.case_id),
      );
    }
  }, 60_000);

  it("re-renders from experiment.json with route-eval report, and gates a rung with gates.variants and --fail-if-worse", async () => {
    const dir = copyExample();
    const config = parse(readFileSync(join(dir, "route-eval.yaml"), "utf8")) as Record<
      string,
      unknown
    >;
    // + controls lowers selection accuracy on this example (abstention cases move from exposure to selection failures).
    config.gates = {
      ...(config.gates as object),
      variants: {
        "+controls": { selection_accuracy: ">= previous" },
        "+ boundaries": { end_to_end_accuracy: ">= 0.5" },
      },
    };
    writeFileSync(join(dir, "route-eval.yaml"), stringify(config));
    const first = await runCli(
      ["ablate", "--run-id", "gated", "--no-progress", "--fail-if-worse", "+ boundaries"],
      dir,
    );
    expect(first.code).toBe(1);
    expect(first.stderr).toContain(
      "route-eval: gate failed: + controls: selection_accuracy >= previous: selection_accuracy 0.653 fails >= + exposure (0.72)",
    );
    const experiment = readJson<Experiment>(join(dir, "reports", "gated", "experiment.json"));
    expect(experiment.gates.map((g) => [g.rule, g.passed])).toEqual([
      ["+ controls: selection_accuracy >= previous", false],
      ["+ boundaries: end_to_end_accuracy >= 0.5", true],
      ["--fail-if-worse + boundaries", true],
    ]);
    const again = await runCli(["report", join(dir, "reports", "gated"), "-f", "markdown"], dir);
    expect(again.code).toBe(1);
    expect(again.stdout).toContain("| + controls | + exposure | no detectable change |");
    const junit = await runCli(["report", join(dir, "reports", "gated"), "-f", "junit"], dir);
    expect(junit.stdout.match(/<testsuite /g)).toHaveLength(5);
    expect(junit.stdout).toContain('<testsuite name="route-eval: + controls" tests="106"');
  }, 60_000);
});

describe("variants: in route-eval.yaml", () => {
  it("loads the README's runnable example: each variant names what it changes", () => {
    const config = loadConfig(join(ROOT, "examples", "variants", "route-eval.yaml"), {}, ROOT);
    expect(config.variants.map((v) => [v.name, v.changes])).toEqual([
      ["purpose only", ["descriptions"]],
      ["bm25 k=8", ["discovery"]],
    ]);
    expect(config.variant_gates.map((g) => [g.variant, g.metric, g.threshold])).toEqual([
      ["bm25 k=8", "end_to_end_accuracy", ">= base"],
    ]);
    expect(config.gates).toEqual({ selection_accuracy: ">= 0.6" });
  });

  function writeVariants(
    dir: string,
    variants: unknown[],
    extra: Record<string, unknown> = {},
  ): void {
    const file = join(dir, "route-eval.yaml");
    const { variants: _old, ...config } = parse(readFileSync(file, "utf8")) as Record<
      string,
      unknown
    >;
    writeFileSync(file, stringify({ ...config, ...extra, variants }));
  }

  it("asks a request shared by two variants once, and a second run asks nothing (local OpenAI-compatible server)", async () => {
    const dir = writeProject();
    // The project's tools have a purpose only, so `descriptions: purpose` sends the very same requests.
    writeVariants(dir, [
      { name: "vague", descriptions: "purpose" },
      { name: "warm", temperature: 0.7 },
    ]);
    server = await startFakeServer((request) => ({
      ...openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
      delayMs: 10,
    }));
    const args = [
      "run",
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--run-id",
      "pair",
    ];
    const first = await runCli(args, { cwd: dir, env: ENV });
    expect(first.code, first.stderr).toBe(0);
    // base and vague: 3 cases × 2 trials asked once; warm: 6 more (temperature is in the request).
    expect(server.requests).toHaveLength(12);
    expect(server.requests.filter((r) => r.body.temperature === 0.7)).toHaveLength(6);
    const experiment = readJson<Experiment>(join(dir, "reports", "pair", "experiment.json"));
    expect(experiment.variants.map((v) => v.name)).toEqual(["base", "vague", "warm"]);
    expect(experiment.comparisons.map((c) => [c.variant, c.reference])).toEqual([
      ["vague", "base"],
      ["warm", "base"],
    ]);
    const second = await runCli([...args.slice(0, -1), "pair-again"], { cwd: dir, env: ENV });
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests).toHaveLength(12);
  }, 30_000);

  it("ablate through the server: rungs whose requests agree share them, and a second ablate asks nothing", async () => {
    const dir = writeProject();
    server = await startFakeServer((request) => ({
      ...openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
      delayMs: 5,
    }));
    const args = [
      "ablate",
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--no-progress",
      "--retry-base-ms",
      "1",
    ];
    const first = await runCli([...args, "--run-id", "one"], { cwd: dir, env: ENV });
    expect(first.code, first.stderr).toBe(0);
    // The tools have a purpose only: + boundaries sends purpose-only's very requests (asked once);
    // + exposure and + controls each change every visible set. 3 cases × 2 trials per distinct rung.
    expect(server.requests).toHaveLength(18);
    const offered = server.requests.map((r) => offeredTools(r.body).join(","));
    expect(
      offered.filter((tools) => tools === "get_order,search_orders,refund_order,send_email"),
    ).toHaveLength(6);
    expect(offered.filter((tools) => tools.includes("no_applicable_tool"))).toHaveLength(6);
    const second = await runCli([...args, "--run-id", "two"], { cwd: dir, env: ENV });
    expect(second.code, second.stderr).toBe(0);
    expect(server.requests).toHaveLength(18);
    expect(
      readFileSync(
        join(dir, "reports", "two", "variants", "controls", "report.json"),
        "utf8",
      ).replace(/"(run_id|started_at|finished_at)": "[^"]*"/g, ""),
    ).toBe(
      readFileSync(
        join(dir, "reports", "one", "variants", "controls", "report.json"),
        "utf8",
      ).replace(/"(run_id|started_at|finished_at)": "[^"]*"/g, ""),
    );
  }, 30_000);

  it("refuses a variant that changes nothing, a setting that cannot vary, and a gate on an unknown variant, at their lines", async () => {
    const dir = writeProject();
    writeVariants(dir, [{ name: "same", trials: 2 }]);
    let result = await runCli(["run", "--no-progress"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^route-eval: route-eval\.yaml:\d+: variants\[0\]: unknown key "trials" \(expected one of: name, registry, /m,
    );

    writeVariants(dir, [{ name: "same", controls: ["no_applicable_tool"] }]);
    result = await runCli(["run", "--no-progress"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/route-eval\.yaml:\d+: variants\[0\] \(same\): changes nothing/);

    writeVariants(dir, [{ name: "hot", temprature: 1 }]);
    result = await runCli(["run", "--no-progress"], dir);
    expect(result.stderr).toContain('unknown key "temprature" (did you mean "temperature"?');

    writeVariants(dir, [{ name: "hot", temperature: 1 }], {
      gates: { variants: { hott: { selection_accuracy: ">= base" } } },
    });
    result = await runCli(["run", "--no-progress"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /route-eval\.yaml:\d+: gates\.variants\.hott\.selection_accuracy: no variant is named "hott" \(did you mean "hot"\?\)/,
    );

    writeVariants(dir, [{ name: "base", temperature: 1 }]);
    result = await runCli(["run", "--no-progress"], dir);
    expect(result.stderr).toContain('"base" is the name of the base config\'s own run');
  });

  it("survives SIGKILL mid-experiment: --resume finishes every variant with each (case, trial) exactly once", async () => {
    const dir = writeProject();
    writeVariants(dir, [
      { name: "warm", temperature: 0.7 },
      { name: "open", exposure: "off" },
    ]);
    let kill: (() => void) | null = null;
    server = await startFakeServer((request, i) => {
      if (i === 30) kill?.();
      return {
        ...openaiReply([{ name: offeredTools(request.body)[0], arguments: "{}" }]),
        delayMs: 10,
      };
    });
    const args = [
      "run",
      "-e",
      "openai:test-model",
      "--base-url",
      `${server.url}/v1`,
      "--mode",
      "live",
      "--no-progress",
      "--retry-base-ms",
      "1",
      "--trials",
      "10",
    ];
    const child = spawn(process.execPath, [BIN, ...args, "--run-id", "killed"], {
      cwd: dir,
      env: { ...process.env, ...ENV },
      stdio: ["ignore", "ignore", "inherit"],
    });
    kill = () => child.kill("SIGKILL");
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, sig) => resolve(sig)),
    );
    expect(signal).toBe("SIGKILL");
    const expDir = join(dir, "reports", "killed");
    const pairs = (slug: string) => {
      try {
        return readFileSync(join(expDir, "variants", slug, "records.jsonl"), "utf8")
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => `${JSON.parse(l).case_id}#${JSON.parse(l).trial}`);
      } catch {
        return [];
      }
    };
    const partial = ["base", "warm", "open"].reduce((sum, slug) => sum + pairs(slug).length, 0);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(90);
    const resumed = await runCli(
      [
        "run",
        "-e",
        "openai:test-model",
        "--base-url",
        `${server.url}/v1`,
        "--mode",
        "live",
        "--no-progress",
        "--retry-base-ms",
        "1",
        "--resume",
        expDir,
      ],
      { cwd: dir, env: ENV },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    for (const slug of ["base", "warm", "open"]) {
      const seen = pairs(slug);
      expect(seen).toHaveLength(30);
      expect(new Set(seen).size).toBe(30);
    }
    expect(readJson<Experiment>(join(expDir, "experiment.json")).finished_at).not.toBeNull();
  }, 30_000);
});
