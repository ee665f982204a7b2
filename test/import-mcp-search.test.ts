/**
 * `import mcp` of a server whose catalogue is behind search (FastMCP 3.1 search transforms:
 * tools/list answers search_tools and call_tool only), served by the official MCP SDK over stdio
 * and over Streamable HTTP (test/fixtures/mcp/search-server.mjs): the catalogue is read whole
 * through the search, the same over both transports; a BM25 search, which cannot list
 * everything, is refused with the reason.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { runCli, tempDir } from "./support/cli.js";
import { CATALOGUE, serveSearch } from "./fixtures/mcp/search-server.mjs";

const SERVER = fileURLToPath(new URL("./fixtures/mcp/search-server.mjs", import.meta.url));

async function startHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer((req: IncomingMessage, res) => {
    const server = new Server(
      { name: "searchable", version: "3.1.0" },
      { capabilities: { tools: {} } },
    );
    serveSearch(server);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: () => new Promise((done) => http.close(() => done())),
  };
}

async function importFrom(args: string[]) {
  const dir = tempDir("route-eval-mcp-search-");
  const out = join(dir, "registry.yaml");
  const result = await runCli(["import", "mcp", ...args, "-o", out], { cwd: dir });
  return { result, registry: result.code === 0 ? parse(readFileSync(out, "utf8")) : null };
}

describe("import mcp from a server that puts its catalogue behind search", () => {
  it("reads the whole catalogue through search_tools, the same over stdio and Streamable HTTP", async () => {
    const stdio = await importFrom(["--command", `node ${SERVER}`]);
    expect(stdio.result.code).toBe(0);
    expect(stdio.result.stderr).toMatch(
      /the server lists only search_tools and call_tool: its catalogue of 12 tools was read through search_tools \(\d+ searches, at most 5 tools each\)/,
    );
    const expected = (CATALOGUE as { name: string }[])
      .map((tool) => tool.name.replace(".", "_"))
      .sort();
    const names = (registry: any) => registry.tools.map((tool: any) => tool.name).sort();
    expect(names(stdio.registry)).toEqual(expected);
    expect(stdio.registry.tools.find((t: any) => t.name === "get_invoice_pdf").purpose).toBe(
      "Render an invoice as a PDF link.",
    );

    const http = await startHttp();
    try {
      const remote = await importFrom(["--url", http.url]);
      expect(remote.result.code).toBe(0);
      expect(remote.registry.tools).toEqual(stdio.registry.tools);
    } finally {
      await http.close();
    }
  });

  it("refuses a BM25 search (it ranks and cuts), saying why and what to do", async () => {
    const bm25 = await importFrom(["--command", `node ${SERVER} --bm25`]);
    expect(bm25.result.code).toBe(2);
    expect(bm25.result.stderr).toMatch(
      /its catalogue is behind a search ranked by BM25 \(a query argument\), which returns a few best matches and cannot be made to list every tool; import the catalogue with the search transform off/,
    );
  });
});
