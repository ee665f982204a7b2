/**
 * The command-line options more than one command shares — one per row of the config key table
 * (and their overrides), the output, progress and summary switches, shards and batches — and the
 * parsers of flag values. A command file adds its own options and calls its root.
 */
import { InvalidArgumentError, Option, type Command } from "commander";
import { parseShard } from "../run-files/shard.js";
import { positiveInt } from "../config/parse-number.js";
import type { ConfigOverrides } from "../config/load-config.js";
import { listConfigKeys, overridePath } from "../config/keys.js";

/** Commander's values of the shared config options, by attribute name (see `toOverrides`). */
export interface ConfigFlags {
  config?: string;
  [attribute: string]: unknown;
}

/** The flags every command that loads route-eval.yaml shares, one per row of the key table. */
/** The config flags: every key that has one, or only the keys named (a command that reads a few, like batch). */
export function addConfigOptions(command: Command, only?: readonly string[]): Command {
  command.option("-c, --config <file>", "config file (default: ./route-eval.yaml when present)");
  for (const option of configOptions(only)) command.addOption(option);
  if (only === undefined) command.addOption(OUT_ALIAS);
  return command;
}

function configOptions(only?: readonly string[]): Option[] {
  return listConfigKeys().flatMap(([path, spec]) => {
    if (spec.flags === undefined || (only !== undefined && !only.includes(path))) return [];
    const option = new Option(spec.flags, `${spec.help} (config: ${path})`);
    if (spec.parse !== undefined) option.argParser(spec.parse);
    if (spec.choices !== undefined) option.choices(spec.choices);
    return [option];
  });
}

/** `--out` is the old spelling of --out-dir, kept hidden for one release (`-o` is --output now). */
const OUT_ALIAS = new Option("--out <dir>", "old spelling of --out-dir").hideHelp();

/** Each set flag as the override of its key (discovery's keys flat: retriever, k, embeddings.*). */
export function toOverrides(flags: ConfigFlags): ConfigOverrides {
  const overrides: Record<string, unknown> = {};
  if (typeof flags.out === "string" && flags.outDir === undefined) overrides.out_dir = flags.out;
  for (const option of configOptions()) {
    const value = flags[option.attributeName()];
    if (value === undefined) continue;
    const path = CONFIG_PATH_OF.get(option.long ?? "") ?? [];
    let parent = overrides;
    for (const key of path.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>;
    parent[path[path.length - 1]] = value;
  }
  return overrides as ConfigOverrides;
}

/** --long-flag → its override path. */
const CONFIG_PATH_OF = new Map(
  listConfigKeys().flatMap(([path, spec]) => {
    const long = spec.flags?.match(/--[a-z-]+/)?.[0];
    return long === undefined ? [] : [[long, overridePath(path)] as const];
  }),
);

export { positiveInt, positiveIntList } from "../config/parse-number.js";

/** The TRACES argument of freeze, shadow and monitor. */
export const TRACE_FILES = "trace files: OTLP JSON/JSONL (GenAI or OpenInference attributes), spans, or provider request/response pairs";

/** A repeatable option's values, in order (commander's collector). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `-f, --format` with a command's own renderings. */
export function formatOption(choices: readonly string[], help: string, fallback = "terminal"): Option {
  return new Option("-f, --format <format>", help).choices(choices).default(fallback);
}

/** `-o, --output <file>`. */
export function outputOption(help = 'write the rendering to a file instead of stdout ("-": stdout)'): Option {
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
    new Option("--batch-poll-ms <n>", "with --batch: first wait between polls (grows to 60 s; default 5000)").argParser(positiveInt),
  ];
}

/** A significance level, strictly between 0 and 1. */
export function parseAlpha(value: string): number {
  const alpha = Number(value);
  if (!Number.isFinite(alpha) || alpha <= 0 || alpha >= 1) throw new InvalidArgumentError("expected a significance level between 0 and 1 (e.g. 0.05).");
  return alpha;
}
