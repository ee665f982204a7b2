/**
 * `import mcp` of a server whose catalogue is behind search (FastMCP 3.1 search transforms:
 * tools/list answers search_tools and call_tool only), served by the official MCP SDK over stdio
 * and over Streamable HTTP (test/fixtures/mcp/search-server.mjs): the catalogue is read whole
 * through the search, the same over both transports; a BM25 search, which cannot list
 * everything, is refused with the reason.
 */
import { fileURLToPath } from "node:url";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { describe, expect, it } from "vitest";
import { importMcp } from "./support/import-mcp.js";
import { serveMcpOverHttp } from "./fixtures/mcp/http-server.js";
import { CATALOGUE, serveSearch } from "./fixtures/mcp/search-server.mjs";

const SERVER = fileURLToPath(new URL("./fixtures/mcp/search-server.mjs", import.meta.url));

describe("import mcp from a server that puts its catalogue behind search", () => {
  it("reads the whole catalogue through search_tools, the same over stdio and Streamable HTTP", async () => {
    const stdio = await importMcp(["--command", `node ${SERVER}`]);
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

    const http = await serveMcpOverHttp(() => {
      const server = new Server(
        { name: "searchable", version: "3.1.0" },
        { capabilities: { tools: {} } },
      );
      serveSearch(server);
      return server;
    });
    try {
      const remote = await importMcp(["--url", http.url]);
      expect(remote.result.code).toBe(0);
      expect(remote.registry.tools).toEqual(stdio.registry.tools);
    } finally {
      await http.close();
    }
  });

  it("refuses a BM25 search (it ranks and cuts), saying why and what to do", async () => {
    const bm25 = await importMcp(["--command", `node ${SERVER} --bm25`]);
    expect(bm25.result.code).toBe(2);
    expect(bm25.result.stderr).toMatch(
      /its catalogue is behind a search ranked by BM25 \(a query argument\), which returns a few best matches and cannot be made to list every tool; import the catalogue with the search transform off/,
    );
  });
});
