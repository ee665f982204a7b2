/** `route-eval lint`: its flags, then app/lint.ts. */
import { describeCommand } from "./catalogue.js";
import type { Command } from "commander";
import { formatOption, outputOption } from "./options.js";
import { lintCommand, type LintFlags } from "../app/lint.js";
import type { Io } from "../context.js";
import { LINT_FORMATS } from "../types/formats.js";
import { exitOf, type SetExit } from "./exit.js";
import { helpAfter } from "../render/help-text.js";

export function registerLint(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("lint")
    .argument(
      "[files...]",
      "registry snapshots and case files (default: the config's cases and their registries)",
    )
    .description(describeCommand("lint"))
    .option(
      "-c, --config <file>",
      "config file (default: ./route-eval.yaml when present); its phases size the surface checks",
    )
    .option("--cases <glob...>", "case files or globs (config: cases)")
    .option("--registry <file>", "registry snapshot for every case file (config: registry)")
    .addOption(formatOption(LINT_FORMATS, "output format", "text"))
    .option(
      "--all",
      "text: every finding on its own line, in file order (default: grouped by rule, the worst few of each when there are many)",
    )
    .option("--strict", "exit 1 on warnings too")
    .addOption(outputOption("write the findings to a file instead of stdout"))
    .addHelpText("after", helpAfter(LINT_HELP, io))
    .action((files: string[], flags: LintFlags) => setExit(exitOf(lintCommand(io, files, flags))));
}

const LINT_HELP = `
Rules, severities and examples: docs/lint.md.

Exit codes: 0 no error (and, with --strict, no warning) · 1 findings that fail ·
            2 unreadable input (missing file, YAML syntax, not a snapshot or case file)

Examples:
  route-eval lint                                # the config's cases and their registries
  route-eval lint registries/commerce.yaml       # one registry
  route-eval lint --format json --strict
`;
