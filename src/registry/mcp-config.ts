/**
 * The MCP servers a user has already configured, read from the files their clients keep:
 * Claude Code's `.mcp.json` (and `~/.claude.json`), Claude Desktop's
 * `claude_desktop_config.json`, Cursor's `.cursor/mcp.json` and VS Code's `.vscode/mcp.json`.
 * Claude's and Cursor's files list `mcpServers`; VS Code's lists `servers` (or `mcp.servers` in
 * settings.json), with comments and trailing commas allowed. A server is a command (stdio) or a
 * URL (Streamable HTTP). `${env:VAR}`, `${VAR}` and `${VAR:-default}` are read from the
 * environment and `${workspaceFolder}` is the project; a server that needs anything else (VS
 * Code's `${input:…}` prompts, an `envFile`) or speaks the legacy SSE transport is skipped with
 * the reason, never guessed at.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { InputError } from "../errors.js";
import type { McpServerSpec } from "./list-mcp-tools.js";

export interface ConfiguredServer {
  name: string;
  /** The config file it is written in, as shown. */
  file: string;
  spec: McpServerSpec;
}

export interface ConfiguredServers {
  servers: ConfiguredServer[];
  /** Servers left out, and why (one line each). */
  skipped: string[];
  /** The files read, as shown (relative to the working directory when inside it). */
  files: string[];
}

/** Where MCP clients keep their servers, project files first. */
export function knownConfigFiles(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? env.USERPROFILE ?? "";
  const files = [
    join(cwd, ".mcp.json"),
    join(cwd, ".vscode", "mcp.json"),
    join(cwd, ".cursor", "mcp.json"),
  ];
  if (home !== "") {
    files.push(
      join(home, ".cursor", "mcp.json"),
      join(home, ".claude.json"),
      join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json"),
      join(home, ".config", "Claude", "claude_desktop_config.json"),
    );
  }
  if (env.APPDATA !== undefined)
    files.push(join(env.APPDATA, "Claude", "claude_desktop_config.json"));
  return files;
}

/** Every server in `files` (or, with none given, in the known files that exist), optionally only those named. */
export function readConfiguredServers(
  files: string[],
  only: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): ConfiguredServers {
  const given = files.length > 0;
  const paths = given
    ? files.map((file) => resolve(cwd, file))
    : knownConfigFiles(cwd, env).filter((file) => existsSync(file));
  if (paths.length === 0) {
    throw new InputError(
      `--from-config: no MCP client config found (looked for ${knownConfigFiles(cwd, env).join(", ")}); give the file to read`,
    );
  }
  const servers: ConfiguredServer[] = [];
  const skipped: string[] = [];
  const shownOf = (path: string) =>
    path.startsWith(`${cwd}${sep}`) ? path.slice(cwd.length + 1) : path;
  for (const path of paths) {
    if (!existsSync(path)) throw new InputError(`--from-config ${shownOf(path)}: no such file`);
    const shown = shownOf(path);
    const entries = serverEntries(parseJsonc(readFileSync(path, "utf8"), shown), shown);
    // ${workspaceFolder}: the folder the client's config sits in (.vscode/ and .cursor/ sit in the project).
    const project = /[\\/]\.(vscode|cursor)$/.test(dirname(path))
      ? dirname(dirname(path))
      : dirname(path);
    for (const [name, entry] of entries) {
      if (only.length > 0 && !only.includes(name)) continue;
      if (servers.some((s) => s.name === name)) {
        skipped.push(
          `${shown}: server "${name}": also in ${servers.find((s) => s.name === name)?.file}, which is read first`,
        );
        continue;
      }
      const read = toSpec(name, entry, shown, project, env);
      if (typeof read === "string") skipped.push(`${shown}: server "${name}": ${read}`);
      else servers.push({ name, file: shown, spec: read });
    }
  }
  for (const name of only) {
    if (
      !servers.some((s) => s.name === name) &&
      !skipped.some((line) => line.includes(`server "${name}"`))
    ) {
      throw new InputError(`--server ${name}: not in ${paths.map(shownOf).join(", ")}`);
    }
  }
  return { servers, skipped, files: paths.map(shownOf) };
}

type Entry = Record<string, unknown>;

