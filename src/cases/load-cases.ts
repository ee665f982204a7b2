import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { validateCasesFile } from "../config/validate.js";
import { readYamlFile, showPath, type YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import {
  createRegistryCache,
  loadRegistry,
  type RegistryCache,
} from "../registry/load-registry.js";
import type { CallSetSpec, Case, Config, JsonValue, Registry } from "../types.js";
import type { CaseEntry, CasesFile } from "../config/file-types.js";
import {
  checkDecision,
  claimCaseId,
  hierarchyOf,
  splitPath,
  type CaseSource,
} from "./check-case.js";
import { listDecisions, type Decision } from "./conversations.js";
import { expandPatterns } from "./expand-globs.js";

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
  return paths.flatMap((path) => loadCaseFile(path, config, registries, seen));
}

function loadCaseFile(
  file: string,
  config: Config,
  registries: RegistryCache,
  seen: Map<string, Source>,
): Case[] {
  const yaml = readYamlFile(file, config.cwd, { linesNeeded: true });
  const written = validateCasesFile(yaml);
  const registry = loadRegistry(findRegistry(yaml, written, config), config.cwd, registries);
  const decisions = listDecisions(yaml, written, registry, config);
  const phases = Object.keys(config.phases);
  decisions.forEach((decision) => checkDecision(yaml, decision, phases));
  const hierarchies = decisions.map((decision) => hierarchyOf(yaml, decision, registry));
  const sources = decisions.map((decision) =>
    claimCaseId(yaml, decision.entry.id, decision.at, seen, config.cwd),
  );
  return decisions.map((decision, index) =>
    toCase(decision, sources[index], registry, hierarchies[index]),
  );
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

/**
 * The one empty list and the one empty object every case that writes none shares (frozen: nothing
 * adds to them): a run of 100,000 cases does not hold 700,000 empty values (270 bytes a case).
 */
const NONE = Object.freeze([]) as never[];
const NOTHING = Object.freeze({}) as Record<string, never>;

function toCase(
  { entry, turn, plan }: Decision,
  source: Source,
  registry: Registry,
  hierarchy: NonNullable<Case["hierarchy"]> | null,
): Case {
  const callSet = callSetOf(entry);
  return {
    id: entry.id,
    goal: entry.goal,
    phase: entry.phase ?? null,
    acceptable:
      hierarchy === null
        ? acceptableOf(entry)
        : [
            ...new Set(
              hierarchy.paths.map(([target, tool]) => (hierarchy.by === "agent" ? target : tool)),
            ),
          ],
    ...(hierarchy === null ? {} : { hierarchy }),
    ...(entry.todo === undefined ? {} : { todo: entry.todo }),
    ...(entry.system === undefined ? {} : { system: entry.system }),
    forbidden: entry.forbidden ?? NONE,
    family: entry.family ?? null,
    tags: entry.tags ?? NONE,
    args: entry.args ?? NOTHING,
    context: entry.context ?? NOTHING,
    messages: entry.messages ?? NONE,
    must_see: entry.must_see ?? NONE,
    must_not_see: entry.must_not_see ?? NONE,
    source,
    registry,
    ...(turn === null ? {} : { turn }),
    ...(plan === null ? {} : { plan }),
    ...(callSet === null ? {} : { call_set: callSet }),
    ...(entry.max_steps === undefined ? {} : { max_steps: entry.max_steps }),
    ...(entry.prior_steps === undefined || entry.prior_steps.length === 0
      ? {}
      : { prior_steps: entry.prior_steps }),
    ...(entry.parallel_tool_calls === undefined
      ? {}
      : { parallel_tool_calls: entry.parallel_tool_calls }),
    ...(entry.dispatch === undefined ? {} : { dispatch: entry.dispatch }),
    ...stubsOf(entry),
  };
}

/** What calls return between steps: the results written, then each expected call's own result (for calls matching it). */
function stubsOf(entry: CaseEntry): Pick<Case, "results"> {
  if ((entry.max_steps ?? 1) <= 1) return {};
  const own = (entry.calls ?? []).flatMap((call) =>
    call.result === undefined
      ? []
      : (typeof call.tool === "string" ? [call.tool] : call.tool).map((tool) => ({
          tool,
          ...(call.args === undefined ? {} : { args: call.args }),
          result: call.result as JsonValue,
        })),
  );
  const results = [...(entry.results ?? []), ...own];
  return results.length === 0 ? {} : { results };
}

/** A case's expected calls as the run holds them: each call's tools a list. */
function callSetOf(entry: CaseEntry): CallSetSpec | null {
  if (entry.calls === undefined) return null;
  return {
    expected: entry.calls.map((call) => ({
      tools: typeof call.tool === "string" ? [call.tool] : call.tool,
      ...(call.args === undefined ? {} : { args: call.args }),
    })),
    order: entry.order ?? "any",
    allow_extra: entry.allow_extra ?? [],
  };
}

/**
 * A case's acceptable tools; for a call set every tool its calls name, once, in order (the ladder's
 * first rungs read them); for a hierarchical case (`target > tool`) the tools inside (loading it
 * against its registry makes them the agents when the targets are agents).
 */
export function acceptableOf(entry: CaseEntry): string[] {
  if (entry.calls === undefined)
    return (entry.acceptable ?? []).map((name) => splitPath(name)?.[1] ?? name);
  return [
    ...new Set(
      entry.calls.flatMap((call) => (typeof call.tool === "string" ? [call.tool] : call.tool)),
    ),
  ];
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
