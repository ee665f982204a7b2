/** `route-eval batch`: its arguments, then app/batch.ts. */
import { describeCommand } from "./catalogue.js";
import { Argument, type Command } from "commander";
import { BATCH_ACTIONS, batchCommand, type BatchAction } from "../app/batch.js";
import { type ConfigFlags } from "../app/cli-options.js";
import { addConfigOptions } from "./options.js";
import type { Io } from "../context.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerBatch(program: Command, io: Io, setExit: SetExit): void {
  // Only what reaching the provider needs: the rest of a batch run's settings are pinned in its directory.
  addConfigOptions(program.command("batch"), ["base_url", "api_key_env"])
    .description(describeCommand("batch"))
    .addArgument(new Argument("<action>", "what to do").choices(BATCH_ACTIONS))
    .argument("<dir>", "the batch run's directory, or a batch experiment's (it holds batches.json)")
    .addHelpText("after", helpAfter(BATCH_HELP, io))
    .action(async (action: BatchAction, target: string, flags: ConfigFlags) =>
      setExit(exitOf(await batchCommand(io, action, target, flags))),
    );
}

const BATCH_HELP = `
status polls the provider once for each open batch (batches.json is updated) and lists every
batch; cancel cancels the open ones. Neither finishes the run: run --resume DIR (ablate --resume
for an ablation) collects what the batches answered, on any machine with the store and the key.

Examples:
  route-eval run -e openai:gpt-4.1-mini --batch --detach
  route-eval batch status reports/<run-id>
  route-eval run --resume reports/<run-id>
  route-eval batch cancel reports/<run-id>
`;
