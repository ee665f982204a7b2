/**
 * `import mcp` from where the servers already are: a server on Streamable HTTP (--url, with
 * --header), and every server in MCP client config files (--from-config: Claude Code's .mcp.json,
 * VS Code's .vscode/mcp.json with comments, Claude Desktop's file) — each server's tools a family,
 * a shared tool name prefixed, servers that need what only their client has skipped with the
 * reason. The servers are real: the SDK's Streamable HTTP server on 127.0.0.1 and the stdio
 * fixture server, reached through the SDK's clients.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpMcpServer, type HttpMcpServer } from "./fixtures/mcp/http-server.js";
import { runCli, tempDir } from "./support/cli.js";

const STDIO_SERVER = fileURLToPath(new URL("./fixtures/mcp/paged-server.mjs", import.meta.url));
const TOKEN = "mcp-test-token-0123";
const WEATHER = [
  {
    name: "get_forecast",
    description: "Forecast for a city for the next days.",
    inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    name: "get_alerts",
    description: "Active weather alerts for a region.",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string" } },
      required: ["region"],
    },
  },
  // The same name as the stdio server's: the second one imported is prefixed.
  {
    name: "search_invoices",
    description: "Search weather invoices (a name clash on purpose).",
    inputSchema: { type: "object", properties: {} },
  },
];
let weather: HttpMcpServer;

beforeAll(async () => {
  weather = await startHttpMcpServer("weather", WEATHER, TOKEN);
});
afterAll(async () => weather.close());

type Snapshot = {
  snapshot: string;
  source: string;
  tools: {
    name: string;
    family: string;
    kind?: string;
    tools?: string[];
    declared?: { name?: string };
  }[];
};
/** The snapshot's tools, its server entries (docs/targets.md) apart. */
const toolsOf = (snapshot: Snapshot) => snapshot.tools.filter((tool) => tool.kind !== "server");
const snapshotOf = (file: string): Snapshot => parse(readFileSync(file, "utf8"));

