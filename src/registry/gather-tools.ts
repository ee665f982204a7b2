/** Tools read from an MCP server or file, an OpenAI or an Anthropic tools array (import and init share it). */
import type { ImportFormat } from "../types/formats.js";
import { basename, extname } from "node:path";
import { InputError } from "../errors.js";
import type { SourceTool } from "./build-snapshot.js";
import { readAnthropicTools } from "./import-anthropic.js";
import { readMcpTools } from "./import-mcp.js";
import { readOpenAiTools } from "./import-openai.js";
import { loadMcpLister } from "./load-mcp-lister.js";
import { JsonReader, readJsonInput } from "./read-json-input.js";


export interface Gathered {
  tools: SourceTool[];
  notes: string[];
  source: string;
  /** Default snapshot name. */
  name: string;
}

export async function gatherTools(format: ImportFormat, file: string | undefined, command: string | undefined, cwd: string): Promise<Gathered> {
  if (command !== undefined) {
    if (format !== "mcp") throw new InputError("--command: only `import mcp` starts a server; give a FILE for openai and anthropic");
    if (file !== undefined) throw new InputError(`give either FILE or --command, not both (got "${file}")`);
    const { listMcpTools } = await loadMcpLister();
    const listing = await listMcpTools(command, cwd);
    const server = listing.server === null ? "" : ` (server ${listing.server.name} ${listing.server.version})`;
    const tools = readMcpTools(listing.tools, new JsonReader(`--command "${command}"`));
    const notes = [`listed ${listing.tools.length} tools in ${listing.pages} page${listing.pages === 1 ? "" : "s"}`];
    return { tools, notes, source: `mcp stdio: ${command}${server}`, name: listing.server?.name ?? "mcp" };
  }
  if (file === undefined) throw new InputError(`import ${format}: give the FILE to read${format === "mcp" ? ", or --command to start a server" : ""}`);
  const input = readJsonInput(file, cwd);
  const reader = new JsonReader(input.shown);
  const name = basename(file, extname(file));
  const source = `${format}: ${input.shown}`;
  if (format === "mcp") return { tools: readMcpTools(input.data, reader), notes: [], source, name };
  const read = format === "openai" ? readOpenAiTools(input.data, reader) : readAnthropicTools(input.data, reader);
  return { tools: read.tools, notes: read.skipped, source, name };
}

