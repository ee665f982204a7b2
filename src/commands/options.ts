/**
 * The command-line options more than one command shares, as commander options: the config flags
 * (one per row of the config key table, app/cli-options.ts), output and format, shards, batches.
 * A command file adds its own options and calls its root.
 */
import { Option, type Command } from "commander";
import { configOptionSpecs, parseShard, positiveInt } from "../app/cli-options.js";

/** The config flags: every key that has one, or only the keys named (a command that reads a few, like batch). */
export function addConfigOptions(command: Command, only?: readonly string[]): Command {
  command.option("-c, --config <file>", "config file (default: ./route-eval.yaml when present)");
  for (const spec of configOptionSpecs(only)) {
    const option = new Option(spec.flags, spec.help);
    if (spec.parse !== undefined) option.argParser(spec.parse);
    if (spec.choices !== undefined) option.choices(spec.choices);
    command.addOption(option);
  }
  if (only === undefined) command.addOption(OUT_ALIAS);
  return command;
}

/** `--out` is the old spelling of --out-dir, kept hidden for one release (`-o` is --output now). */
const OUT_ALIAS = new Option("--out <dir>", "old spelling of --out-dir").hideHelp();

/** `-f, --format` with a command's own renderings. */
export function formatOption(
  choices: readonly string[],
  help: string,
  fallback = "terminal",
): Option {
  return new Option("-f, --format <format>", help).choices(choices).default(fallback);
}

/** `-o, --output <file>`. */
export function outputOption(
  help = 'write the rendering to a file instead of stdout ("-": stdout)',
): Option {
  return new Option("-o, --output <file>", help);
}

/** `--shard I/N`. */
export function shardOption(help: string): Option {
  return new Option("--shard <I/N>", help).argParser(parseShard);
}

/** `--batch`, `--no-batch`, `--detach` and `--batch-poll-ms` of run and ablate. */
export function batchOptions(help: { batch: string; detach: string }): Option[] {
  return [
    new Option("--batch", help.batch),
    new Option("--no-batch", "ask live even when route-eval.yaml says batch: true"),
    new Option("--detach", help.detach),
    new Option(
      "--batch-poll-ms <n>",
      "with --batch: first wait between polls (grows to 60 s; default 5000)",
    ).argParser(positiveInt),
  ];
}
