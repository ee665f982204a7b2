/**
 * Text from outside is inert: what a model, a server or a registry wrote never reaches stderr, the
 * terminal, Markdown (a PR comment), JUnit or lint output as live escapes, bidi overrides or live
 * Markdown links and images. (HTML pages and frozen YAML: test/fault-table.test.ts.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openaiError, openaiReply, useFakeServers } from "./fixtures/fake-provider.js";
import { removeTempDirs, writeProject } from "./fixtures/live-project.js";
import { runCli } from "./support/cli.js";

afterAll(removeTempDirs);
const ENV = { OPENAI_API_KEY: "sk-test-hostile-0123456789" };
const HOSTILE = "\u001b]0;pwned\u0007\u001b[2J\r\u202eevil\u2066";
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const servers = useFakeServers();

function live(url: string, ...extra: string[]): string[] {
  return [
    "run",
    "-e",
    "openai:test-model",
    "--base-url",
    `${url}/v1`,
    "--mode",
    "live",
    "--no-progress",
    "--no-gates",
    "--no-step-summary",
    "-n",
    "1",
    ...extra,
  ];
}

describe("hostile text stays text", () => {
  it("stderr: a provider's error message with escapes, BEL, CR and bidi overrides is one visible line", async () => {
    const server = await servers.start(() => openaiError(401, `bad key ${HOSTILE}`));
    const result = await runCli(live(server.url), { cwd: writeProject(), env: ENV });
    expect(result.code).toBe(3);
    expect(result.stderr).not.toMatch(RAW);
    expect(result.stderr).toContain("\\u001b]0;pwned\\u0007\\u001b[2J\\u000d\\u202eevil\\u2066");
  });

  it("terminal, Markdown and JUnit: a model-chosen tool name with image syntax and escapes is inert everywhere", async () => {
    const name = `![x](http://evil.example/i.png)${HOSTILE}`;
    const server = await servers.start(() =>
      openaiReply(
        [{ name, arguments: "{}" }],
        `<img src=x onerror=alert(1)> [click](http://evil.example) ${HOSTILE}`,
      ),
    );
    const dir = writeProject();
    for (const format of ["terminal", "markdown", "junit"]) {
      const result = await runCli(live(server.url, "-f", format), { cwd: dir, env: ENV });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout, format).not.toMatch(RAW);
      expect(result.stderr, format).not.toMatch(RAW);
      if (format === "markdown") {
        expect(result.stdout).not.toMatch(/[^\\]\]\(http/);
        expect(result.stdout).not.toContain("<img");
        expect(result.stdout).toContain("![x\\](http://evil.example/i.png)");
      }
      if (format === "junit") expect(result.stdout).not.toContain("<img");
    }
  });

  it("lint: a registry's escapes are visible in findings, not executed", async () => {
    const dir = writeProject();
    const registry = {
      snapshot: "shop",
      revision: "1",
      tools: [
        {
          name: `get_order${HOSTILE}`,
          family: "orders",
          purpose: "Return one order by its id.",
          effect: "read_only",
        },
      ],
    };
    writeFileSync(join(dir, "registries", "shop.yaml"), JSON.stringify(registry));
    const result = await runCli(["lint", join(dir, "registries", "shop.yaml")], dir);
    expect(result.stdout).not.toMatch(RAW);
    expect(result.stdout).toContain("\\u001b]0;pwned");
  });

  it("import: a source's hostile tool name reaches stderr inert", async () => {
    const dir = writeProject();
    const tools = [
      {
        type: "function",
        function: {
          name: `bad.name${HOSTILE}`,
          description: "Does a thing.",
          parameters: { type: "object" },
        },
      },
    ];
    writeFileSync(join(dir, "tools.json"), JSON.stringify(tools));
    const result = await runCli(["import", "openai", join(dir, "tools.json")], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("not a provider-safe name");
    expect(result.stderr).not.toMatch(RAW);
  });
});
