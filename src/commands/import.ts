import { writeOutput } from "../app/write-output.js";
import { Argument, type Command } from "commander";
import { inertLine } from "../text/inert.js";
import { buildSnapshot } from "../registry/build-snapshot.js";
import { gatherTools, type ImportFormat } from "../registry/gather-tools.js";
import { renderSnapshot } from "../registry/render-snapshot.js";
import { EXIT, type SetExit } from "./exit.js";
import type { Io } from "../context.js";

import { IMPORT_FORMATS } from "../registry/gather-tools.js";

interface ImportFlags {
  command?: string;
  output?: string;
  snapshot?: string;
  family?: string;
  trustAnnotations?: boolean;
}

export function registerImport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("import")
    .description("Write a registry snapshot from an MCP server or tools/list result, or an OpenAI or Anthropic tools array.")
    .addArgument(new Argument("<format>", "what the input is").choices(IMPORT_FORMATS))
    .argument("[file]", "JSON file: a tools/list result (mcp) or a tools array (openai, anthropic)")
    .option("--command <command line>", 'mcp only: start this MCP server over stdio and list its tools, e.g. "node server.js"')
    .option("-o, --output <file>", "write the snapshot here instead of stdout")
    .option("--snapshot <name>", "snapshot name (default: the MCP server's name, or the file's name)")
    .option("--family <name>", "family of every imported tool (default: the snapshot name)")
    .option("--trust-annotations", "let MCP annotations set effect, idempotent and open_world (default: conservative values)")
    .addHelpText("after", IMPORT_HELP)
    .action(async (format: ImportFormat, file: string | undefined, flags: ImportFlags) => {
      const gathered = await gatherTools(format, file, flags.command, io.cwd);
      const snapshot = flags.snapshot ?? gathered.name;
      const built = buildSnapshot(gathered.tools, {
        snapshot,
        family: flags.family ?? snapshot,
        source: gathered.source,
        trustAnnotations: flags.trustAnnotations === true,
      });
      const input = file ?? `--command ${JSON.stringify(flags.command)}`;
      const command = `route-eval import ${format} ${input}${flags.trustAnnotations ? " --trust-annotations" : ""}`;
      const text = renderSnapshot(built.registry, { command, trustAnnotations: flags.trustAnnotations === true });
      for (const note of [...gathered.notes, ...built.warnings]) io.stderr(`route-eval import: ${inertLine(note)}\n`);
      writeOutput(io, text, flags.output);
      // writeOutput has already said where the snapshot went.
      const count = built.registry.tools.length;
      io.stderr(`imported ${count} tool${count === 1 ? "" : "s"} from ${gathered.source}\n`);
      setExit(EXIT.ok);
    });
}

const IMPORT_HELP = `
MCP annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) come from the
server's own code and are not guarantees: they are kept under \`declared\`, and every tool gets
effect: destructive, idempotent: false, open_world: true unless --trust-annotations is given.

Examples:
  route-eval import mcp tools-list.json -o registries/github.yaml
  route-eval import mcp --command "npx -y @modelcontextprotocol/server-everything" -o registries/everything.yaml
  route-eval import openai tools.json --family billing
  route-eval import anthropic request.json --snapshot support-bot
`;
