import { variantSlug } from "../types/ablate.js";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { InputError, at } from "../errors.js";
import { canonicalJson } from "../text/canonical-json.js";
import type { Config, RetrieverName, Variant, VariantGate } from "../types.js";
import type { VariantEntry } from "./file-types.js";
import { formatPath } from "../json-schema/describe-errors.js";
import { findGateProblem } from "../gates/gate-names.js";
import { checkModes, type ModeCommand } from "./modes.js";
import {
  fileLeaves,
  mergeLayers,
  overrideLeaves,
  type ConfigOverrides,
  type Leaves,
} from "./layers.js";
import { listConfigKeys, VARIANT_KEYS } from "./keys.js";

export { DEFAULT_SYSTEM_PROMPT } from "./keys.js";
import { findConfigProblem, validateConfigFile } from "./validate.js";
import { readYamlFile, type YamlFile } from "./yaml-document.js";

/** The config file looked for in the working directory when none is named. */
export const CONFIG_FILE_NAME = "route-eval.yaml";

export type { ConfigOverrides } from "./layers.js";

const RETRIEVERS_WITH_BUDGET: ReadonlySet<RetrieverName> = new Set(["bm25", "embeddings"]);

/** The config file a command reads: the one named, else ./route-eval.yaml when present, else none. */
function configPath(file: string | null, cwd: string): string | null {
  return file === null ? findDefaultConfig(cwd) : resolve(cwd, file);
}

/** The directory a config's relative paths (and case globs) resolve against: its file's, or the working directory without one. */
export function configRoot(file: string | null, workingDir: string): string {
  const cwd = resolve(workingDir);
  const path = configPath(file, cwd);
  return path === null ? cwd : dirname(path);
}

/**
 * Load route-eval.yaml (`file`, or ./route-eval.yaml when null and present, else defaults only),
 * validate it, apply defaults, then overrides. Relative paths in the file resolve against its
 * directory (`root`); `cases` stay globs relative to `root`, registry and out_dir become absolute.
 */
export function loadConfig(
  file: string | null,
  overrides: ConfigOverrides,
  workingDir: string,
  command: ModeCommand = "run",
): Config {
  const cwd = resolve(workingDir);
  const path = configPath(file, cwd);
  const yaml = path === null ? null : readYamlFile(path, cwd);
  const written = yaml === null ? {} : validateConfigFile(nullAsEmpty(yaml));
  const root = path === null ? cwd : dirname(path);
  checkOverrides(overrides);
  const layers = [overrideLeaves(overrides, cwd, root), fileLeaves(written, root)];
  const config = mergeLayers(layers, path, root, cwd);
  checkRetrieverBudget(config, overrides, yaml);
  resolveAdaptive(config);
  config.variant_gates = takeVariantGates(config, yaml);
  checkGates(config, yaml);
  config.variants = (written.variants ?? []).map((entry, index) =>
    resolveVariant(entry, index, config, layers, yaml, command),
  );
  checkVariantNames(config.variants, yaml);
  checkModes({ config, command }, yaml);
  return config;
}

/** `trials: auto` is adaptive trials against the gates; under adaptive trials a case's trials go up to max_trials. */
function resolveAdaptive(config: Config): void {
  if (config.trials === Infinity && config.adaptive === null) config.adaptive = "auto";
  if (config.adaptive !== null) config.trials = config.max_trials;
}

/**
 * A variant is the base config with its own settings laid over everything else (flags included):
 * the variant says what differs. Its retriever choice is its own: `retriever: none` drops the base's k.
 */
function resolveVariant(
  entry: VariantEntry,
  index: number,
  base: Config,
  layers: Leaves[],
  yaml: YamlFile | null,
  command: ModeCommand,
): Variant {
  const { name, ...settings } = entry;
  const line = yaml?.lineOf(["variants", index]) ?? null;
  const where = (message: string) =>
    new InputError(
      at(yaml?.shown ?? "route-eval.yaml", line, `variants[${index}] (${name}): ${message}`),
    );
  const config = mergeLayers(
    [fileLeaves(settings, base.root), ...layers],
    base.file,
    base.root,
    base.cwd,
  );
  if (settings.discovery?.retriever === "none" && settings.discovery.k === undefined)
    delete config.discovery.k;
  const { retriever, k } = config.discovery;
  if (retriever !== "none" && k === undefined)
    throw where(
      `retriever "${retriever}" needs k (discovery.k), the number of ordinary tools it keeps`,
    );
  if (retriever === "none" && k !== undefined)
    throw where(
      "discovery.k without a retriever: set discovery.retriever to bm25 or embeddings, or drop k",
    );
  config.gates = base.gates;
  try {
    checkModes({ config, command, variant: true });
  } catch (error) {
    throw error instanceof InputError ? where(error.message) : error;
  }
  const changes = VARIANT_KEYS.filter(
    (key) => canonicalJson(config[key]) !== canonicalJson(base[key]),
  );
  if (changes.length === 0)
    throw where(
      `changes nothing (every setting it names equals the base's); change a setting or remove the variant`,
    );
  return { name, config, changes, line };
}

