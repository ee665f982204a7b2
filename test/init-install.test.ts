/**
 * Adopting route-eval in another project: `route-eval init` from each source (a small example,
 * MCP over stdio and from a file, OpenAI and Anthropic tools arrays), the scaffold's lint (TODO
 * goals are the only errors), a filled-in scaffold that runs; and the package itself packed and
 * installed into an empty project offline — from the tarball and from git — then init, lint, run
 * and the library there.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { renderDescription } from "../src/registry/render-definition.js";
import { loadRegistry } from "../src/registry/load-registry.js";
import { runCli, tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SERVER = fileURLToPath(new URL("./fixtures/mcp/paged-server.mjs", import.meta.url));
const commerce = loadRegistry(join(ROOT, "registries", "commerce.yaml"), ROOT).tools.slice(0, 6);

/** The lint findings of the project, as "severity rule" counts. */
async function lintCounts(dir: string): Promise<{ code: number; counts: Record<string, number> }> {
  const result = await runCli(["lint", "--format", "json"], dir);
  const findings = JSON.parse(result.stdout).findings as { severity: string; rule: string }[];
  const counts: Record<string, number> = {};
  for (const f of findings)
    counts[`${f.severity} ${f.rule}`] = (counts[`${f.severity} ${f.rule}`] ?? 0) + 1;
  return { code: result.code, counts };
}

/** Replaces every TODO goal with a real request (what a user does next). */
function fillGoals(dir: string, file: string): void {
  const path = join(dir, "cases", file);
  const text = readFileSync(path, "utf8").replace(
    /goal: "TODO: [^"]*"/g,
    (_match, offset: number) => `goal: "Please help with request number ${offset}"`,
  );
  writeFileSync(path, text);
}

