/** Tools read from an MCP server or file, an OpenAI or an Anthropic tools array, or routing targets (skills, agents, agent cards, handoffs); import and init share it. */
import type { ImportFormat } from "../types/formats.js";
import { basename, extname, resolve } from "node:path";
import { InputError } from "../errors.js";
import type { SourceTool } from "./build-snapshot.js";
import { readAnthropicTools } from "./import-anthropic.js";
import { readMcpTools } from "./import-mcp.js";
import { readOpenAiTools } from "./import-openai.js";
import { loadMcpLister } from "./load-mcp-lister.js";
import type { McpServerSpec } from "./list-mcp-tools.js";
import { readConfiguredServers } from "./mcp-config.js";
import { JsonReader, readJsonInput } from "./read-json-input.js";
import { readAgentCard, readAgents, readHandoffs, readSkills } from "./import-targets.js";
import type { JsonValue } from "../types.js";

export interface Gathered {
  tools: SourceTool[];
  notes: string[];
  source: string;
  /** Default snapshot name. */
  name: string;
  /** How the framework offers what was read (skills and Claude Code agents: one dispatcher tool). */
  dispatch?: "tool";
}

/** Where `import mcp` finds a live server: a command to start (stdio), a URL (Streamable HTTP), or client config files. */
export interface McpOrigin {
  command?: string;
  url?: string;
  /** `Name: value` request headers for --url (e.g. an Authorization). */
  headers?: string[];
  /** Config files to read every server from; true: the known locations. */
  fromConfig?: string[] | true;
  /** With fromConfig: only these servers. */
  servers?: string[];
}

/** The formats read from a folder. */
const FOLDER_FORMATS: ReadonlySet<ImportFormat> = new Set(["skills", "agents"]);

export async function gatherTools(
  format: ImportFormat,
  file: string | undefined,
  mcp: McpOrigin,
  cwd: string,
  env: NodeJS.ProcessEnv,
  entryAgent?: string,
): Promise<Gathered> {
  if (entryAgent !== undefined && format !== "handoffs")
    throw new InputError(
      "--agent: only with `import handoffs` (the agent whose handoffs are read)",
    );
  const live = [
    mcp.command === undefined ? null : "--command",
    mcp.url === undefined ? null : "--url",
    mcp.fromConfig === undefined ? null : "--from-config",
  ].filter((flag) => flag !== null);
  if (live.length > 1) throw new InputError(`give one of ${live.join(", ")}`);
  if (live.length === 1) {
    if (format !== "mcp")
      throw new InputError(
        `${live[0]}: only \`import mcp\` reaches a server; give a FILE for openai and anthropic`,
      );
    if (file !== undefined)
      throw new InputError(`give either FILE or ${live[0]}, not both (got "${file}")`);
  }
  if ((mcp.headers ?? []).length > 0 && mcp.url === undefined)
    throw new InputError("--header: only with --url");
  if ((mcp.servers ?? []).length > 0 && mcp.fromConfig === undefined)
    throw new InputError("--server: only with --from-config");
  if (mcp.fromConfig !== undefined)
    return gatherConfigured(
      mcp.fromConfig === true ? [] : mcp.fromConfig,
      mcp.servers ?? [],
      cwd,
      env,
    );
  if (mcp.command !== undefined || mcp.url !== undefined) {
    const { listMcpTools, stdioServer } = await loadMcpLister();
    const spec: McpServerSpec =
      mcp.url !== undefined
        ? {
            transport: "http",
            url: checkUrl(mcp.url),
            headers: parseHeaders(mcp.headers ?? []),
            shown: `--url ${mcp.url}`,
          }
        : stdioServer(mcp.command ?? "", cwd);
    const listing = await listMcpTools(spec);
    const server =
      listing.server === null
        ? ""
        : ` (server ${listing.server.name} ${listing.server.version}${listing.protocol === null ? "" : `, MCP ${listing.protocol}`})`;
    const tools = readMcpTools(listing.tools, new JsonReader(spec.shown));
    const notes = [
      ...listing.notes,
      `listed ${listing.tools.length} tools in ${listing.pages} page${listing.pages === 1 ? "" : "s"}`,
    ];
    const where = spec.transport === "http" ? `mcp http: ${spec.url}` : `mcp stdio: ${mcp.command}`;
    return { tools, notes, source: `${where}${server}`, name: listing.server?.name ?? "mcp" };
  }
  if (file === undefined)
    throw new InputError(
      `import ${format}: give the ${FOLDER_FORMATS.has(format) ? "FOLDER" : format === "a2a" ? "agent card (FILE or URL)" : "FILE"} to read${format === "mcp" ? ", or --command to start a server" : ""}`,
    );
  if (format === "skills" || format === "agents") {
    const read = format === "skills" ? readSkills(file, cwd) : readAgents(file, cwd);
    const folder = basename(resolve(cwd, file));
    return {
      ...read,
      source: `${format}: ${file}`,
      name: folder === "skills" || folder === "agents" ? format : folder,
      dispatch: "tool",
    };
  }
  if (format === "a2a" && /^https?:\/\//.test(file)) {
    const card = await fetchAgentCard(file);
    const read = readAgentCard(card, new JsonReader(file));
    return { ...read, source: `a2a: ${file}`, name: "a2a-agents" };
  }
  const input = readJsonInput(file, cwd);
  const reader = new JsonReader(input.shown);
  const name = basename(file, extname(file));
  const source = `${format}: ${input.shown}`;
  if (format === "mcp") return { tools: readMcpTools(input.data, reader), notes: [], source, name };
  if (format === "a2a") return { ...readAgentCard(input.data, reader), source, name };
  if (format === "handoffs")
    return { ...readHandoffs(input.data, reader, entryAgent), source, name };
  const read =
    format === "openai"
      ? readOpenAiTools(input.data, reader)
      : readAnthropicTools(input.data, reader);
  return { tools: read.tools, notes: read.skipped, source, name };
}

