/**
 * A config as layers: the file's values and the command line's, each a map from a key of the
 * config key table to its value (paths resolved as the key says), merged — the first layer that
 * sets a key wins, else the table's default — into the shape of Config. A variant is one more
 * layer over the others.
 */
import { relative, resolve } from "node:path";
import { isRecord } from "../json-schema/describe-errors.js";
import type { Config, EmbeddingsConfig, RetrieverName } from "../types.js";
import type { ConfigFile } from "./file-types.js";
import { listConfigKeys, overridePath, type ConfigPath } from "./keys.js";

/**
 * Command-line values, one per config key; each one set wins over route-eval.yaml.
 * Paths here are relative to the working directory; discovery is flattened to retriever and k.
 */
export type ConfigOverrides = Partial<
  Omit<Config, "file" | "root" | "discovery" | "tool_search">
> & {
  tool_search?: Partial<Config["tool_search"]>;
  retriever?: RetrieverName;
  k?: number;
  /** Merged key by key over the file's discovery.embeddings. */
  embeddings?: Partial<EmbeddingsConfig>;
};

export type Leaves = Map<ConfigPath, unknown>;

function valueAt(data: unknown, path: string[]): unknown {
  let value = data;
  for (const key of path) value = isRecord(value) ? value[key] : undefined;
  return value;
}

export function fileLeaves(written: Omit<ConfigFile, "variants">, root: string): Leaves {
  const leaves: Leaves = new Map();
  for (const [path, spec] of listConfigKeys()) {
    const value = valueAt(written, path.split("."));
    if (value === undefined) continue;
    if (spec.path === "glob") leaves.set(path, typeof value === "string" ? [value] : value);
    else if (spec.path === "file" && typeof value === "string")
      leaves.set(path, resolve(root, value));
    else leaves.set(path, spec.read === undefined ? value : spec.read(value));
  }
  return leaves;
}

/** Command-line paths are relative to the working directory; case globs are re-based on root. */
export function overrideLeaves(overrides: ConfigOverrides, cwd: string, root: string): Leaves {
  const leaves: Leaves = new Map();
  for (const [path, spec] of listConfigKeys()) {
    const value = valueAt(overrides, overridePath(path));
    if (value === undefined) continue;
    if (spec.path === "glob" && Array.isArray(value))
      leaves.set(
        path,
        value.map((p) => relative(root, resolve(cwd, String(p))) || "."),
      );
    else if (spec.path === "file" && typeof value === "string")
      leaves.set(path, resolve(cwd, value));
    else leaves.set(path, value);
  }
  return leaves;
}

/** For each key the first layer that sets it wins, else the table's default; nested into Config's shape. */
export function mergeLayers(
  layers: Leaves[],
  file: string | null,
  root: string,
  cwd: string,
): Config {
  const config: Record<string, unknown> = { file, root, cwd, variants: [], variant_gates: [] };
  for (const [path, spec] of listConfigKeys()) {
    const set = layers.find((layer) => layer.has(path));
    const value =
      set !== undefined
        ? set.get(path)
        : typeof spec.default === "function"
          ? spec.default(root)
          : spec.default;
    if (value === undefined) continue;
    const parts = path.split(".");
    let parent = config;
    for (const key of parts.slice(0, -1)) {
      if (!isRecord(parent[key])) parent[key] = {};
      parent = parent[key] as Record<string, unknown>;
    }
    parent[parts[parts.length - 1]] =
      Array.isArray(value) && set === undefined ? [...value] : value;
  }
  return config as unknown as Config;
}
