/** `route-eval shadow`: its arguments and flags, then app/shadow.ts. */
import { describeCommand } from "./catalogue.js";
import { Option, type Command } from "commander";
import { collect, TRACE_FILES } from "../app/cli-options.js";
import { addConfigOptions, formatOption, outputOption } from "./options.js";
import { shadowCommand, type ShadowFlags } from "../app/shadow.js";
import type { Io } from "../context.js";
import { helpAfter } from "../render/help-text.js";
import { SHADOW_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";

export function registerShadow(program: Command, io: Io, setExit: SetExit): void {
  const command = program
    .command("shadow")
    .argument("<traces...>", TRACE_FILES)
    .description(describeCommand("shadow"))
    .option("--span <id>", "only this span (repeatable)", collect, [])
    .option(
      "--where <key=value>",
      "only turns whose trace attribute (or model, provider, called) has this value (repeatable)",
      collect,
      [],
    )
    .option(
      "--phase <name>",
      "the candidate config's phase whose exposure applies to every turn (default: none, every offered tool)",
    )
    .option("--run-id <id>", "name of the shadow run's directory under out_dir")
    .addOption(formatOption(SHADOW_FORMATS, "output format"))
    .addOption(outputOption())
    .addOption(new Option("--no-progress", "no progress line on stderr"));
  addConfigOptions(command)
    .addHelpText("after", helpAfter(SHADOW_HELP, io))
    .action(async (traces: string[], flags: ShadowFlags) =>
      setExit(exitOf(await shadowCommand(io, traces, flags))),
    );
}

const SHADOW_HELP = `
The candidate is a config (--config, and any flag): its registry's definition of each tool the
production model was offered replaces the traced one (a tool it lacks keeps its traced
definition), --phase applies one of its exposure policies, and its endpoint, model, system and
controls are asked. Each turn keeps its production messages and system prompt. No labels are
needed: a decision "moved" when the candidate's choice is not production's. One trial per turn
unless --trials says otherwise. Every call goes through the response store, so a second shadow
of the same turns asks nothing.

The shadow run is an ordinary run directory: route-eval show DIR --case TURN explains a turn
(its acceptable is production's choice). shadow.json beside its report holds the moves.

Examples:
  route-eval shadow traces.jsonl --config candidate.yaml
  route-eval shadow export.json --config candidate.yaml --where tenant=acme --format markdown
  route-eval shadow gateway.jsonl --endpoint openai:gpt-4.1-mini --registry registries/new.yaml
`;