describe("route-eval init", () => {
  it("scaffolds a small example whose lint errors are the TODO goals only, and runs once they are filled in", async () => {
    const dir = tempDir();
    const result = await runCli(["init"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      /^route-eval init: 4 tools, 2 phases proposed, 8 starter cases with TODO goals\.\n/,
    );
    // Laid out to the terminal: at 60 columns no line is longer.
    const narrow = await runCli(["init", "--force"], { cwd: dir, env: { COLUMNS: "60" } });
    expect(narrow.stdout.split("\n").filter((line) => line.length > 60)).toEqual([]);
    expect(narrow.stdout.replace(/\s+/g, " ")).toContain(
      "then: npx route-eval lint && npx route-eval run",
    );
    expect(result.stderr).toBe(
      "wrote route-eval.yaml\nwrote registries/example.yaml\nwrote cases/example.yaml\nwrote .gitignore: reports/* !reports/baselines/ .route-eval/\n",
    );
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(
      /^# route-eval: .*\nreports\/\*\n!reports\/baselines\/\n\.route-eval\/\n$/,
    );
    // As git reads it: a run and the store are ignored, a saved baseline is not (it is committed).
    execFileSync("git", ["init", "-q"], { cwd: dir });
    const ignored = (path: string) =>
      spawnSync("git", ["check-ignore", "-q", path], { cwd: dir }).status === 0;
    expect([
      ignored("reports/20261204-101500-baseline/run.json"),
      ignored(".route-eval/store/packs/a.jsonl"),
      ignored("reports/baselines/main/run.json"),
    ]).toEqual([true, true, false]);
    const config = readFileSync(join(dir, "route-eval.yaml"), "utf8");
    expect(config.split("\n")[0]).toMatch(
      /^# yaml-language-server: \$schema=.*schemas\/config\.schema\.json$/,
    );
    expect(parse(config).phases).toEqual({
      lookup: { families: ["orders"], max_effect: "read_only" },
      act: { max_effect: "mutating" },
    });
    const cases = parse(readFileSync(join(dir, "cases", "example.yaml"), "utf8")).cases as {
      id: string;
      acceptable: string[];
      forbidden?: string[];
    }[];
    expect(cases.map((c) => [c.id, c.acceptable, c.forbidden ?? []])).toEqual([
      ["get_order-exact", ["get_order"], []],
      ["search_orders-free-text", ["search_orders"], []],
      ["get_order-not-refund_order", ["get_order"], ["refund_order"]],
      ["refund_order-complete", ["refund_order"], []],
      ["refund_order-missing-info", ["ask_user"], ["refund_order"]],
      ["send_email-complete", ["send_email"], []],
      ["send_email-missing-info", ["ask_user"], ["send_email"]],
      ["out-of-scope", ["no_applicable_tool"], []],
    ]);
    const lint = await lintCounts(dir);
    expect(lint.code).toBe(1);
    expect(Object.entries(lint.counts).filter(([key]) => key.startsWith("error"))).toEqual([
      ["error case-todo-goal", 8],
    ]);
    // Placeholders are not scored: run refuses them in one line, naming how many and the first.
    const early = await runCli(["run", "--no-progress"], dir);
    expect(early.code).toBe(2);
    expect(early.stderr).toMatch(
      /^route-eval: 8 of 8 cases still have a TODO goal as route-eval init wrote them \(the first: cases\/example\.yaml:\d+: case "get_order-exact"\); write each as a real request — route-eval lint lists them all\n$/,
    );
    expect(existsSync(join(dir, "reports"))).toBe(false);
    for (const file of ["route-eval.yaml", "cases/example.yaml", "registries/example.yaml"]) {
      const schema = /\$schema=(\S+)/.exec(readFileSync(join(dir, file), "utf8"))?.[1] ?? "";
      expect(existsSync(resolve(dirname(join(dir, file)), schema)), `${file}: ${schema}`).toBe(
        true,
      );
    }

    fillGoals(dir, "example.yaml");
    expect((await lintCounts(dir)).code).toBe(0);
    const run = await runCli(["run", "--no-progress", "-f", "json"], dir);
    // No starter gate: the first honest run of the starter cases cannot fail one chosen before it.
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).metrics.trials).toBe(24);
    expect(JSON.parse(run.stdout).gates).toEqual([]);
  });

  it("refuses to overwrite without --force, naming the files", async () => {
    const dir = tempDir();
    await runCli(["init"], dir);
    const again = await runCli(["init"], dir);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(
      "route-eval: init: route-eval.yaml, registries/example.yaml, cases/example.yaml already exist; pass --force to overwrite, or --name to write other registry and case files\n",
    );
    // An existing .gitignore keeps its lines and gains only what it lacks, once.
    writeFileSync(join(dir, ".gitignore"), "node_modules\n/reports");
    const forced = await runCli(["init", "--force"], dir);
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain("added to .gitignore: .route-eval/\n");
    // Wrapped to the terminal's width (80 columns here): no line longer, the words as written.
    expect(forced.stderr.split("\n").filter((line) => line.length > 80)).toEqual([]);
    expect(forced.stderr.replace(/\s+/g, " ")).toContain(
      "note: .gitignore ignores reports/ whole, so git cannot keep a baseline under reports/baselines/",
    );
    expect((await runCli(["init", "--force"], dir)).stderr).not.toContain(".gitignore");
    expect(readFileSync(join(dir, ".gitignore"), "utf8")).toMatch(
      /^node_modules\n\/reports\n# route-eval: [^\n]*\n\.route-eval\/\n$/,
    );
    // --force never writes through a symbolic link: refused before anything is written.
    const linked = tempDir();
    writeFileSync(join(linked, "elsewhere.txt"), "precious");
    symlinkSync(join(linked, "elsewhere.txt"), join(linked, "route-eval.yaml"));
    const through = await runCli(["init", "--force"], linked);
    expect(through.code).toBe(2);
    expect(through.stderr).toBe(
      "route-eval: route-eval.yaml is a symbolic link; route-eval does not write through links — remove the link (or write these files elsewhere), then run again\n",
    );
    expect(readFileSync(join(linked, "elsewhere.txt"), "utf8")).toBe("precious");
    expect(existsSync(join(linked, "registries"))).toBe(false);
  });

  // The paged MCP server fixture holds a broken output schema on purpose (see import-roundtrip.test.ts).
  const sources: [string, (dir: string) => string[], string, string[]?][] = [
    [
      "--from-openai",
      (dir) => {
        writeFileSync(
          join(dir, "tools.json"),
          JSON.stringify(
            commerce.map((t) => ({
              type: "function",
              function: {
                name: t.name,
                description: renderDescription(t),
                parameters: t.input_schema,
              },
            })),
          ),
        );
        return ["--from-openai", "tools.json"];
      },
      "tools",
    ],
    [
      "--from-anthropic",
      (dir) => {
        writeFileSync(
          join(dir, "claude.json"),
          JSON.stringify(
            commerce.map((t) => ({
              name: t.name,
              description: renderDescription(t),
              input_schema: t.input_schema,
            })),
          ),
        );
        return ["--from-anthropic", "claude.json"];
      },
      "claude",
    ],
    [
      "--from-mcp",
      (dir) => {
        writeFileSync(
          join(dir, "listing.json"),
          JSON.stringify({
            tools: commerce.map((t) => ({
              name: t.name,
              description: renderDescription(t),
              inputSchema: t.input_schema,
            })),
          }),
        );
        return ["--from-mcp", "listing.json"];
      },
      "listing",
    ],
    [
      "--from-mcp-command",
      () => ["--from-mcp-command", `"${process.execPath}" "${SERVER}"`, "--name", "invoices"],
      "invoices",
      ["error schema-invalid"],
    ],
  ];
  for (const [flag, prepare, name, expected = []] of sources) {
    it(`${flag}: imports the tools, proposes cases from their rivals and write tools, lints with TODO errors only`, async () => {
      const dir = tempDir();
      const result = await runCli(["init", ...prepare(dir)], dir);
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(join(dir, "registries", `${name}.yaml`))).toBe(true);
      const cases = parse(readFileSync(join(dir, "cases", `${name}.yaml`), "utf8")).cases as {
        id: string;
        goal: string;
      }[];
      expect(cases.every((c) => c.goal.startsWith("TODO:"))).toBe(true);
      expect(cases.at(-1)?.id).toBe("out-of-scope");
      const lint = await lintCounts(dir);
      const errors = Object.entries(lint.counts).filter(([key]) => key.startsWith("error"));
      expect(errors.map(([key]) => key).filter((key) => key !== "error case-todo-goal")).toEqual(
        expected,
      );
      expect(lint.counts["error case-todo-goal"]).toBe(cases.length);
      // Every phase init proposes admits tools (imported MCP tools are destructive until reviewed).
      expect(lint.counts["warning surface-empty"] ?? 0).toBe(0);
    }, 30_000);
  }
});

