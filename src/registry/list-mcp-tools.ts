/**
 * Reach an MCP server with the official SDK — start it over stdio, or connect to it over
 * Streamable HTTP — and list its tools, every page. The
 * server's answer is returned as plain JSON, to be read like a saved `tools/list` result: the raw
 * `tools/list` request is used rather than `client.listTools()`, which rejects a whole page for one
 * odd tool and compiles every output schema (a broken one would stop the import that should
 * report it).
 */
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StdioClientTransport,
  getDefaultEnvironment,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { PaginatedResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { InputError } from "../errors.js";
import type { JsonValue } from "../types.js";
import { TOOL_VERSION } from "../version.js";

export interface McpListing {
  /** Every page's tools, in order, as JSON. */
  tools: JsonValue[];
  server: { name: string; version: string } | null;
  pages: number;
}

/** A server that keeps returning cursors is broken; stop rather than loop for ever. */
const MAX_PAGES = 10_000;

/** Where an MCP server is: a command that starts it (stdio), or the URL it answers on (Streamable HTTP). */
export type McpServerSpec =
  | {
      transport: "stdio";
      command: string;
      args: string[];
      env?: Record<string, string>;
      cwd: string;
      shown: string;
    }
  | { transport: "http"; url: string; headers: Record<string, string>; shown: string };

/** `--command "node server.js --flag"` as a stdio server. */
export function stdioServer(commandLine: string, cwd: string): McpServerSpec {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined)
    throw new InputError("--command: empty; give the command that starts the MCP server");
  return { transport: "stdio", command, args, cwd, shown: `--command "${commandLine}"` };
}

function openTransport(spec: McpServerSpec): { transport: Transport; stderr: () => string } {
  if (spec.transport === "http") {
    const transport = new StreamableHTTPClientTransport(new URL(spec.url), {
      requestInit: { headers: spec.headers },
    });
    return { transport, stderr: () => "" };
  }
  // A server from a config file gets its own env on top of the SDK's safe defaults (PATH, HOME…), as MCP clients do.
  const env = spec.env === undefined ? undefined : { ...getDefaultEnvironment(), ...spec.env };
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env,
    stderr: "pipe",
  });
  return { transport, stderr: collect(transport.stderr) };
}

export async function listMcpTools(spec: McpServerSpec): Promise<McpListing> {
  const { transport, stderr } = openTransport(spec);
  const client = new Client({ name: "route-eval", version: TOOL_VERSION });
  try {
    await client.connect(transport);
    const tools: JsonValue[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        PaginatedResultSchema,
      );
      pages += 1;
      const listed = toJson(page.tools);
      if (!Array.isArray(listed)) throw new Error(`page ${pages} of tools/list has no tools list`);
      tools.push(...listed);
      cursor = page.nextCursor;
      if (cursor !== undefined && (seen.has(cursor) || pages >= MAX_PAGES))
        throw new Error(`the server repeated cursor "${cursor}"`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    const info = client.getServerVersion();
    return {
      tools,
      server: info === undefined ? null : { name: info.name, version: info.version },
      pages,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const said = meaningfulLines(stderr());
    throw new InputError(
      `${spec.shown}: could not list the MCP server's tools: ${message}${httpStatus(error)}${said ? ` (server stderr: ${said})` : ""}`,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The HTTP status of a refused Streamable HTTP request, and what to do about 401/403. */
function httpStatus(error: unknown): string {
  const code =
    typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  if (typeof code !== "number" || code < 400 || code > 599) return "";
  return ` (HTTP ${code}${code === 401 || code === 403 ? '; give the server\'s credentials with --header "Authorization: Bearer …"' : ""})`;
}

/** The SDK hands back parsed JSON; a round trip drops anything that is not JSON (undefined → null). */
function toJson(value: unknown): JsonValue {
  const json: JsonValue = JSON.parse(JSON.stringify(value ?? null));
  return json;
}

function collect(stream: unknown): () => string {
  let text = "";
  if (isReadable(stream))
    stream.on("data", (chunk: Buffer | string) => (text = (text + chunk.toString()).slice(-4000)));
  return () => text;
}

function isReadable(stream: unknown): stream is Readable {
  return (
    typeof stream === "object" &&
    stream !== null &&
    "on" in stream &&
    typeof stream.on === "function"
  );
}

/** `node "my server.js" --flag 'a b'` → [node, my server.js, --flag, a b]: quotes and backslashes as in a POSIX shell, no expansion. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (
      char === "\\" &&
      i + 1 < line.length &&
      (quote === null || '"\\$`'.includes(line[i + 1]))
    ) {
      word = (word ?? "") + line[++i];
    } else if (quote === '"') {
      if (char === '"') quote = null;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= "";
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? "") + char;
  }
  if (quote !== null) throw new InputError(`--command: unterminated ${quote} quote in "${line}"`);
  if (word !== null) words.push(word);
  return words;
}

/**
 * The lines of a server's stderr that say what went wrong ("Error: Cannot find module …"), not the
 * stack frames, braces and runtime banner around them; the last few of them.
 */
export function meaningfulLines(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter(
      (line) =>
        line !== "" &&
        !/^at\s/.test(line) &&
        !/^[{}()[\]^~\s]*$/.test(line) &&
        !/^Node\.js v\d/.test(line),
    );
  const errors = lines.filter((line) =>
    /\b(error|cannot|not found|no such|denied|failed|refused)\b/i.test(line),
  );
  return (errors.length > 0 ? errors : lines).slice(-3).join(" | ");
}
