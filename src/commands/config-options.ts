/** The options every command that loads route-eval.yaml shares, one per row of the key table, and their overrides. */
import { Option, type Command } from "commander";
import type { ConfigOverrides } from "../config/load-config.js";
import { listConfigKeys, overridePath } from "../config/keys.js";

/** Commander's values of the shared config options, by attribute name (see `toOverrides`). */
export interface ConfigFlags {
  config?: string;
  [attribute: string]: unknown;
}

/** The flags every command that loads route-eval.yaml shares, one per row of the key table. */
export function addConfigOptions(command: Command): Command {
  command.option("-c, --config <file>", "config file (default: ./route-eval.yaml when present)");
  for (const option of configOptions()) command.addOption(option);
  command.addOption(OUT_ALIAS);
  return command;
}

function configOptions(): Option[] {
  return listConfigKeys().flatMap(([path, spec]) => {
    if (spec.flags === undefined) return [];
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

