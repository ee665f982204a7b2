/** `route-eval freeze`: its arguments and flags, then app/freeze.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { collect, TRACE_FILES } from "../app/cli-options.js";
import { addConfigOptions } from "./options.js";
import { freezeCommand, type FreezeFlags } from "../app/freeze.js";
import type { Io } from "../context.js";
import { helpAfter } from "../render/help-text.js";
import { exitOf, type SetExit } from "./exit.js";

export function registerFreeze(program: Command, io: Io, setExit: SetExit): void {
  const command = program
    .command("freeze")
    .argument("<traces...>", TRACE_FILES)
    .description(describeCommand("freeze"))
    .option("--span <id>", "the span to freeze (hex, base64 or 0x…; repeatable)", collect, [])
    .option(
      "--where <key=value>",
      "only calls whose trace attribute (or model, provider, called) has this value (repeatable: all must hold)",
      collect,
      [],
    )
    .option("--all", "freeze every call that matches (default: exactly one must)")
    .option("--id <id>", "the case's id (default: trace-<span id>)")
    .option(
      "--acceptable <names...>",
      "the tools any of which would have been right (default: left to you as a todo: that lint reports)",
    )
    .option("--forbidden <names...>", "tools whose choice is a policy violation")
    .option(
      "--context <key=value>",
      "trusted context of the case (repeatable; a JSON value or text)",
      collect,
      [],
    )
    .option(
      "--join <snapshot>",
      "a registry snapshot whose definitions fill in tools the trace names without one (default: they are listed as partial)",
    )
    .option("--family <name>", "family of the snapshot's tools (default: frozen)")
    .option(
      "--redact <regex>",
      "also redact what this regular expression matches (RE2 syntax; repeatable); e-mails, keys and phone numbers always are",
      collect,
      [],
    )
    .option(
      "--cases-dir <dir>",
      "where the case files go (default: cases/frozen beside the config)",
    )
    .option(
      "--registries-dir <dir>",
      "where the snapshots go (default: registries/frozen beside the config)",
    )
    .option("--force", "write a case file again even if it was edited since");
  addConfigOptions(command, ["endpoint", "model", "store_dir", "base_url"])
    .addHelpText("after", helpAfter(FREEZE_HELP, io))
    .action(async (traces: string[], flags: FreezeFlags) =>
      setExit(exitOf(await freezeCommand(io, traces, flags))),
    );
}

const FREEZE_HELP = `
The case's goal is the call's last user message and its messages the turns before it; its system
prompt is the production one. The snapshot holds exactly the tools the model was offered, in its
order, and is named by their content (freezing another call with the same tools reuses it). A tool
the trace names without a definition is joined by name with --join, or listed under partial:
(lint reports it): a schema is never invented. The production reply goes into the response store,
as the provider sent it when the trace has it, else written from the traced call. Everything is
redacted first; the case records what was.

The endpoint is the trace's own (openai:MODEL for an OpenAI chat span, anthropic:MODEL…) unless
--endpoint names another. stdout is the command that replays the cases with no call.

Examples:
  route-eval freeze traces.jsonl --span 00f067aa0ba902b7 --acceptable get_time
  route-eval freeze export.json --where tenant=acme --where called=refund_invoice --all
  route-eval freeze gateway.jsonl --join registries/commerce.yaml --redact 'ord_[0-9]+'
`;