function serverEntries(data: unknown, shown: string): [string, Entry][] {
  if (!isRecord(data))
    throw new InputError(
      `${shown}: expected a JSON object with mcpServers (Claude, Cursor) or servers (VS Code)`,
    );
  const mcp = isRecord(data.mcp) ? data.mcp : undefined;
  const table = data.mcpServers ?? data.servers ?? mcp?.servers;
  if (!isRecord(table))
    throw new InputError(
      `${shown}: mcpServers: expected an object of servers by name (VS Code: servers)`,
    );
  return Object.entries(table).map(([name, entry]) => {
    if (!isRecord(entry))
      throw new InputError(`${shown}: mcpServers.${name}: expected an object with command or url`);
    return [name, entry];
  });
}

/** One server's entry as a spec, or why it is skipped. */
function toSpec(
  name: string,
  entry: Entry,
  shown: string,
  project: string,
  env: NodeJS.ProcessEnv,
): McpServerSpec | string {
  const type =
    typeof entry.type === "string" ? entry.type : entry.url !== undefined ? "http" : "stdio";
  if (entry.envFile !== undefined)
    return "uses envFile, which route-eval does not read; import it with --command and the variables set";
  const expand = (value: unknown, key: string): string => {
    if (typeof value !== "string")
      throw new InputError(`${shown}: mcpServers.${name}.${key}: expected a string`);
    return expandVariables(value, project, env);
  };
  try {
    if (type === "sse")
      return 'speaks the legacy SSE transport; route-eval connects over stdio or Streamable HTTP ("type": "http")';
    if (type === "http" || type === "streamable-http" || type === "streamableHttp") {
      const headers = isRecord(entry.headers)
        ? Object.fromEntries(
            Object.entries(entry.headers).map(([k, v]) => [k, expand(v, `headers.${k}`)]),
          )
        : {};
      const url = expand(entry.url, "url");
      return { transport: "http", url, headers, shown: `${shown}: server "${name}" (${url})` };
    }
    if (type !== "stdio") return `type "${type}" is not one route-eval reads (stdio, http)`;
    const command = expand(entry.command, "command");
    const args = Array.isArray(entry.args)
      ? entry.args.map((arg, i) => expand(arg, `args[${i}]`))
      : [];
    const own = isRecord(entry.env)
      ? Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, expand(v, `env.${k}`)]))
      : undefined;
    const cwd =
      typeof entry.cwd === "string" ? resolve(project, expand(entry.cwd, "cwd")) : project;
    return {
      transport: "stdio",
      command,
      args,
      env: own,
      cwd,
      shown: `${shown}: server "${name}" (${[command, ...args].join(" ")})`,
    };
  } catch (error) {
    if (error instanceof Unresolved) return error.message;
    throw error;
  }
}

class Unresolved extends Error {}

/** `${env:VAR}`, `${VAR}`, `${VAR:-default}`, `${workspaceFolder}`; anything else (a VS Code `${input:…}` prompt) cannot be known here. */
function expandVariables(value: string, project: string, env: NodeJS.ProcessEnv): string {
  return value.replace(/\$\{([^}]*)\}/g, (_match, body: string) => {
    if (body === "workspaceFolder") return project;
    const named = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/.exec(body);
    if (named === null)
      throw new Unresolved(
        `needs \${${body}}, which only its client can supply (a prompt or client variable); import it with --command or --url instead`,
      );
    const found = env[named[1]];
    if (found !== undefined) return found;
    if (named[2] !== undefined) return named[2];
    throw new Unresolved(`needs the environment variable ${named[1]}, which is not set`);
  });
}

/** JSON with // and /* *\/ comments and trailing commas (VS Code's and Cursor's files allow them). */
function parseJsonc(text: string, shown: string): unknown {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      const end = skipString(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (char === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (char === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const comment = text.slice(i, end === -1 ? text.length : end + 2);
      out += comment.replace(/[^\n]/g, " ");
      i = (end === -1 ? text.length : end + 2) - 1;
    } else out += char;
  }
  try {
    return JSON.parse(dropTrailingCommas(out));
  } catch (error) {
    throw new InputError(
      `${shown}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** A comma before } or ] (outside strings) removed. */
function dropTrailingCommas(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') {
      const end = skipString(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (text[i] === "," && /^\s*[}\]]/.test(text.slice(i + 1, i + 200))) continue;
    else out += text[i];
  }
  return out;
}

function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