describe("import mcp --url: a server on Streamable HTTP", () => {
  it("lists every page through the SDK's client, with the request headers given", async () => {
    const dir = tempDir();
    const result = await runCli(
      [
        "import",
        "mcp",
        "--url",
        weather.url,
        "--header",
        `Authorization: Bearer ${TOKEN}`,
        "-o",
        "weather.yaml",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("listed 3 tools in 2 pages");
    const snapshot = snapshotOf(join(dir, "weather.yaml"));
    expect(snapshot.snapshot).toBe("weather");
    expect(snapshot.source).toBe(`mcp http: ${weather.url} (server weather 0.9.0, MCP 2025-11-25)`);
    expect(toolsOf(snapshot).map((t) => t.name)).toEqual([
      "get_forecast",
      "get_alerts",
      "search_invoices",
    ]);
    // The token is sent, never written into the snapshot.
    expect(weather.authorizations.at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(readFileSync(join(dir, "weather.yaml"), "utf8")).not.toContain(TOKEN);
  });

  it("a refused request, a URL that is not one and a header without --url are one-line errors (exit 2)", async () => {
    const refused = await runCli(["import", "mcp", "--url", weather.url]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^route-eval: --url ${weather.url.replace(/[.]/g, "\\.")}: could not list the MCP server's tools: .*\\(HTTP 401; give the server's credentials with --header "Authorization: Bearer …"\\)$`,
        "m",
      ),
    );
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    const bad = await runCli(["import", "mcp", "--url", "localhost:3000"]);
    expect(bad.stderr).toBe(
      "route-eval: --url localhost:3000: expected the http(s) URL the MCP server answers on, e.g. http://localhost:3000/mcp\n",
    );
    expect((await runCli(["import", "mcp", "tools.json", "--header", "A: b"])).stderr).toBe(
      "route-eval: --header: only with --url\n",
    );
    expect((await runCli(["import", "mcp", "--url", weather.url, "--command", "x"])).stderr).toBe(
      "route-eval: give one of --command, --url\n",
    );
  });
});

describe("import mcp --from-config: every server the user's clients know", () => {
  function project(): string {
    const dir = tempDir();
    writeFileSync(
      join(dir, ".mcp.json"),
      JSON.stringify(
        {
          mcpServers: {
            invoices: { command: process.execPath, args: [STDIO_SERVER] },
            weather: {
              type: "http",
              url: weather.url,
              headers: { Authorization: "Bearer ${WEATHER_TOKEN}" },
            },
            legacy: { type: "sse", url: "http://127.0.0.1:9/sse" },
            needs_key: {
              command: "node",
              args: ["x.js"],
              env: { API_KEY: "${MISSING_KEY_FOR_TEST}" },
            },
          },
        },
        null,
        2,
      ),
    );
    mkdirSync(join(dir, ".vscode"));
    writeFileSync(
      join(dir, ".vscode", "mcp.json"),
      `{
  // VS Code's file: comments, trailing commas and prompts are allowed here
  "inputs": [{ "id": "gh", "type": "promptString", "password": true }],
  "servers": {
    "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": { "Authorization": "Bearer \${input:gh}" } },
    "invoices-again": { "type": "stdio", "command": "${process.execPath.replace(/\\/g, "\\\\")}", "args": ["${STDIO_SERVER.replace(/\\/g, "\\\\")}"], },
  },
}
`,
    );
    return dir;
  }
  const env = (dir: string) => ({ HOME: join(dir, "home"), WEATHER_TOKEN: TOKEN });

  it("finds the project's files, lists each server, a family per server, and says what it skipped and why", async () => {
    const dir = project();
    const result = await runCli(["import", "mcp", "--from-config", "-o", "servers.yaml"], {
      cwd: dir,
      env: env(dir),
    });
    expect(result.code, result.stderr).toBe(0);
    const snapshot = snapshotOf(join(dir, "servers.yaml"));
    expect(snapshot.snapshot).toBe("mcp-servers");
    const families: Record<string, Snapshot["tools"]> = {};
    for (const tool of toolsOf(snapshot)) (families[tool.family] ??= []).push(tool);
    expect(Object.keys(families)).toEqual(["invoices", "weather", "invoices-again"]);
    // Each server is an entry too, grouping its tools: `weather > get_forecast` is a path to score.
    const servers = snapshot.tools.filter((tool) => tool.kind === "server");
    expect(servers.map((server) => [server.name, server.tools])).toEqual(
      Object.entries(families).map(([family, tools]) => [family, tools.map((tool) => tool.name)]),
    );
    expect(families.invoices).toHaveLength(6);
    expect(families.weather?.map((t) => t.name)).toEqual([
      "get_forecast",
      "get_alerts",
      "weather_search_invoices",
    ]);
    expect(families.weather?.[2].declared?.name).toBe("search_invoices");
    expect(families["invoices-again"]?.[0].name).toBe("invoices-again_get_invoice");
    expect(snapshot.source).toBe("mcp servers of .mcp.json, .vscode/mcp.json (3 of 3)");
    const lines = result.stderr.split("\n");
    expect(lines).toContain(
      'route-eval import: skipped .mcp.json: server "legacy": speaks the legacy SSE transport; route-eval connects over stdio or Streamable HTTP ("type": "http")',
    );
    expect(lines).toContain(
      'route-eval import: skipped .mcp.json: server "needs_key": needs the environment variable MISSING_KEY_FOR_TEST, which is not set',
    );
    expect(lines).toContain(
      'route-eval import: skipped .vscode/mcp.json: server "github": needs ${input:gh}, which only its client can supply (a prompt or client variable); import it with --command or --url instead',
    );
    expect(lines).toContain(
      'route-eval import: server "weather": tool "search_invoices" is also another server\'s; imported as "weather_search_invoices"',
    );
    // The token came from the environment, and is not in the snapshot.
    expect(weather.authorizations.at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(readFileSync(join(dir, "servers.yaml"), "utf8")).not.toContain(TOKEN);
  }, 60_000);

  it("init --from-config scaffolds from the servers the clients know: the snapshot, starter cases and the config", async () => {
    const dir = project();
    const result = await runCli(["init", "--from-config", "--server", "weather"], {
      cwd: dir,
      env: env(dir),
    });
    expect(result.code, result.stderr).toBe(0);
    const snapshot = snapshotOf(join(dir, "registries", "mcp-servers.yaml"));
    expect(toolsOf(snapshot).map((t) => t.name)).toEqual([
      "get_forecast",
      "get_alerts",
      "search_invoices",
    ]);
    expect(readFileSync(join(dir, "registries", "mcp-servers.yaml"), "utf8")).toMatch(
      /^# Written by: route-eval init --from-config --server weather\./m,
    );
    expect(readFileSync(join(dir, "cases", "mcp-servers.yaml"), "utf8")).toContain("goal:");
    expect((await runCli(["init", "--from-config", "--from-openai", "x.json"], dir)).stderr).toBe(
      "route-eval: init: give one source of tools (--from-mcp, --from-mcp-command, --from-config, --from-openai, --from-anthropic or --from-skills)\n",
    );
    expect((await runCli(["init", "--server", "weather"], dir)).stderr).toBe(
      "route-eval: init: --server: only with --from-config\n",
    );
  }, 60_000);

  it("reads a Claude Desktop file given by path, only the servers named; a server that will not start is skipped, none listed is exit 2", async () => {
    const dir = project();
    const desktop = join(dir, "claude_desktop_config.json");
    writeFileSync(
      desktop,
      JSON.stringify({
        mcpServers: {
          weather: { url: weather.url, headers: { Authorization: `Bearer ${TOKEN}` } },
          broken: { command: "route-eval-no-such-server" },
        },
      }),
    );
    const one = await runCli(["import", "mcp", "--from-config", desktop, "--server", "weather"], {
      cwd: dir,
      env: env(dir),
    });
    expect(one.code, one.stderr).toBe(0);
    expect(toolsOf(parse(one.stdout)).map((t) => t.family)).toEqual([
      "weather",
      "weather",
      "weather",
    ]);
    const both = await runCli(["import", "mcp", "--from-config", desktop], {
      cwd: dir,
      env: env(dir),
    });
    expect(both.code, both.stderr).toBe(0);
    expect(both.stderr).toMatch(
      /^route-eval import: skipped server "broken": claude_desktop_config\.json: server "broken" \(route-eval-no-such-server\): could not list the MCP server's tools: /m,
    );
    const none = await runCli(["import", "mcp", "--from-config", desktop, "--server", "broken"], {
      cwd: dir,
      env: env(dir),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /^route-eval: --from-config: no server could be listed: claude_desktop_config\.json: server "broken"/,
    );
    expect(
      (
        await runCli(["import", "mcp", "--from-config", desktop, "--server", "nope"], {
          cwd: dir,
          env: env(dir),
        })
      ).stderr,
    ).toBe("route-eval: --server nope: not in claude_desktop_config.json\n");
  }, 60_000);

  it("with no config anywhere says where it looked (exit 2)", async () => {
    const dir = tempDir();
    const result = await runCli(["import", "mcp", "--from-config"], {
      cwd: dir,
      env: { HOME: join(dir, "home") },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^route-eval: --from-config: no MCP client config found \(looked for .*\.mcp\.json, .*\.vscode\/mcp\.json.*claude_desktop_config\.json\); give the file to read\n$/,
    );
  });
});