describe("installed into another project", () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const env = {
    ...process.env,
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };

  /**
   * An empty project that depends on route-eval through `spec`, installed with `npm ci --offline`:
   * its lockfile is made from route-eval's own, so every dependency comes from the npm cache that
   * installing route-eval itself filled (no network, no packument).
   */
  function installInto(dir: string, spec: string, resolved: string): (...args: string[]) => string {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
    const packages: Record<string, unknown> = {
      "": { name: "my-agent", devDependencies: { "route-eval": spec } },
    };
    packages["node_modules/route-eval"] = {
      version: pkg.version,
      resolved,
      dev: true,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
      peerDependencies: pkg.peerDependencies,
      peerDependenciesMeta: pkg.peerDependenciesMeta,
    };
    for (const [path, entry] of Object.entries(
      lock.packages as Record<string, { dev?: boolean }>,
    )) {
      if (path.startsWith("node_modules/") && entry.dev !== true)
        packages[path] = { ...entry, dev: true };
    }
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify(
        {
          name: "my-agent",
          private: true,
          type: "module",
          devDependencies: { "route-eval": spec },
        },
        null,
        2,
      ),
    );
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({ name: "my-agent", lockfileVersion: 3, requires: true, packages }, null, 2),
    );
    execFileSync("npm", ["ci", "--offline"], { cwd: dir, env, stdio: "pipe" });
    return (...args: string[]) =>
      execFileSync("npx", ["--no-install", "route-eval", ...args], {
        cwd: dir,
        env,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
      });
  }

  /** What a newcomer does next: init, fill the goals, lint, run — with the editor's schema paths resolving. */
  function adopt(dir: string, npx: (...args: string[]) => string): void {
    expect(npx("--version").trim()).toBe(pkg.version);
    npx("init");
    expect(readFileSync(join(dir, "route-eval.yaml"), "utf8").split("\n")[0]).toBe(
      "# yaml-language-server: $schema=./node_modules/route-eval/schemas/config.schema.json",
    );
    // Each file's $schema resolves from its own folder to a schema that exists (editors follow it so).
    for (const file of ["route-eval.yaml", "cases/example.yaml", "registries/example.yaml"]) {
      const schema = /\$schema=(\S+)/.exec(readFileSync(join(dir, file), "utf8"))?.[1] ?? "";
      expect(existsSync(resolve(dirname(join(dir, file)), schema)), `${file}: ${schema}`).toBe(
        true,
      );
    }
    fillGoals(dir, "example.yaml");
    npx("lint");
    let out = "";
    try {
      out = npx("run", "--no-progress", "-f", "json", "--run-id", "first");
    } catch (error) {
      out = String((error as { stdout?: string }).stdout ?? ""); // exit 1: a gate of the starter config failed
    }
    expect(JSON.parse(out).metrics.trials).toBe(24);
  }

  it("npm pack ships what a user needs and nothing else; installed offline from the tarball, the CLI, the library and its types work", () => {
    const dir = tempDir("route-eval-adopt-");
    // dist/ is built by `npm test` before the tests; packing must not rebuild it under the other tests' feet.
    const [packed] = JSON.parse(
      execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], {
        cwd: ROOT,
        encoding: "utf8",
      }),
    );
    const files = (packed.files as { path: string }[]).map((f) => f.path);
    for (const file of [
      "LICENSE",
      "README.md",
      "package.json",
      "action.yml",
      "bin/route-eval.js",
      "bin/build-dist.js",
      "dist/cli.js",
      "dist/index.js",
      "dist/index.d.ts",
      "src/index.ts",
      "schemas/cases.schema.json",
      "schemas/config.schema.json",
      "schemas/registry.schema.json",
      "scripts/action/run.mjs",
      "scripts/action/comment.mjs",
      "scripts/action/cache-key.mjs",
      "scripts/action/markdown.mjs",
      // The padding registry docs/sweeps.md names, for --distractor-registry in an installed project.
      "registries/distractors.yaml",
    ]) {
      expect(files, file).toContain(file);
    }
    expect(
      files.filter((f) =>
        /^(test|bench|reports|cases|registries\/(?!distractors\.yaml$)|docs|node_modules|\.ci|\.dist)|^scripts\/(?!action\/)|\.test\.ts$/.test(
          f,
        ),
      ),
    ).toEqual([]);

    const npx = installInto(dir, `file:${packed.filename}`, `file:${packed.filename}`);
    adopt(dir, npx);
    // The padding registry docs/sweeps.md names is there for a size sweep of the project's own cases.
    const padded = JSON.parse(
      npx(
        "sweep",
        "--sizes",
        "8",
        "--trials",
        "1",
        "--no-progress",
        "-f",
        "json",
        "--distractor-registry",
        "node_modules/route-eval/registries/distractors.yaml",
      ),
    );
    expect(padded.settings.distractor_registry.snapshot).toBe("commerce-neighbours");
    // The library: the documented entry points, from the package name, with types a TypeScript project resolves.
    writeFileSync(
      join(dir, "again.ts"),
      [
        'import { buildReport, loadConfig, loadCases, readRun, renderReport, type Report } from "route-eval";',
        "const config = loadConfig(null, {}, process.cwd());",
        'const { meta, records } = readRun("reports/first");',
        "const report: Report = buildReport(meta, records);",
        'console.log(JSON.stringify({ cases: loadCases(config).length, trials: report.metrics.trials, head: renderReport(report, "markdown", { color: false, gates: report.gates }).split("\\n")[0] }));',
      ].join("\n"),
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    execFileSync(
      process.execPath,
      [
        tsc,
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--target",
        "es2022",
        "--strict",
        "--types",
        "node",
        "--typeRoots",
        join(ROOT, "node_modules", "@types"),
        "--skipLibCheck",
        "--outDir",
        ".",
        "again.ts",
      ],
      { cwd: dir, stdio: "pipe" },
    );
    const again = JSON.parse(
      execFileSync(process.execPath, ["again.js"], { cwd: dir, encoding: "utf8" }),
    );
    expect(again).toEqual({ cases: 8, trials: 24, head: "## route-eval report" });
    // From a CommonJS project too (no top-level await in the library's module graph).
    writeFileSync(
      join(dir, "common.cjs"),
      'const { loadConfig, loadCases } = require("route-eval"); console.log(loadCases(loadConfig(null, {}, process.cwd())).length);',
    );
    expect(
      execFileSync(process.execPath, ["common.cjs"], { cwd: dir, encoding: "utf8" }).trim(),
    ).toBe("8");
  }, 180_000);

  it("installed from git without the dev toolchain: no install script runs, the first start builds dist/ from src/ with runtime dependencies only", () => {
    // A git repository of route-eval's tracked files as they are now (in CI: the commit under test).
    const repo = tempDir("route-eval-git-");
    const tracked = execFileSync("git", ["ls-files", "-co", "--exclude-standard"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => f !== "" && !/^(test|bench|docs|reports)\//.test(f));
    for (const file of tracked) cpSync(join(ROOT, file), join(repo, file), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=ci@example.invalid", "-c", "user.name=ci", ...args], {
        cwd: repo,
        encoding: "utf8",
      }).trim();
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "route-eval");
    const dir = tempDir("route-eval-adopt-git-");
    const npx = installInto(
      dir,
      `git+file://${repo}`,
      `git+file://${repo}#${git("rev-parse", "HEAD")}`,
    );
    expect(existsSync(join(dir, "node_modules", "route-eval", "dist"))).toBe(false);
    for (const dev of Object.keys(pkg.devDependencies))
      expect(existsSync(join(dir, "node_modules", dev)), dev).toBe(false);
    adopt(dir, npx);
    expect(existsSync(join(dir, "node_modules", "route-eval", "dist", "index.js"))).toBe(true);
  }, 180_000);
});
