/**
 * `import mcp` of a server that speaks only the MCP revision of 2026-07-28 (stateless: no
 * initialize handshake; `server/discover`; every request's `_meta`), served by the official v2
 * server SDK over stdio and Streamable HTTP (test/fixtures/mcp/modern-server.mjs). The importer's
 * v2 client negotiates the era: the tools come through as sent (JSON Schema 2020-12 by default,
 * their `_meta` kept under declared), the protocol is named in the snapshot's source, and the
 * list's caching hint is said on stderr. A 2025-era server (the v1 SDK fixtures) is still read by
 * the handshake: test/import-mcp-remote.test.ts and test/import-roundtrip.test.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";
import { importMcp } from "./support/import-mcp.js";
import { MODERN_TOOLS, modernHandler } from "./fixtures/mcp/modern-server.mjs";

const SERVER = fileURLToPath(new URL("./fixtures/mcp/modern-server.mjs", import.meta.url));

/** The v2 SDK's web-standard handler behind node:http. */
async function startHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const handler = modernHandler();
  const http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers))
      if (typeof value === "string") headers.set(key, value);
    const answer: Response = await handler.fetch(
      new Request(`http://127.0.0.1${req.url}`, {
        method: req.method,
        headers,
        ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
      }),
    );
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    close: async () => {
      await handler.close();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };
}

describe("import mcp from a 2026-07-28 server (stateless, server/discover)", () => {
  it("reads its tools as sent, over stdio and over Streamable HTTP, and names the revision spoken", async () => {
    const stdio = await importMcp(["--command", `node ${SERVER}`]);
    expect(stdio.result.stderr).toMatch(
      /the server marks its tool list private and cacheable for 0 ms \(ttlMs, cacheScope\)/,
    );
    expect(stdio.result.code).toBe(0);
    expect(stdio.registry.source).toMatch(/\(server rooms 2\.4\.0, MCP 2026-07-28\)$/);
    const book = stdio.registry.tools[0];
    expect(book.input_schema).toEqual(MODERN_TOOLS[0].inputSchema);
    expect(book.declared).toEqual({ _meta: { "com.example/owner": "facilities" } });
    expect([book.purpose, book.use_when]).toEqual([
      "Book a meeting room for a time slot.",
      ["The room and the slot are known."],
    ]);

    const http = await startHttp();
    try {
      const remote = await importMcp(["--url", http.url]);
      expect(remote.result.code).toBe(0);
      expect(remote.registry.source).toBe(
        `mcp http: ${http.url} (server rooms 2.4.0, MCP 2026-07-28)`,
      );
      expect(remote.registry.tools).toEqual(stdio.registry.tools);
    } finally {
      await http.close();
    }
  });

  it("lint finds the 2020-12 schemas valid (the revision's default dialect, no $schema)", async () => {
    const dir = tempDir("route-eval-mcp-modern-lint-");
    const out = join(dir, "rooms.yaml");
    await runCli(["import", "mcp", "--command", `node ${SERVER}`, "-o", out], { cwd: dir });
    const lint = await runCli(["lint", out, "--format", "json"], { cwd: dir });
    const rules = JSON.parse(lint.stdout).findings.map((f: { rule: string }) => f.rule);
    expect(rules).not.toContain("schema-invalid");
    expect(rules).not.toContain("schema-dialect-inferred");
  });
});
