/** Typos fail before the first call, at their line, with a did-you-mean where one fits. */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);

function editConfig(dir: string, edit: (config: Record<string, unknown>) => void): void {
  const file = join(dir, "route-eval.yaml");
  const config = JSON.parse(readFileSync(file, "utf8"));
  edit(config);
  writeFileSync(file, JSON.stringify(config, null, 2));
}

const run = (dir: string, ...extra: string[]) =>
  runCli(["run", "--no-progress", "--no-step-summary", ...extra], dir);

describe("typos fail before the first call", () => {
  it("a misspelt gate: route-eval.yaml:LINE, did you mean, and no run directory", async () => {
    const dir = writeProject();
    editConfig(dir, (c) => void (c.gates = { selection_acuracy: ">= 0.9" }));
    const result = await run(dir);
    expect([result.code, result.stderr]).toEqual([
      2,
      'route-eval: route-eval.yaml:26: gates.selection_acuracy: unknown metric (did you mean "selection_accuracy"?)\n',
    ]);
    expect(existsSync(join(dir, "reports"))).toBe(false);
  });

  it("a gate written the wrong way: the same place, what was expected", async () => {
    const dir = writeProject();
    editConfig(dir, (c) => void (c.gates = { pass_hat_k: ">= 0.9" }));
    const result = await run(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'gates.pass_hat_k: expected {k, min} (e.g. {k: 3, min: 0.8}), or name the k: "pass_hat_k.3"',
    );
  });

  it("-k without a retriever", async () => {
    const result = await run(writeProject(), "-k", "3");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'route-eval: --k: no retriever to give it to (the retriever is "none")',
    );
  });

  it("a phase family that is a typo of a registry's: an error at its line; one simply absent: a warning", async () => {
    const dir = writeProject();
    editConfig(
      dir,
      (c) =>
        void (c.phases = {
          orders: { families: ["order"] },
          payments: { families: ["payments", "orders"] },
        }),
    );
    const typo = await run(dir);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^route-eval: route-eval\.yaml:\d+: phases\.orders\.families\[0\]: no registry tool has family "order" \(did you mean "orders"\?\)\n$/,
    );
    editConfig(
      dir,
      (c) =>
        void (c.phases = {
          orders: { families: ["orders", "archive"] },
          payments: { families: ["payments", "orders"] },
        }),
    );
    const absent = await run(dir, "--no-gates");
    expect(absent.code, absent.stderr).toBe(0);
    expect(absent.stderr).toMatch(
      /route-eval\.yaml:\d+: warning: phases\.orders\.families\[1\]: no registry tool has family "archive"/,
    );
  });

  it("a case file whose own registry: does not exist is an error even when --registry overrides it", async () => {
    const dir = writeProject();
    const cases = join(dir, "cases", "cases.yaml");
    writeFileSync(
      cases,
      readFileSync(cases, "utf8").replace("../registries/shop.yaml", "../registries/shopp.yaml"),
    );
    const result = await run(dir, "--registry", join(dir, "registries", "shop.yaml"));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('registry "../registries/shopp.yaml" not found');
    expect(result.stderr).toContain(
      "even though --registry / registry: in route-eval.yaml overrides it",
    );
  });

  it("lint --registry FILE with no cases lints FILE", async () => {
    const dir = writeProject();
    const elsewhere = join(dir, "registries");
    const result = await runCli(["lint", "--registry", join(elsewhere, "shop.yaml")], elsewhere);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("4 tools in 1 registry, 0 cases in 0 files");
  });

  it("a key missing in cached mode with nothing stored: exit 2 (bad configuration) naming the variable, and no empty run folder", async () => {
    const dir = writeProject();
    const result = await runCli(["run", "-e", "openai:test-model", "--no-progress"], {
      cwd: dir,
      env: {},
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("OPENAI_API_KEY is not set");
    expect(result.stderr).toContain("nothing was recorded, so no run directory was kept");
    expect(existsSync(join(dir, "reports")) ? readdirSync(join(dir, "reports")) : []).toEqual([]);
  });
});