/**
 * Every configured server's tools, each server's as a family of its own. A server that cannot be
 * reached is skipped with the reason (the others are still imported); none reached is an error.
 * A tool name a server before it already used is prefixed with the server's name.
 */
async function gatherConfigured(
  files: string[],
  only: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Gathered> {
  const { servers, skipped, files: read } = readConfiguredServers(files, only, cwd, env);
  const { listMcpTools } = await loadMcpLister();
  const tools: SourceTool[] = [];
  const notes = [...skipped.map((line) => `skipped ${line}`)];
  const failed: string[] = [];
  const taken = new Set<string>();
  const groups: SourceTool[] = [];
  for (const { name, spec } of servers) {
    try {
      const listing = await listMcpTools(spec);
      const family =
        name
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, "-")
          .replace(/^-+|-+$/g, "") || "mcp";
      for (const tool of readMcpTools(listing.tools, new JsonReader(spec.shown))) {
        const renamed = taken.has(tool.name)
          ? `${family.replace(/[^A-Za-z0-9_-]/g, "_")}_${tool.name}`.slice(0, 64)
          : tool.name;
        if (renamed !== tool.name)
          notes.push(
            `server "${name}": tool "${tool.name}" is also another server's; imported as "${renamed}"`,
          );
        taken.add(renamed);
        tools.push({
          ...tool,
          name: renamed,
          family,
          declared: renamed === tool.name ? tool.declared : { ...tool.declared, name: tool.name },
        });
      }
      // The server itself, a group of its tools: `server > tool` paths are scored at the server first (docs/targets.md).
      groups.push({
        name: family.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64),
        kind: "server",
        description: `The tools of the MCP server "${name}".`,
        family,
        members: tools.filter((tool) => tool.family === family).map((tool) => tool.name),
        hints: {},
        declared: { server: name },
      });
      notes.push(
        ...listing.notes.map((note) => `server "${name}": ${note}`),
        `server "${name}": listed ${listing.tools.length} tools`,
      );
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      failed.push(why);
      notes.push(`skipped server "${name}": ${why}`);
    }
  }
  if (servers.length === 0 || failed.length === servers.length) {
    const reasons = [...skipped, ...failed];
    throw new InputError(
      `--from-config: no server could be listed${reasons.length > 0 ? `: ${reasons.join("; ")}` : ` in ${read.join(", ")}`}`,
    );
  }
  const listed = servers.length - failed.length;
  return {
    tools: [...tools, ...groups],
    notes,
    source: `mcp servers of ${read.join(", ")} (${listed} of ${servers.length})`,
    name: "mcp-servers",
  };
}

/** An A2A agent card from its URL (its well-known path, or wherever the agent serves it), at most 1 MB, within 15 s. */
async function fetchAgentCard(url: string): Promise<JsonValue> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: "application/json" },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new InputError(
      `${url}: the agent card could not be fetched (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = await response.text();
  if (!response.ok)
    throw new InputError(
      `${url}: HTTP ${response.status} fetching the agent card; expected 200 with its JSON`,
    );
  if (text.length > 1_000_000)
    throw new InputError(`${url}: the agent card is over 1 MB; save it and give the file`);
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    throw new InputError(
      `${url}: the reply is not JSON; expected an A2A agent card (e.g. /.well-known/agent-card.json)`,
    );
  }
}

function checkUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return url;
  } catch {
    // reported below
  }
  throw new InputError(
    `--url ${url}: expected the http(s) URL the MCP server answers on, e.g. http://localhost:3000/mcp`,
  );
}

/** `--header "Authorization: Bearer …"` (repeatable) as request headers. */
function parseHeaders(lines: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+):\s*(.*)$/.exec(line);
    if (match === null)
      throw new InputError(`--header ${JSON.stringify(line)}: expected "Name: value"`);
    headers[match[1]] = match[2];
  }
  return headers;
}
