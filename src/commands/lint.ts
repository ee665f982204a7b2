import { Option, type Command } from "commander";
import { loadConfig } from "../config/load-config.js";
import { lintFiles } from "../app/lint.js";
import { LINT_FORMATS, renderLintChunks, type LintFormat } from "../lint/render-findings.js";
import { knownWidth } from "../render/terminal.js";
import { writeChunks } from "../app/write-output.js";
import { EXIT, type SetExit } from "./exit.js";
import type { Io } from "../context.js";

interface LintFlags {
  config?: string;
  cases?: string[];
  registry?: string;
  format: LintFormat;
  strict?: boolean;
  output?: string;
}

export function registerLint(program: Command, io: Io, setExit: SetExit): void {
  program
    .command("lint")
    .argument("[files...]", "registry snapshots and case files (default: the config's cases and their registries)")
    .description("Check registries and cases before spending a token: rivals, missing contrast, loose schemas, crowded phases, unknown names.")
    .option("-c, --config <file>", "config file (default: ./route-eval.yaml when present); its phases size the surface checks")
    .option("--cases <glob...>", "case files or globs (config: cases)")
    .option("--registry <file>", "registry snapshot for every case file (config: registry)")
    .addOption(new Option("-f, --format <format>", "output format").choices(LINT_FORMATS).default("text"))
    .option("--strict", "exit 1 on warnings too")
    .option("-o, --output <file>", "write the findings to a file instead of stdout")
    .addHelpText("after", LINT_HELP)
    .action((files: string[], flags: LintFlags) => {
      const overrides = { ...(flags.cases ? { cases: flags.cases } : {}), ...(flags.registry ? { registry: flags.registry } : {}) };
      const config = loadConfig(flags.config ?? null, overrides, io.cwd);
      // `lint --registry FILE` with no case files (none given, none configured) lints FILE itself.
      const alone = files.length === 0 && flags.registry !== undefined && flags.cases === undefined && config.file === null;
      const result = lintFiles(config, alone ? [flags.registry ?? ""] : files);
      writeChunks(io, renderLintChunks(result, flags.format, flags.output === undefined ? (knownWidth(io) ?? undefined) : undefined), flags.output);
      const failed = result.counts.error > 0 || (flags.strict === true && result.counts.warning > 0);
      setExit(failed ? EXIT.gate : EXIT.ok);
    });
}

const LINT_HELP = `
Rules, severities and examples: README, section "route-eval lint".

Exit codes: 0 no error (and, with --strict, no warning) · 1 findings that fail ·
            2 unreadable input (missing file, YAML syntax, not a snapshot or case file)

Examples:
  route-eval lint                                # the config's cases and their registries
  route-eval lint registries/commerce.yaml       # one registry
  route-eval lint --format json --strict
`;
