/** Small things users notice: one error prefix, plain-word YAML errors, did-you-mean, plurals, readable headers. */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { meaningfulLines } from "../src/registry/list-mcp-tools.js";
import { describeRegistries } from "../src/render/run-header.js";
import { runCli, tempDir } from "./support/cli.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function example(): string {
  const dir = tempDir();
  for (const name of ["route-eval.yaml", "cases", "registries"])
    cpSync(join(ROOT, name), join(dir, name), { recursive: true });
  return dir;
}

describe("polish", () => {
  it("commander's usage errors carry the route-eval: prefix like every other error", async () => {
    const result = await runCli(["run", "--bogus"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe("route-eval: unknown option '--bogus'");
  });

  it("with commands loaded on demand, the overall help, help NAME, a mistyped name and --version still work", async () => {
    const names = [
      "run",
      "ablate",
      "counterfactual",
      "tune",
      "init",
      "merge",
      "batch",
      "report",
      "show",
      "sweep",
      "lint",
      "import",
      "diff",
      "freeze",
      "shadow",
      "monitor",
    ];
    const help = await runCli(["--help"], ROOT);
    expect(help.code).toBe(0);
    const listed = help.stdout
      .split("\n")
      .filter((line) => /^  [a-z]/.test(line))
      .map((line) => line.trim().split(/\s/)[0]);
    expect(listed).toEqual([...names, "help"]);
    expect((await runCli(["help", "sweep"], ROOT)).stdout).toContain(
      "Usage: route-eval sweep [options]",
    );
    const typo = await runCli(["--debug", "rnu"], ROOT);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("(Did you mean run?)");
    expect((await runCli(["--version"], ROOT)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect((await runCli(["--debug", "lint", "--help"], ROOT)).stdout).toContain(
      "Usage: route-eval lint [options]",
    );
  });

  it("an over-indented key is named in plain words on its own line", async () => {
    const dir = example();
    writeFileSync(
      join(dir, "cases", "zz.yaml"),
      "registry: ../registries/commerce.yaml\ncases:\n  - id: x\n    goal: y\n      phase: support\n    acceptable: [get_order]\n",
    );
    const result = await runCli(["run", "--no-progress"], dir);
    expect(result.stderr).toBe(
      'route-eval: cases/zz.yaml:5: "phase:" is indented deeper (column 7) than "goal:" on the line above (column 5); keys of one mapping start at the same column — unindent it\n',
    );
  });

  it("an empty case file says so, and a folder without route-eval.yaml says how to start", async () => {
    const dir = example();
    writeFileSync(join(dir, "cases", "zz.yaml"), "");
    expect((await runCli(["run", "--no-progress"], dir)).stderr).toContain(
      "cases/zz.yaml:1: the file is empty; a case file holds `registry:`",
    );
    const empty = tempDir();
    expect((await runCli(["run", "--no-progress"], empty)).stderr).toBe(
      `route-eval: no route-eval.yaml in ${empty} and no case files (cases/*.yaml): create them with \`route-eval init\`, or name a config with --config\n`,
    );
  });

  it("show --case suggests the case id one typo away", async () => {
    const dir = example();
    await runCli(["run", "--run-id", "r", "--no-progress", "--no-gates"], dir);
    const result = await runCli(
      ["show", join(dir, "reports", "r"), "--case", "refund-over-limt"],
      dir,
    );
    expect(result.stderr).toMatch(
      /no case "refund-over-limt" in this run \(106 cases\); did you mean "refund-over-limit"\?\n$/,
    );
  });

  it("a saved baseline has its own id in diff headers; one gate is 'gate', not 'gates'", async () => {
    const dir = example();
    expect(
      (await runCli(["run", "--run-id", "main-1", "--no-progress", "--save-baseline", "main"], dir))
        .code,
    ).toBe(0);
    expect((await runCli(["run", "--run-id", "pr-1", "--no-progress"], dir)).code).toBe(0);
    const diff = await runCli(
      ["diff", join(dir, "reports", "baselines", "main"), join(dir, "reports", "pr-1")],
      { cwd: dir, env: { COLUMNS: "200" } },
    );
    expect(diff.stdout.split("\n")[0]).toMatch(
      /^route-eval diff baseline main \(commerce@[^)]+\) → pr-1 \(commerce@/,
    );
    const file = join(dir, "one-gate.yaml");
    copyFileSync(join(dir, "route-eval.yaml"), file);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        /^gates:[\s\S]*$/m,
        'gates:\n  selection_accuracy: ">= 0.5"\n',
      ),
    );
    const one = await runCli(["run", "-c", file, "--run-id", "g1", "--no-progress"], dir);
    expect(one.stdout).toContain("1 of 1 gate passed");
  });

  it("a report on a bare records file names its folder, and many registries read as a count and the first few", async () => {
    const dir = example();
    await runCli(["run", "--run-id", "r", "--no-progress", "--no-gates"], dir);
    const bare = join(dir, "loose");
    mkdirSync(bare);
    for (const file of ["records.jsonl", "sets.jsonl"])
      copyFileSync(join(dir, "reports", "r", file), join(bare, file));
    const report = await runCli(["report", bare], { cwd: dir, env: { COLUMNS: "200" } });
    expect(report.stdout.split("\n")[0]).toMatch(
      /^route-eval run loose · baseline\/lexical-v1 · no registry · 83 cases \+ 8 conversations of 23 turns × 3 trials · no retriever$/,
    );
    const many = Array.from({ length: 200 }, (_, i) => ({ snapshot: `mcp-${i}`, revision: "1" }));
    expect(describeRegistries(many)).toBe("200 registries (mcp-0@1, mcp-1@1, mcp-2@1, …)");
    expect(describeRegistries(many.slice(0, 2))).toBe("mcp-0@1, mcp-1@1");
  });

  it("-o is --output in every command; the run directory's parent is --out-dir (--out still works, hidden)", async () => {
    const dir = example();
    const written = await runCli(
      ["run", "--run-id", "a", "--no-progress", "--no-gates", "-f", "json", "-o", "report-a.json"],
      dir,
    );
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, "report-a.json"), "utf8")).run.run_id).toBe("a");
    expect(
      (
        await runCli(
          ["run", "--run-id", "b", "--no-progress", "--no-gates", "--out", "elsewhere"],
          dir,
        )
      ).stderr,
    ).toContain(join(dir, "elsewhere", "b"));
    expect((await runCli(["run", "--help"], dir)).stdout).not.toMatch(/--out <dir>/);
    const old = await runCli(
      ["run", "--run-id", "c", "--no-progress", "--no-gates", "-o", "reports"],
      dir,
    );
    expect(old.code).toBe(2);
    expect(old.stderr).toContain(
      "(-o is --output now; the directory that receives runs is --out-dir)",
    );
  });

  it("import mcp --command shows the lines of the server's stderr that say what went wrong", () => {
    const stderr = [
      "node:internal/modules/cjs/loader:1228",
      "  throw err;",
      "  ^",
      "",
      "Error: Cannot find module '/srv/agent.js'",
      "    at Module._resolveFilename (node:internal)",
      "{",
      "  code: 'MODULE_NOT_FOUND'",
      "}",
      "",
      "Node.js v20.20.2",
    ].join("\n");
    expect(meaningfulLines(stderr)).toBe("Error: Cannot find module '/srv/agent.js'");
  });
});

