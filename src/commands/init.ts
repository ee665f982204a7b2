/** `route-eval init`: its flags, then app/init.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { initCommand, type InitFlags } from "../app/init.js";
import type { Io } from "../context.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";
import { collect } from "../app/cli-options.js";

export function registerInit(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("init")
    .description(describeCommand("init"))
    .option("--from-mcp <file>", "tools from an MCP tools/list result (JSON)")
    .option(
      "--from-mcp-command <cmd>",
      'tools from an MCP server started over stdio, e.g. "node server.js"',
    )
    .option(
      "--from-config [files...]",
      "tools from every MCP server your clients' configs name (.mcp.json, .vscode/mcp.json, Claude's and Cursor's; or these files)",
    )
    .option("--server <name>", "with --from-config: only this server (repeatable)", collect, [])
    .option("--from-openai <file>", "tools from an OpenAI tools array (JSON)")
    .option("--from-anthropic <file>", "tools from an Anthropic tools array (JSON)")
    .option(
      "--from-skills <dir>",
      "skills from a folder of SKILL.md folders (e.g. .claude/skills): near-pair cases between skills that compete",
    )
    .option(
      "--name <name>",
      "name of the registry and case files (default: the source's name, or example)",
    )
    .option("--trust-annotations", "let MCP annotations set effect, idempotent and open_world")
    .option("--force", "overwrite files that exist")
    .addHelpText("after", helpAfter(INIT_HELP, io))
    .action(async (flags: InitFlags) => setExit(exitOf(await initCommand(io, flags))));
}

const INIT_HELP = `
Writes route-eval.yaml, registries/<name>.yaml and cases/<name>.yaml in the current directory,
with yaml-language-server schema comments for editors. Starter cases come in near pairs — for
each rival pair \`lint\` finds, an exact-identifier and a free-text case; for each write tool, a
read-vs-write pair and a missing-information (ask_user) case; one no_applicable_tool case — each
with a TODO goal. \`route-eval lint\` reports every TODO left as an error.

Examples:
  route-eval init                                       # a small example registry
  route-eval init --from-mcp-command "node my-mcp-server.js"
  route-eval init --from-config --server github           # the servers your MCP clients know
  route-eval init --from-openai tools.json --name support
  route-eval init --from-skills .claude/skills                    # skills, through one Skill tool
`;
