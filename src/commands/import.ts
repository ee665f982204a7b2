/** `route-eval import`: its arguments and flags, then app/import.ts. */
import { describeCommand } from "./catalogue.js";
import { Argument, type Command } from "commander";
import { collect } from "../app/cli-options.js";
import { outputOption } from "./options.js";
import { importCommand, type ImportFlags } from "../app/import.js";
import type { Io } from "../context.js";
import { IMPORT_FORMATS, type ImportFormat } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerImport(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("import")
    .description(describeCommand("import"))
    .addArgument(new Argument("<format>", "what the input is").choices(IMPORT_FORMATS))
    .argument(
      "[file]",
      "JSON file: a tools/list result (mcp), a tools array (openai, anthropic), an agent card file or URL (a2a), agents and their handoffs (handoffs); a folder for skills (SKILL.md folders) and agents (Claude Code agent files)",
    )
    .option(
      "--command <command line>",
      'mcp only: start this MCP server over stdio and list its tools, e.g. "node server.js"',
    )
    .option(
      "--url <url>",
      "mcp only: list the tools of the MCP server answering on this URL (Streamable HTTP), e.g. http://localhost:3000/mcp",
    )
    .option(
      "--header <name: value>",
      'with --url: a request header, e.g. "Authorization: Bearer $TOKEN" (repeatable)',
      collect,
      [],
    )
    .option(
      "--from-config [files...]",
      "mcp only: every server in these MCP client configs (.mcp.json, claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json); none given: the ones found in this project and your home",
    )
    .option("--server <name>", "with --from-config: only this server (repeatable)", collect, [])
    .addOption(outputOption("write the snapshot here instead of stdout"))
    .option(
      "--snapshot <name>",
      "snapshot name (default: the MCP server's name, or the file's name)",
    )
    .option("--family <name>", "family of every imported tool (default: the snapshot name)")
    .option(
      "--agent <name>",
      "handoffs only: the agent whose handoffs are routed (default: the first agent)",
    )
    .option(
      "--trust-annotations",
      "let MCP annotations set effect, idempotent and open_world (default: conservative values)",
    )
    .addHelpText("after", helpAfter(IMPORT_HELP, io))
    .action(async (format: ImportFormat, file: string | undefined, flags: ImportFlags) =>
      setExit(exitOf(await importCommand(io, format, file, flags))),
    );
}

const IMPORT_HELP = `
MCP annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint) come from the
server's own code and are not guarantees: they are kept under \`declared\`, and every tool gets
effect: destructive, idempotent: false, open_world: true unless --trust-annotations is given.
With --from-config each server's tools are a family named after the server, grouped by a
kind: server entry of that name (a case may write server > tool); a server that
cannot be reached (or needs a prompt only its client can answer) is skipped with the reason.

Examples:
  route-eval import mcp tools-list.json -o registries/github.yaml
  route-eval import mcp --command "npx -y @modelcontextprotocol/server-everything" -o registries/everything.yaml
  route-eval import mcp --url http://localhost:3000/mcp --header "Authorization: Bearer $TOKEN" -o registries/remote.yaml
  route-eval import mcp --from-config -o registries/my-servers.yaml      # every server your clients know
  route-eval import mcp --from-config .vscode/mcp.json --server github
  route-eval import openai tools.json --family billing
  route-eval import anthropic request.json --snapshot support-bot
  route-eval import skills .claude/skills -o registries/skills.yaml      # one Skill tool (dispatch: tool)
  route-eval import agents .claude/agents -o registries/agents.yaml     # one Task tool (dispatch: tool)
  route-eval import a2a https://agent.example.com/.well-known/agent-card.json
  route-eval import handoffs agents.json --agent triage                 # transfer_to_<agent> functions

Skills, agents and agent cards are routing targets (docs/targets.md): a skill's name and
description are all a model sees before it loads one. A skill over the specification's 1,024
characters, or hidden by disable-model-invocation, is named on stderr.
`;
