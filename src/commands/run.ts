/** `route-eval run`: its flags, then app/run.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import {
  addConfigOptions,
  batchOptions,
  formatOption,
  outputOption,
  shardOption,
} from "./options.js";
import { parseBaselineName, runCommand, type RunFlags } from "../app/run.js";
import type { Io } from "../context.js";
import { FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerRun(program: Command, io: Io, setExit: SetExit): void {
  const command = addConfigOptions(program.command("run"))
    .description(describeCommand("run"))
    .option(
      "--run-id <id>",
      "name of the run directory (default: <UTC time>-<endpoint>); an existing one is an error",
    )
    .option("--force", "with --run-id: replace an existing run directory of that name");
  for (const option of batchOptions({
    batch:
      "ask through the provider's batch API (openai, anthropic): about half the price, answers within the provider's window (config: batch)",
    detach: "with --batch: submit and exit; collect later with --resume RUN",
  }))
    command.addOption(option);
  command
    .addOption(
      shardOption(
        "run only shard I of N of the (case, trial) units (stable by case and trial); route-eval merge combines them",
      ),
    )
    .addOption(formatOption(FORMATS, "rendering on stdout (html: written to <run>/report.html)"))
    .addOption(outputOption())
    .option("--no-gates", "do not evaluate gates (exit 0 unless the input is bad)")
    .option(
      "--save-baseline <name>",
      "also copy the finished run to <out>/baselines/<name>/ (replacing it), for route-eval diff",
      parseBaselineName,
    )
    .option("--no-step-summary", "do not append the Markdown summary to $GITHUB_STEP_SUMMARY")
    .option(
      "--resume <run-dir>",
      "continue an interrupted run: keep its records, run the trials it lacks",
    )
    .option("--no-progress", "no progress line on stderr")
    .option(
      "--print-inputs",
      "print the files the run would read (config, case files, registries) and its store as JSON, and exit without running",
    )
    .option(
      "--counterfactual",
      "then re-ask each failed trial with one change to what was shown (route-eval counterfactual)",
    )
    .option(
      "--fail-if-worse <variant...>",
      'with variants: exit 1 when this variant\'s paired verdict against the base is "hurt"',
    )
    .addHelpText("after", helpAfter(RUN_HELP, io))
    .action(async (flags: RunFlags) => setExit(exitOf(await runCommand(io, flags))));
}

const RUN_HELP = `
Every flag overrides the key of route-eval.yaml named in its help. When $GITHUB_STEP_SUMMARY
is set (GitHub Actions), the Markdown summary is appended to it as well.

Exit codes: 0 ok · 1 a gate or an exposure assertion failed · 2 bad input or usage ·
            3 endpoint failure · 4 internal error (a bug)

Examples:
  route-eval run                                  # bundled example, baseline endpoint
  route-eval run --trials 5 --retriever bm25 -k 8
  route-eval run --save-baseline main             # then: route-eval diff reports/baselines/main reports/<run-id>
  route-eval run --format junit --output junit.xml
  route-eval run --format html                    # writes <run dir>/report.html
  route-eval run -e openai:gpt-4.1-mini --trials 5         # needs OPENAI_API_KEY
  route-eval run -e anthropic:claude-sonnet-4-5            # needs ANTHROPIC_API_KEY
  route-eval run -e openai:qwen3:8b --base-url http://localhost:11434/v1   # Ollama
  route-eval run -e openai:gpt-4.1-mini --mode replay      # CI: answers from the store only
  route-eval run --resume reports/20261130-101500-openai   # continue an interrupted run
`;
