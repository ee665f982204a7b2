/**
 * What the command-line options more than one command shares are made of — one per row of the
 * config key table (and their overrides), and the parsers of flag values — as data: the CLI
 * library turns them into options in commands/options.ts. A parser throws ArgumentError.
 */
import { ArgumentError } from "../errors.js";
import type { ConfigOverrides } from "../config/load-config.js";
import { listConfigKeys, overridePath } from "../config/keys.js";

/** The command line's values of the shared config options, by attribute name (see `toOverrides`). */
export interface ConfigFlags {
  config?: string;
  [attribute: string]: unknown;
}

/** One config option as the CLI offers it. */
export interface ConfigOptionSpec {
  /** e.g. "-n, --trials <n>" */
  flags: string;
  help: string;
  parse?: (value: string) => unknown;
  choices?: readonly string[];
}

/** The config options: every key that has a flag, or only the keys named (a command that reads a few, like batch). */
export function configOptionSpecs(only?: readonly string[]): ConfigOptionSpec[] {
  return listConfigKeys().flatMap(([path, spec]) => {
    if (spec.flags === undefined || (only !== undefined && !only.includes(path))) return [];
    return [
      {
        flags: spec.flags,
        help: `${spec.help} (config: ${path})`,
        parse: spec.parse,
        choices: spec.choices,
      },
    ];
  });
}

/** Each set flag as the override of its key (discovery's keys flat: retriever, k, embeddings.*). */
export function toOverrides(flags: ConfigFlags): ConfigOverrides {
  const overrides: Record<string, unknown> = {};
  if (typeof flags.out === "string" && flags.outDir === undefined) overrides.out_dir = flags.out;
  for (const [attribute, path] of CONFIG_PATH_OF) {
    const value = flags[attribute];
    if (value === undefined) continue;
    let parent = overrides;
    for (const key of path.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>;
    parent[path[path.length - 1]] = value;
  }
  return overrides as ConfigOverrides;
}

/** `--batch` / `--no-batch`, when given, as the override of config batch (the mode table reads the result). */
export function batchOverride(flags: { batch?: boolean }): ConfigOverrides {
  return flags.batch === undefined ? {} : { batch: flags.batch };
}

/** A flag's attribute name as the command line gives it: `--max-trials` → maxTrials. */
function attributeOf(long: string): string {
  return long.slice(2).replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** Each config flag's attribute → its override path. */
const CONFIG_PATH_OF = new Map(
  listConfigKeys().flatMap(([path, spec]) => {
    const long = spec.flags?.match(/--[a-z-]+/)?.[0];
    return long === undefined ? [] : [[attributeOf(long), overridePath(path)] as const];
  }),
);

export { positiveInt, positiveIntList } from "../config/parse-number.js";
export { parseShard } from "../run-files/shard.js";

/** The TRACES argument of freeze, shadow and monitor. */
export const TRACE_FILES =
  "trace files: OTLP JSON/JSONL (GenAI or OpenInference attributes), spans, or provider request/response pairs";

/** A repeatable option's values, in order. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** A minority share for --quarantine-threshold: above 0, at most 0.5. */
export function parseMinorityShare(value: string): number {
  const share = Number(value);
  if (!Number.isFinite(share) || share <= 0 || share > 0.5)
    throw new ArgumentError("expected a share above 0 and at most 0.5 (e.g. 0.2).");
  return share;
}

/** A significance level, strictly between 0 and 1. */
export function parseAlpha(value: string): number {
  const alpha = Number(value);
  if (!Number.isFinite(alpha) || alpha <= 0 || alpha >= 1)
    throw new ArgumentError("expected a significance level between 0 and 1 (e.g. 0.05).");
  return alpha;
}
