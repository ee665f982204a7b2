/**
 * The composition root of `route-eval lint`: find the files → read them (problems as data) → measure each
 * phase's surface with the exposure policy → lint. Unreadable input is an InputError (exit 2).
 */
import { loadConfig } from "../config/load-config.js";
import { renderLintChunks } from "../lint/render-findings.js";
import { knownWidth } from "../render/terminal-width.js";
import { writeChunks } from "./write-output.js";
import type { Io } from "../context.js";
import type { LintFormat } from "../types/formats.js";
import type { Outcome } from "../types.js";
import { resolve } from "node:path";
import { checkDecision, claimCaseId, type CaseSource } from "../cases/check-case.js";
import { listDecisions } from "../cases/conversations.js";
import { expandPatterns } from "../cases/expand-globs.js";
import { findRegistry } from "../cases/load-cases.js";
import { acceptableOf } from "../cases/make-case.js";
import { validateCasesFile } from "../config/validate.js";
import { readYamlFile, type YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { expose } from "../exposure/expose.js";
import type { LintCaseFile, LintProject, LintRegistry, LintSurface } from "../lint/lint-input.js";
import { lintProject, type LintResult } from "../lint/lint.js";
import { parseRegistry } from "../registry/parse-registry.js";
import type { Config, Exposure } from "../types.js";

/**
 * Lint `files` (registries and case files, told apart by their `tools:` or `cases:` key; paths or
 * globs relative to `cwd`), or, when none are given, the config's cases and their registries.
 */
export function lintFiles(config: Config, files: string[]): LintResult {
  const cwd = config.cwd;
  const registries = new Map<string, LintRegistry>();
  const loadRegistry = (file: string | YamlFile): LintRegistry => {
    const absolute = typeof file === "string" ? resolve(cwd, file) : file.file;
    const cached = registries.get(absolute) ?? readLintRegistry(file, cwd);
    registries.set(absolute, cached);
    return cached;
  };
  const { registryFiles, caseFiles } =
    files.length > 0 ? classifyFiles(files, cwd) : configFiles(config);
  registryFiles.forEach(loadRegistry);
  const seen = new Map<string, CaseSource>();
  const cases = caseFiles.map((file) => readLintCaseFile(file, config, loadRegistry, seen));
  const project: LintProject = {
    registries: [...registries.values()],
    caseFiles: cases.map(({ file }) => file),
    surfaces: measureSurfaces(config, [...registries.values()], cases),
  };
  return lintProject(project);
}

interface Inputs {
  registryFiles: (string | YamlFile)[];
  caseFiles: (string | YamlFile)[];
}

function classifyFiles(patterns: string[], cwd: string): Inputs {
  const inputs: Inputs = { registryFiles: [], caseFiles: [] };
  for (const file of expandPatterns(patterns, cwd, cwd)) {
    const yaml = readYamlFile(file, cwd, { linesNeeded: true });
    const data = yaml.data;
    const keys =
      data !== null && typeof data === "object" && !Array.isArray(data) ? Object.keys(data) : [];
    if (keys.includes("tools")) inputs.registryFiles.push(yaml);
    else if (keys.includes("cases")) inputs.caseFiles.push(yaml);
    else
      throw new InputError(
        `${yaml.shown}:1: neither a registry snapshot (tools:) nor a case file (cases:)`,
      );
  }
  return inputs;
}

function configFiles(config: Config): Inputs {
  return {
    registryFiles: config.registry === null ? [] : [config.registry],
    caseFiles: expandPatterns(config.cases, config.root, config.cwd),
  };
}

function readLintRegistry(file: string | YamlFile, cwd: string): LintRegistry {
  const yaml = typeof file === "string" ? readYamlFile(file, cwd, { linesNeeded: true }) : file;
  const { registry, problems } = parseRegistry(yaml);
  if (registry === null)
    throw new InputError(
      at(yaml.shown, problems[0]?.line ?? 1, problems[0]?.message ?? "is not a registry snapshot"),
    );
  const positions = new Map(registry.tools.map((tool, index) => [tool, index]));
  return {
    file: yaml.shown,
    snapshot: registry.snapshot,
    tools: registry.tools,
    problems,
    lineOf: yaml.lineOf,
    indexOf: (tool) => positions.get(tool) ?? 0,
  };
}

interface ReadCaseFile {
  file: LintCaseFile;
  /** The phase of each case (null: none). */
  phases: (string | null)[];
}

function readLintCaseFile(
  file: string | YamlFile,
  config: Config,
  loadRegistry: (path: string) => LintRegistry,
  seen: Map<string, CaseSource>,
): ReadCaseFile {
  const yaml =
    typeof file === "string" ? readYamlFile(file, config.cwd, { linesNeeded: true }) : file;
  const written = validateCasesFile(yaml);
  const registry = loadRegistry(findRegistry(yaml, written, config));
  const decisions = listDecisions(yaml, written, registry, config);
  const phaseNames = Object.keys(config.phases);
  decisions.forEach((decision) => checkDecision(yaml, decision, phaseNames));
  decisions.forEach((decision) =>
    claimCaseId(yaml, decision.entry.id, decision.at, seen, config.cwd),
  );
  const cases = decisions.map(({ entry, at, goalKey }) => ({
    at,
    goalKey,
    id: entry.id,
    goal: entry.goal,
    family: entry.family ?? null,
    acceptable: acceptableOf(entry),
    forbidden: entry.forbidden ?? [],
    must_see: entry.must_see ?? [],
    must_not_see: entry.must_not_see ?? [],
    todo: entry.todo ?? null,
  }));
  return {
    file: { file: yaml.shown, registry, cases, lineOf: yaml.lineOf },
    phases: decisions.map((d) => d.entry.phase ?? null),
  };
}

/**
 * Every configured phase on every registry, plus "no phase" (the whole registry) for a registry
 * that cases use without a phase, or when no phases are configured at all.
 */
function measureSurfaces(
  config: Config,
  registries: LintRegistry[],
  cases: ReadCaseFile[],
): LintSurface[] {
  const configYaml: YamlFile | null =
    config.file === null ? null : readYamlFile(config.file, config.cwd);
  const phases = Object.entries(config.phases);
  return registries.flatMap((registry) => {
    const tools = registry.tools;
    const surface = (
      phase: string | null,
      exposure: Exposure,
      file: string,
      line: number | null,
    ): LintSurface => ({
      phase,
      registry,
      exposed: exposure.exposed.length,
      hidden: countReasons(exposure.hidden),
      k: config.discovery.retriever === "none" ? null : (config.discovery.k ?? null),
      controls: config.controls.length,
      file,
      line,
    });
    const phased = phases.map(([name, policy]) =>
      surface(
        name,
        expose(tools, policy, []),
        configYaml?.shown ?? registry.file,
        configYaml?.lineOf(["phases", name]) ?? null,
      ),
    );
    const unphased =
      phases.length === 0 ||
      cases.some((c) => c.file.registry === registry && c.phases.includes(null));
    return unphased
      ? [
          ...phased,
          surface(null, expose(tools, null, []), registry.file, registry.lineOf(["tools"])),
        ]
      : phased;
  });
}

function countReasons(hidden: Exposure["hidden"]): LintSurface["hidden"] {
  const counts: LintSurface["hidden"] = {};
  for (const reason of Object.values(hidden)) counts[reason] = (counts[reason] ?? 0) + 1;
  return counts;
}

export interface LintFlags {
  config?: string;
  cases?: string[];
  registry?: string;
  format: LintFormat;
  strict?: boolean;
  output?: string;
  all?: boolean;
}

/** `route-eval lint [FILES]`: every finding, rendered; "failed" on an error (or, with --strict, a warning). */
export function lintCommand(io: Io, files: string[], flags: LintFlags): Outcome {
  const overrides = {
    ...(flags.cases ? { cases: flags.cases } : {}),
    ...(flags.registry ? { registry: flags.registry } : {}),
  };
  const config = loadConfig(flags.config ?? null, overrides, io.cwd, "other");
  // `lint --registry FILE` with no case files (none given, none configured) lints FILE itself.
  const alone =
    files.length === 0 &&
    flags.registry !== undefined &&
    flags.cases === undefined &&
    config.file === null;
  const result = lintFiles(config, alone ? [flags.registry ?? ""] : files);
  writeChunks(
    io,
    renderLintChunks(
      result,
      flags.format,
      flags.output === undefined ? (knownWidth(io) ?? undefined) : undefined,
      flags.all === true,
    ),
    flags.output,
  );
  const failed = result.counts.error > 0 || (flags.strict === true && result.counts.warning > 0);
  return failed ? "failed" : "ok";
}
