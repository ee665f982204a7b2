import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { validateCasesFile } from "../config/validate.js";
import { readSequenceChunks } from "../config/yaml-chunks.js";
import {
  parseFileText,
  readFileText,
  showPath,
  type FileText,
  type YamlFile,
} from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import {
  createRegistryCache,
  loadRegistry,
  type RegistryCache,
} from "../registry/load-registry.js";
import type { Case, Config, Registry } from "../types.js";
import type { CasesFile } from "../config/file-types.js";
import { checkDecision, claimCaseId, hierarchyOf, type CaseSource } from "./check-case.js";
import { listDecisions, type Decision } from "./conversations.js";
import { expandPatterns } from "./expand-globs.js";
import { newNames, toCase, type Names } from "./make-case.js";

type Source = CaseSource;

/**
 * Load every routing case: the files matching `config.cases` (globs relative to `config.root`),
 * or `files` (paths or globs relative to the working directory) when given. Cases come in file
 * order (files sorted by path); ids are unique across files. Tools named in acceptable but absent
 * from the registry are not an error here: that is a coverage failure, which the run measures.
 */
export function loadCases(config: Config, files?: string[]): Case[] {
  const paths =
    files !== undefined && files.length > 0
      ? expandPatterns(files, config.cwd, config.cwd)
      : expandCaseGlobs(config);
  const registries = createRegistryCache();
  /** Case id → where its `id:` is written. */
  const seen = new Map<string, Source>();
  const names = newNames();
  return paths.flatMap((path) => loadCaseFile(path, config, registries, seen, names));
}

function loadCaseFile(
  file: string,
  config: Config,
  registries: RegistryCache,
  seen: Map<string, Source>,
  names: Names,
): Case[] {
  let read: FileText | null = readFileText(file, config.cwd);
  // A large file's cases a slice at a time (config/yaml-chunks.ts): its data is never whole.
  const slices = readSequenceChunks(read, "cases");
  if (slices !== null) {
    const claimed = seen.size;
    try {
      const cases: Case[] = [];
      for (const { yaml } of slices)
        for (const made of casesOf(() => yaml, config, registries, seen, names)) cases.push(made);
      return cases;
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      // Read again whole, which names any problem as it always has (its line, its path).
      [...seen.keys()].slice(claimed).forEach((id) => seen.delete(id));
    }
  }
  // Its text parsed and let go: held by its lines only until the decisions are read.
  const whole = (): YamlFile => {
    const yaml = parseFileText(read as FileText, true);
    read = null;
    return yaml;
  };
  return casesOf(whole, config, registries, seen, names);
}

/**
 * A case file's cases (or a slice's). The file's text, data and lines are let go before its cases
 * are made, and each decision as its case is: a 14 MB case file is not held beside its 100,000
 * cases.
 */
function casesOf(
  read: () => YamlFile,
  config: Config,
  registries: RegistryCache,
  seen: Map<string, Source>,
  names: Names,
): Case[] {
  const { registry, decisions, sources, hierarchies } = readDecisions(
    read,
    config,
    registries,
    seen,
  );
  const cases: Case[] = [];
  for (let index = 0; index < decisions.length; index++) {
    const decision = decisions[index] as Decision;
    decisions[index] = null;
    cases.push(toCase(decision, sources[index], registry, hierarchies[index], names));
  }
  return cases;
}

/** A case file's decisions, each checked and its id claimed, with where it is written. */
function readDecisions(
  read: () => YamlFile,
  config: Config,
  registries: RegistryCache,
  seen: Map<string, Source>,
): {
  registry: Registry;
  decisions: (Decision | null)[];
  sources: Source[];
  hierarchies: (NonNullable<Case["hierarchy"]> | null)[];
} {
  const yaml = read();
  const written = validateCasesFile(yaml);
  const registry = loadRegistry(findRegistry(yaml, written, config), config.cwd, registries);
  const decisions = listDecisions(yaml, written, registry, config);
  const phases = Object.keys(config.phases);
  const sources: Source[] = [];
  const hierarchies: (NonNullable<Case["hierarchy"]> | null)[] = [];
  for (const decision of decisions) {
    checkDecision(yaml, decision, phases);
    hierarchies.push(hierarchyOf(yaml, decision, registry));
    sources.push(claimCaseId(yaml, decision.entry.id, decision.at, seen, config.cwd));
  }
  return { registry, decisions, sources, hierarchies };
}

/** The config's registry wins over the file's own `registry:`, which is relative to the file. */
export function findRegistry(yaml: YamlFile, written: CasesFile, config: Config): string {
  const own = written.registry === undefined ? null : resolve(dirname(yaml.file), written.registry);
  if (own !== null && config.registry !== null && !existsSync(own)) {
    const message = `registry "${written.registry}" not found (tried ${showPath(own, config.cwd)}), even though --registry / registry: in route-eval.yaml overrides it; fix or remove the case file's registry:`;
    throw new InputError(at(yaml.shown, yaml.lineOf(["registry"]), message));
  }
  if (config.registry !== null) {
    if (existsSync(config.registry)) return config.registry;
    throw new InputError(
      `${showPath(config.registry, config.cwd)}: registry file not found (set by registry: in route-eval.yaml or --registry)`,
    );
  }
  if (written.registry === undefined) {
    const fix =
      "add registry: <snapshot file> to this case file, set registry: in route-eval.yaml, or pass --registry";
    throw new InputError(at(yaml.shown, null, `no registry for these cases; ${fix}`));
  }
  const path = resolve(dirname(yaml.file), written.registry);
  if (existsSync(path)) return path;
  const message =
    `registry "${written.registry}" not found (tried ${showPath(path, config.cwd)}); ` +
    "registry: in the case file (relative to it) or --registry sets it";
  throw new InputError(at(yaml.shown, yaml.lineOf(["registry"]), message));
}

/** The config's case files; in a folder with neither route-eval.yaml nor cases, say how to start. */
function expandCaseGlobs(config: Config): string[] {
  try {
    return expandPatterns(config.cases, config.root, config.cwd, "cases");
  } catch (error) {
    const defaults = config.cases.length === 1 && config.cases[0] === "cases/*.yaml";
    if (config.file !== null || !defaults || !(error instanceof InputError)) throw error;
    throw new InputError(
      `no route-eval.yaml in ${config.cwd} and no case files (${config.cases.join(", ")}): create them with \`route-eval init\`, or name a config with --config`,
    );
  }
}