/** Names are unique (by their directory too), and "base" is the base's. */
function checkVariantNames(variants: Variant[], yaml: YamlFile | null): void {
  const seen = new Map<string, string>();
  for (const variant of variants) {
    const where = (message: string) =>
      new InputError(at(yaml?.shown ?? "route-eval.yaml", variant.line, `variants: ${message}`));
    const slug = variantSlug(variant.name);
    if (slug === "base")
      throw where(
        `"${variant.name}" is the name of the base config's own run; choose another name`,
      );
    const other = seen.get(slug);
    if (other !== undefined)
      throw where(
        `"${variant.name}" and "${other}" would share the directory variants/${slug}; rename one`,
      );
    seen.set(slug, variant.name);
  }
}

/** `gates.variants` comes out of the run gates into its own list (checked against the variants when they run). */
function takeVariantGates(config: Config, yaml: YamlFile | null): VariantGate[] {
  const gates = config.gates as Record<string, unknown>;
  const written = gates.variants;
  if (written === undefined) return [];
  const { variants: _variants, ...rest } = gates;
  config.gates = rest as Config["gates"];
  return Object.entries(written as Record<string, Record<string, string>>).flatMap(
    ([variant, metrics]) =>
      Object.entries(metrics).map(([metric, threshold]) => ({
        variant,
        metric,
        threshold: threshold.trim(),
        line: yaml?.lineOf(["gates", "variants", variant, metric]) ?? null,
      })),
  );
}

function findDefaultConfig(cwd: string): string | null {
  const candidate = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(candidate) ? candidate : null;
}

/** An empty route-eval.yaml means "all defaults". */
function nullAsEmpty(yaml: YamlFile): YamlFile {
  return yaml.data === null ? { ...yaml, data: {} } : yaml;
}

/** A layer as leaf values by dotted path ("discovery.k"), paths resolved: the file's against its directory. */
/** A retrieval budget k was given but the retriever is "none" (sweep words it for a k sweep). */
export class BudgetWithoutRetriever extends InputError {}

/** Command-line values must satisfy the same schema as the file's (ajv skips undefined values). */
function checkOverrides(overrides: ConfigOverrides): void {
  // Nothing set, nothing to check — and no compiling of the config schema (a tenth of a lint).
  if (Object.values(overrides).every((value) => value === undefined)) return;
  const { retriever, k, embeddings, ...rest } = overrides;
  const discovery =
    retriever === undefined && k === undefined && embeddings === undefined
      ? undefined
      : { retriever, k, embeddings };
  // --trials auto parses to Infinity (not JSON): checked as it is written.
  const trials = rest.trials === Infinity ? "auto" : rest.trials;
  const problem = findConfigProblem({ ...rest, trials, discovery });
  if (problem === null) return;
  const path = problem.path.map(String);
  const row = listConfigKeys().find(([key]) => key.split(".").every((part, i) => path[i] === part));
  const flag = row?.[1].flags?.match(/--[a-z-]+/)?.[0] ?? "options";
  const inner =
    row !== undefined && path.length > row[0].split(".").length
      ? `${formatPath(problem.path)}: `
      : "";
  throw new InputError(`${flag}: ${inner}${problem.message}`);
}

/** A misspelt gate fails here, before the first call, at its line. */
function checkGates(config: Config, yaml: YamlFile | null): void {
  for (const [name, spec] of Object.entries(config.gates)) {
    const problem = findGateProblem(name, spec);
    if (problem === null) continue;
    const where = yaml === null ? "gates" : at(yaml.shown, yaml.lineOf(["gates", name]), "gates");
    throw new InputError(`${where}.${name}: ${problem}`);
  }
}

function checkRetrieverBudget(
  config: Config,
  overrides: ConfigOverrides,
  yaml: YamlFile | null,
): void {
  const { retriever, k } = config.discovery;
  // k without a retriever is a mistake, unless a flag turned the file's retriever off (--retriever none).
  if (
    retriever === "none" &&
    k !== undefined &&
    (overrides.k !== undefined || overrides.retriever === undefined)
  ) {
    const fix =
      "k is the retriever's budget; choose one with --retriever bm25|embeddings (config: discovery.retriever), or drop k";
    if (overrides.k !== undefined || yaml === null)
      throw new BudgetWithoutRetriever(
        `--k: no retriever to give it to (the retriever is "none"); ${fix}`,
      );
    throw new InputError(
      at(
        yaml.shown,
        yaml.lineOf(["discovery", "k"]),
        `discovery.k: no retriever to give it to (the retriever is "none"); ${fix}`,
      ),
    );
  }
  if (!RETRIEVERS_WITH_BUDGET.has(retriever) || k !== undefined) return;
  const need = `retriever "${retriever}" needs k, the number of ordinary tools it keeps (controls do not count)`;
  if (overrides.retriever !== undefined || yaml === null)
    throw new InputError(`--retriever: ${need}; pass --k`);
  const line = yaml.lineOf(["discovery", "retriever"]);
  throw new InputError(at(yaml.shown, line, `discovery: ${need}; add discovery.k or pass --k`));
}
