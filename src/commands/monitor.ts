/** `route-eval monitor`: its arguments and flags, then app/monitor.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { collect, TRACE_FILES } from "../app/cli-options.js";
import { formatOption, outputOption } from "./options.js";
import { monitorCommand, type MonitorFlags } from "../app/monitor.js";
import type { Io } from "../context.js";
import { helpAfter } from "../render/help-text.js";
import { MONITOR_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";

export function registerMonitor(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("monitor")
    .argument("<traces...>", TRACE_FILES)
    .description(describeCommand("monitor"))
    .option(
      "--by <key>",
      "break the signals down by this trace attribute (service.name, tenant, gen_ai.agent.name…) or model, provider, called (repeatable)",
      collect,
      [],
    )
    .option(
      "--where <key=value>",
      "only calls whose attribute has this value (repeatable: all must hold)",
      collect,
      [],
    )
    .option(
      "--split-at <time>",
      "compare the calls before this time with those from it on (ISO 8601)",
    )
    .addOption(formatOption(MONITOR_FORMATS, "output format"))
    .addOption(outputOption())
    .addHelpText("after", helpAfter(MONITOR_HELP, io))
    .action((traces: string[], flags: MonitorFlags) =>
      setExit(exitOf(monitorCommand(io, traces, flags))),
    );
}

const MONITOR_HELP = `
No labels are needed: every signal is read from what the model was offered and what it did.
Files are read line by line (JSON Lines), so a trace of any size is read in bounded memory; a
file that is one JSON document (pretty-printed) is read whole. Definitions: docs/traces.md.

Examples:
  route-eval monitor traces/*.jsonl
  route-eval monitor export.jsonl --by tenant --by model --format markdown
  route-eval monitor traces.jsonl --split-at 2026-11-20 --where service.name=support-agent
`;