describe("run ids as the headers print them", () => {
  it("show, report, diff and counterfactual find a run by its id under reports/ (and a baseline under reports/baselines/)", async () => {
    const dir = example();
    const run = (id: string, ...extra: string[]) =>
      runCli(["run", "--run-id", id, "--trials", "1", "--no-progress", ...extra], dir);
    expect((await run("r1")).code).toBeLessThanOrEqual(1);
    expect(
      (await run("r2", "--shuffle-tools", "--save-baseline", "main")).code,
    ).toBeLessThanOrEqual(1);
    const show = await runCli(["show", "r1"], dir);
    expect(show.code, show.stderr).toBe(0);
    const diff = await runCli(["diff", "r1", "r2"], dir);
    expect(diff.code, diff.stderr).toBeLessThanOrEqual(1);
    expect(diff.stdout).toMatch(/r1 .*→ .*r2/);
    const againstBaseline = await runCli(["diff", "main", "r1"], dir);
    expect(againstBaseline.code, againstBaseline.stderr).toBeLessThanOrEqual(1);
    expect(againstBaseline.stdout).toContain("baseline main");
    expect((await runCli(["report", "r1", "-f", "json"], dir)).code).toBeLessThanOrEqual(1);
    expect((await runCli(["counterfactual", "r1", "--dry-run"], dir)).code).toBe(0);
    // A name that is no run is refused as before, naming what it takes.
    const missing = await runCli(["show", "r9"], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      "r9: no such file or directory (expected a run directory (reports/<run-id>, or its run id)",
    );
  }, 120_000);
});

describe("a description edited without bumping the revision", () => {
  it("diff tells the two contents of one snapshot@revision apart in its header", async () => {
    const dir = example();
    const run = (id: string) =>
      runCli(["run", "--run-id", id, "--trials", "1", "--no-progress"], dir);
    expect((await run("before")).code).toBeLessThanOrEqual(1);
    const file = join(dir, "registries", "commerce.yaml");
    const text = readFileSync(file, "utf8");
    const edited = text.replace(
      "Look up the current record of one order",
      "Read the current record of one order",
    );
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    expect((await run("after")).code).toBeLessThanOrEqual(1);
    const diff = await runCli(["diff", "before", "after", "-f", "json"], dir);
    const json = JSON.parse(diff.stdout);
    const [base] = json.base.registries;
    const [current] = json.current.registries;
    expect([base.snapshot, base.revision]).toEqual([current.snapshot, current.revision]);
    expect(base.content).toMatch(/^[0-9a-f]{6}$/);
    expect(current.content).toMatch(/^[0-9a-f]{6}$/);
    expect(base.content).not.toBe(current.content);
    const terminal = await runCli(["diff", "before", "after"], {
      cwd: dir,
      env: { COLUMNS: "300" },
    });
    expect(terminal.stdout).toContain(`commerce@${base.revision} (content ${base.content})`);
    expect(terminal.stdout).toContain(`commerce@${current.revision} (content ${current.content})`);
    // The same content on both sides keeps the plain label.
    const same = JSON.parse((await runCli(["diff", "after", "after", "-f", "json"], dir)).stdout);
    expect(same.base.registries[0].content).toBeUndefined();
  }, 120_000);
});
