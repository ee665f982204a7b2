/**
 * The MCP SDK is an optional package: without it, `import mcp --command` says how to add it
 * (exit 2) and every other command works. Checked on the built CLI in a copy of the package
 * whose node_modules holds everything but @modelcontextprotocol.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { MCP_SDK_MISSING } from "../src/registry/load-mcp-lister.js";
import { tempDir } from "./support/cli.js";

const ROOT = resolve(".");

function packageWithoutSdk(): string {
  const dir = tempDir("route-eval-no-mcp-");
  for (const part of ["bin", "dist", "schemas", "package.json"])
    cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry === "@modelcontextprotocol" || entry === ".bin") continue;
    symlinkSync(join(ROOT, "node_modules", entry), join(dir, "node_modules", entry));
  }
  return dir;
}

describe("without the optional MCP SDK", () => {
  const dir = packageWithoutSdk();
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(dir, "bin", "route-eval.js"), ...args], {
      cwd: dir,
      encoding: "utf8",
    });

  it("import mcp --command says how to add it, exit 2", () => {
    const result = cli("import", "mcp", "--command", "node server.mjs");
    expect(result.stderr).toBe(`route-eval: ${MCP_SDK_MISSING}\n`);
    expect(result.status).toBe(2);
  });

  it("every other command still runs (the bundled example with the baseline)", () => {
    cpSync(join(ROOT, "cases"), join(dir, "cases"), { recursive: true });
    cpSync(join(ROOT, "registries"), join(dir, "registries"), { recursive: true });
    cpSync(join(ROOT, "route-eval.yaml"), join(dir, "route-eval.yaml"));
    const result = cli(
      "run",
      "--no-progress",
      "--no-step-summary",
      "--out-dir",
      join(dir, "reports"),
    );
    expect(result.stderr).toContain("records and report:");
    expect(result.status).toBe(0);
  });
});
