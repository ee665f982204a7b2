/**
 * Start an MCP server over stdio with the official SDK and list its tools, every page. The
 * server's answer is returned as plain JSON, to be read like a saved `tools/list` result: the raw
 * `tools/list` request is used rather than `client.listTools()`, which rejects a whole page for one
 * odd tool and compiles every output schema (a broken one would stop the import that should
 * report it).
 */
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
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

export async function listMcpTools(commandLine: string, cwd: string): Promise<McpListing> {
  const [command, ...args] = splitCommandLine(commandLine);
  if (command === undefined) throw new InputError("--command: empty; give the command that starts the MCP server");
  const transport = new StdioClientTransport({ command, args, cwd, stderr: "pipe" });
  const stderr = collect(transport.stderr);
  const client = new Client({ name: "route-eval", version: TOOL_VERSION });
  try {
    await client.connect(transport);
    const tools: JsonValue[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request({ method: "tools/list", params: cursor === undefined ? {} : { cursor } }, PaginatedResultSchema);
      pages += 1;
      const listed = toJson(page.tools);
      if (!Array.isArray(listed)) throw new Error(`page ${pages} of tools/list has no tools list`);
      tools.push(...listed);
      cursor = page.nextCursor;
      if (cursor !== undefined && (seen.has(cursor) || pages >= MAX_PAGES)) throw new Error(`the server repeated cursor "${cursor}"`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    const info = client.getServerVersion();
    return { tools, server: info === undefined ? null : { name: info.name, version: info.version }, pages };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const said = meaningfulLines(stderr());
    throw new InputError(`--command "${commandLine}": could not list the MCP server's tools: ${message}${said ? ` (server stderr: ${said})` : ""}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The SDK hands back parsed JSON; a round trip drops anything that is not JSON (undefined → null). */
function toJson(value: unknown): JsonValue {
  const json: JsonValue = JSON.parse(JSON.stringify(value ?? null));
  return json;
}

function collect(stream: unknown): () => string {
  let text = "";
  if (isReadable(stream)) stream.on("data", (chunk: Buffer | string) => (text = (text + chunk.toString()).slice(-4000)));
  return () => text;
}

function isReadable(stream: unknown): stream is Readable {
  return typeof stream === "object" && stream !== null && "on" in stream && typeof stream.on === "function";
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
    } else if (char === "\\" && i + 1 < line.length && (quote === null || '"\\$`'.includes(line[i + 1]))) {
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
  const lines = stderr.split("\n").map((line) => line.trim()).filter((line) => line !== "" && !/^at\s/.test(line) && !/^[{}()[\]^~\s]*$/.test(line) && !/^Node\.js v\d/.test(line));
  const errors = lines.filter((line) => /\b(error|cannot|not found|no such|denied|failed|refused)\b/i.test(line));
  return (errors.length > 0 ? errors : lines).slice(-3).join(" | ");
}
