import { existsSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { InputError, at } from "../errors.js";
import { CONTROL_NAMES, type Config, type DiscoveryConfig, type EmbeddingsConfig, type RetrieverName } from "../types.js";
import type { ConfigFile } from "./file-types.js";
import { formatPath } from "./format-error.js";
import { findConfigProblem, validateConfigFile } from "./validate.js";
import { readYamlFile, type YamlFile } from "./yaml-document.js";

/** The config file looked for in the working directory when none is named. */
export const CONFIG_FILE_NAME = "route-eval.yaml";

export const DEFAULT_SYSTEM_PROMPT =
  "You are the tool router of an assistant. Choose the single best tool for the user's request " +
  "from the tools provided and call it, taking argument values from the request and the context " +
  "without inventing any. If a tool fits but information it needs is missing, call ask_user to " +
  "ask for it. If the request can only proceed once something outside the conversation happens, " +
  "call wait_for_event. If none of the tools can serve the request, call no_applicable_tool. " +
  "Make exactly one tool call.";

/**
 * Command-line values, one per config key; each one set wins over route-eval.yaml.
 * Paths here are relative to the working directory; discovery is flattened to retriever and k.
 */
export type ConfigOverrides = Partial<Omit<Config, "file" | "root" | "discovery">> & {
  retriever?: RetrieverName;
  k?: number;
  /** Merged key by key over the file's discovery.embeddings. */
  embeddings?: Partial<EmbeddingsConfig>;
};

const RETRIEVERS_WITH_BUDGET: ReadonlySet<RetrieverName> = new Set(["bm25", "embeddings"]);

/**
 * Load route-eval.yaml (`file`, or ./route-eval.yaml when null and present, else defaults only),
 * validate it, apply defaults, then overrides. Relative paths in the file resolve against its
 * directory (`root`); `cases` stay globs relative to `root`, registry and out_dir become absolute.
 */
export function loadConfig(file: string | null, overrides: ConfigOverrides, workingDir = process.cwd()): Config {
  const cwd = resolve(workingDir);
  const path = file === null ? findDefaultConfig(cwd) : resolve(cwd, file);
  const yaml = path === null ? null : readYamlFile(path);
  const written = yaml === null ? {} : validateConfigFile(nullAsEmpty(yaml));
  const root = path === null ? cwd : dirname(path);
  checkOverrides(overrides);
  const layers = [resolveOverridePaths(overrides, cwd, root), flattenFile(written, root)];
  const config = mergeLayers(layers, path, root);
  checkRetrieverBudget(config, overrides, yaml);
  return config;
}

function findDefaultConfig(cwd: string): string | null {
  const candidate = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(candidate) ? candidate : null;
}

/** An empty route-eval.yaml means "all defaults". */
function nullAsEmpty(yaml: YamlFile): YamlFile {
  return yaml.data === null ? { ...yaml, data: {} } : yaml;
}

function flattenFile(written: ConfigFile, root: string): ConfigOverrides {
  const { discovery, cases, registry, out_dir, store_dir, ...rest } = written;
  return {
    ...rest,
    retriever: discovery?.retriever,
    k: discovery?.k,
    embeddings: discovery?.embeddings,
    cases: typeof cases === "string" ? [cases] : cases,
    registry: registry === undefined || registry === null ? registry : resolve(root, registry),
    out_dir: out_dir === undefined ? undefined : resolve(root, out_dir),
    store_dir: store_dir === undefined ? undefined : resolve(root, store_dir),
  };
}

/** Command-line paths are relative to the working directory; case globs are re-based on root. */
function resolveOverridePaths(overrides: ConfigOverrides, cwd: string, root: string): ConfigOverrides {
  const { cases, registry, out_dir, store_dir } = overrides;
  return {
    ...overrides,
    cases: cases?.map((pattern) => relative(root, resolve(cwd, pattern)) || "."),
    registry: typeof registry === "string" ? resolve(cwd, registry) : registry,
    out_dir: out_dir === undefined ? undefined : resolve(cwd, out_dir),
    store_dir: store_dir === undefined ? undefined : resolve(cwd, store_dir),
  };
}

/** The first layer that sets a key wins. */
function pick<K extends keyof ConfigOverrides>(layers: ConfigOverrides[], key: K): ConfigOverrides[K] {
  return layers.find((layer) => layer[key] !== undefined)?.[key];
}

/** retriever and k like every other key; embeddings key by key, so a flag changes one setting of the file's. */
function mergeDiscovery(layers: ConfigOverrides[]): DiscoveryConfig {
  const k = pick(layers, "k");
  const embeddings: Partial<EmbeddingsConfig> = {};
  for (const layer of [...layers].reverse()) {
    for (const [key, value] of Object.entries(layer.embeddings ?? {})) if (value !== undefined) Object.assign(embeddings, { [key]: value });
  }
  return {
    retriever: pick(layers, "retriever") ?? "none",
    ...(k === undefined ? {} : { k }),
    ...(Object.keys(embeddings).length === 0 ? {} : { embeddings }),
  };
}

function mergeLayers(layers: ConfigOverrides[], file: string | null, root: string): Config {
  return {
    file,
    root,
    cases: pick(layers, "cases") ?? ["cases/*.yaml"],
    registry: pick(layers, "registry") ?? null,
    phases: pick(layers, "phases") ?? {},
    controls: pick(layers, "controls") ?? [...CONTROL_NAMES],
    discovery: mergeDiscovery(layers),
    endpoint: pick(layers, "endpoint") ?? "baseline",
    model: pick(layers, "model") ?? null,
    trials: pick(layers, "trials") ?? 3,
    concurrency: pick(layers, "concurrency") ?? 4,
    temperature: pick(layers, "temperature") ?? 0,
    system_prompt: pick(layers, "system_prompt") ?? DEFAULT_SYSTEM_PROMPT,
    seed: pick(layers, "seed") ?? 1,
    out_dir: pick(layers, "out_dir") ?? resolve(root, "reports"),
    store_dir: pick(layers, "store_dir") ?? resolve(root, ".route-eval", "store"),
    mode: pick(layers, "mode") ?? "cached",
    base_url: pick(layers, "base_url") ?? null,
    api_key_env: pick(layers, "api_key_env") ?? null,
    max_tokens: pick(layers, "max_tokens") ?? 1024,
    timeout_ms: pick(layers, "timeout_ms") ?? 60_000,
    max_retries: pick(layers, "max_retries") ?? 4,
    retry_base_ms: pick(layers, "retry_base_ms") ?? 500,
    shuffle_tools: pick(layers, "shuffle_tools") ?? false,
    gates: pick(layers, "gates") ?? {},
  };
}

/** Command-line values must satisfy the same schema as the file's (ajv skips undefined values). */
function checkOverrides(overrides: ConfigOverrides): void {
  const { retriever, k, embeddings, ...rest } = overrides;
  const discovery = retriever === undefined && k === undefined && embeddings === undefined ? undefined : { retriever, k, embeddings };
  const problem = findConfigProblem({ ...rest, discovery });
  if (problem === null) return;
  const [top, second, third] = problem.path;
  const nested = top === "discovery" && second === "embeddings" && third !== undefined ? `embeddings_${String(third)}` : second;
  const flag = top === "discovery" && second !== undefined ? nested : top;
  const name = flag === undefined ? "options" : `--${String(flag).replace(/_/g, "-")}`;
  const inner = problem.path.length > 1 && top !== "discovery" ? `${formatPath(problem.path)}: ` : "";
  throw new InputError(`${name}: ${inner}${problem.message}`);
}

function checkRetrieverBudget(config: Config, overrides: ConfigOverrides, yaml: YamlFile | null): void {
  const { retriever, k } = config.discovery;
  if (!RETRIEVERS_WITH_BUDGET.has(retriever) || k !== undefined) return;
  const need = `retriever "${retriever}" needs k, the number of ordinary tools it keeps (controls do not count)`;
  if (overrides.retriever !== undefined || yaml === null) throw new InputError(`--retriever: ${need}; pass --k`);
  const line = yaml.lineOf(["discovery", "retriever"]);
  throw new InputError(at(yaml.shown, line, `discovery: ${need}; add discovery.k or pass --k`));
}
