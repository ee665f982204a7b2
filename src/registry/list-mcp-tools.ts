/**
 * Reach an MCP server with the official client SDK (v2) — start it over stdio, or connect to it
 * over Streamable HTTP — and list its tools, every page. The client negotiates the protocol's era
 * (`versionNegotiation: auto`): a 2026-07-28 server is probed with `server/discover` and asked
 * statelessly (every request carries its `_meta`), an older one gets the `initialize` handshake.
 * The server's answer is returned as plain JSON, to be read like a saved `tools/list` result: each
 * page is taken as sent (a schema that accepts anything) rather than through `client.listTools()`,
 * which rejects a whole page for one odd tool and compiles every output schema (a broken one would
 * stop the import that should report it).
 */
import type { Readable } from "node:stream";
import {
  Client,
  StreamableHTTPClientTransport,
  type StandardSchemaV1,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { InputError } from "../errors.js";
import type { JsonValue } from "../types.js";
import { TOOL_VERSION } from "../version.js";

export interface McpListing {
  /** Every page's tools, in order, as JSON (a search-transformed server: its catalogue, read through its search tool). */
  tools: JsonValue[];
  server: { name: string; version: string } | null;
  pages: number;
  /** How the catalogue was read, when it was not simply listed. */
  notes: string[];
  /** The protocol revision spoken (2026-07-28 and later: the stateless era). */
  protocol: string | null;
}

/** A page exactly as sent: every check of it is route-eval's own, tool by tool. */
const AS_SENT: StandardSchemaV1<unknown, JsonValue> = {
  "~standard": {
    version: 1,
    vendor: "route-eval",
    validate: (value) => ({ value: toJson(value) }),
  },
};

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
  const client = new Client(
    { name: "route-eval", version: TOOL_VERSION },
    { versionNegotiation: { mode: "auto" } },
  );
  try {
    await client.connect(transport);
    const tools: JsonValue[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    let cache: string | null = null;
    do {
      const page = await client.request(
        { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
        AS_SENT,
      );
      pages += 1;
      const listed = isObject(page) ? page.tools : undefined;
      if (!Array.isArray(listed)) throw new Error(`page ${pages} of tools/list has no tools list`);
      tools.push(...listed);
      if (pages === 1 && isObject(page)) cache = describeCache(page);
      cursor = isObject(page) && typeof page.nextCursor === "string" ? page.nextCursor : undefined;
      if (cursor !== undefined && (seen.has(cursor) || pages >= MAX_PAGES))
        throw new Error(`the server repeated cursor "${cursor}"`);
      if (cursor !== undefined) seen.add(cursor);
    } while (cursor !== undefined);
    const info = client.getServerVersion();
    const searched = await readSearchCatalogue(client, tools);
    const protocol = client.getNegotiatedProtocolVersion() ?? null;
    return {
      tools: searched?.tools ?? tools,
      server: info === undefined ? null : { name: info.name, version: info.version },
      pages,
      notes: [...(cache === null ? [] : [cache]), ...(searched?.notes ?? [])],
      protocol,
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

/** A search transform's tools (FastMCP 3.1 and its peers), by the names they list. */
const SEARCH_TOOL = "search_tools";
const CALL_TOOL = "call_tool";
/** Names in a catalogue are letters, digits, `_`, `-` and `.` (SEP-986): the prefixes a regex search walks. */
const NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789_-.";
/** A catalogue that needs more searches than this is not read whole: the import stops and says so. */
const MAX_SEARCHES = 5_000;

/**
 * A server that hides its catalogue behind search (gofastmcp.com/servers/transforms/tool-search)
 * lists only `search_tools` and `call_tool` (and any pinned tools). Its search returns at most a
 * few tools in `tools/list` form, matching a regex against "name description parameters", so the
 * catalogue is read whole by walking name prefixes (`^a`, `^b`…; a prefix that fills the answer is
 * walked one character deeper, and its exact name asked alone). A BM25 search (a `query`
 * argument) ranks and cuts, and no set of queries proves it listed everything: refused, with why.
 * Null for a server that lists its tools.
 */
async function readSearchCatalogue(
  client: Client,
  listed: JsonValue[],
): Promise<{ tools: JsonValue[]; notes: string[] } | null> {
  const byName = new Map(listed.map((tool) => [nameOf(tool), tool]));
  const search = byName.get(SEARCH_TOOL);
  if (search === undefined || !byName.has(CALL_TOOL)) return null;
  const properties = propertiesOf(search);
  if (!("pattern" in properties))
    throw new Error(
      `it lists only ${SEARCH_TOOL} and ${CALL_TOOL}: its catalogue is behind a search${"query" in properties ? " ranked by BM25 (a query argument), which returns a few best matches and cannot be made to list every tool" : " route-eval does not know"}; import the catalogue with the search transform off (or from a saved tools/list result)`,
    );
  let searches = 0;
  const ask = async (pattern: string): Promise<JsonValue[]> => {
    if (++searches > MAX_SEARCHES)
      throw new Error(
        `reading its catalogue through ${SEARCH_TOOL} took over ${MAX_SEARCHES} searches; import it from a saved tools/list result`,
      );
    const result = await client.request(
      { method: "tools/call", params: { name: SEARCH_TOOL, arguments: { pattern } } },
      AS_SENT,
    );
    return readSearchResult(result);
  };
  const found = new Map<string, JsonValue>();
  const first = await ask("^");
  const cap = first.length;
  for (const tool of first) found.set(nameOf(tool), tool);
  const walk = async (prefix: string): Promise<void> => {
    const escaped = prefix.replace(/[.\-]/g, (c) => `\\${c}`);
    for (const tool of await ask(`^${escaped}(?: |$)`)) found.set(nameOf(tool), tool);
    for (const char of NAME_CHARACTERS) {
      const more = await ask(`^${escaped}${char === "." || char === "-" ? `\\${char}` : char}`);
      for (const tool of more) found.set(nameOf(tool), tool);
      if (more.length >= cap) await walk(prefix + char);
    }
  };
  if (cap > 0) await walk("");
  const pinned = listed.filter((tool) => {
    const name = nameOf(tool);
    return name !== SEARCH_TOOL && name !== CALL_TOOL;
  });
  for (const tool of pinned) found.delete(nameOf(tool));
  const catalogue = [
    ...pinned,
    ...[...found.values()].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1)),
  ];
  return {
    tools: catalogue,
    notes: [
      `the server lists only ${SEARCH_TOOL} and ${CALL_TOOL}${pinned.length > 0 ? ` (and ${pinned.length} pinned)` : ""}: its catalogue of ${found.size} tools was read through ${SEARCH_TOOL} (${searches} searches, at most ${cap} tools each); a model using the server sees the search, not these tools (route-eval run --tool-search measures that)`,
    ],
  };
}

/** The tools a search returned: its structured result (`{result: [...]}`), else its text content parsed as JSON. */
function readSearchResult(result: JsonValue): JsonValue[] {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return [];
  if (result.isError === true)
    throw new Error(
      `${SEARCH_TOOL} answered with an error: ${JSON.stringify(result.content).slice(0, 200)}`,
    );
  const structured = result.structuredContent;
  if (
    typeof structured === "object" &&
    structured !== null &&
    !Array.isArray(structured) &&
    Array.isArray(structured.result)
  )
    return structured.result;
  const content = Array.isArray(result.content) ? result.content : [];
  for (const item of content) {
    if (typeof item !== "object" || item === null || Array.isArray(item) || item.type !== "text")
      continue;
    const text = String(item.text ?? "");
    if (text.startsWith("No tools matched")) return [];
    try {
      const parsed: JsonValue = JSON.parse(text);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // not JSON: the markdown rendering, which does not carry whole schemas
    }
    throw new Error(
      `${SEARCH_TOOL} answered in a form that is not a JSON list of tools (a markdown serializer?); import with the search transform off`,
    );
  }
  return [];
}

function nameOf(tool: JsonValue): string {
  return typeof tool === "object" &&
    tool !== null &&
    !Array.isArray(tool) &&
    typeof tool.name === "string"
    ? tool.name
    : "";
}

function propertiesOf(tool: JsonValue): Record<string, JsonValue> {
  if (typeof tool !== "object" || tool === null || Array.isArray(tool)) return {};
  const schema = tool.inputSchema;
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return {};
  const properties = schema.properties;
  return typeof properties === "object" && properties !== null && !Array.isArray(properties)
    ? properties
    : {};
}

/** A 2026-07-28 list result's caching hint (ttlMs, cacheScope), in words: how long the catalogue read may stand for the server's. */
function describeCache(page: Record<string, JsonValue>): string | null {
  const ttl = page.ttlMs;
  const scope = page.cacheScope;
  if (typeof ttl !== "number" && typeof scope !== "string") return null;
  return `the server marks its tool list ${typeof scope === "string" ? `${scope} ` : ""}and cacheable for ${typeof ttl === "number" ? `${ttl} ms` : "an unstated time"} (ttlMs${typeof scope === "string" ? ", cacheScope" : ""}): ${scope === "private" ? "another user's catalogue may differ; " : ""}import again when it changes`;
}

function isObject(value: JsonValue): value is Record<string, JsonValue> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The HTTP status of a refused Streamable HTTP request, and what to do about 401/403. */
function httpStatus(error: unknown): string {
  const status =
    typeof error === "object" && error !== null && "status" in error ? error.status : undefined;
  const code =
    typeof status === "number"
      ? status
      : typeof error === "object" && error !== null && "code" in error
        ? error.code
        : undefined;
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
