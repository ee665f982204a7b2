import { basename, extname, resolve } from "node:path";
import type { ToolEntry } from "../config/file-types.js";
import { problemError, findJsonSchemaProblem, validateRegistryFile } from "../config/validate.js";
import { readYamlFile, type YamlFile } from "../config/yaml-document.js";
import { InputError, at } from "../errors.js";
import { CONTROL_FAMILY, CONTROL_NAMES, type Registry, type Tool } from "../types.js";

/** Registries already loaded, by absolute path: a snapshot shared by many case files loads once. */
export type RegistryCache = Map<string, Registry>;

export function createRegistryCache(): RegistryCache {
  return new Map();
}

/**
 * Load and check one registry snapshot. Beyond its schema: tool names are unique, no tool claims
 * to be a trusted control, and every input/output schema is a valid JSON Schema 2020-12.
 */
export function loadRegistry(file: string, cache?: RegistryCache): Registry {
  const absolute = resolve(file);
  const cached = cache?.get(absolute);
  if (cached !== undefined) return cached;
  const registry = readRegistry(absolute);
  cache?.set(absolute, registry);
  return registry;
}

function readRegistry(file: string): Registry {
  const yaml = readYamlFile(file);
  const written = validateRegistryFile(yaml);
  checkTools(yaml, written.tools);
  return {
    snapshot: written.snapshot ?? basename(file, extname(file)),
    revision: written.revision,
    file,
    tools: written.tools.map(toTool),
  };
}

function toTool(entry: ToolEntry): Tool {
  const { input_schema, output_schema } = entry;
  return {
    name: entry.name,
    family: entry.family,
    purpose: entry.purpose,
    use_when: entry.use_when ?? [],
    avoid_when: entry.avoid_when ?? [],
    ...(input_schema === undefined ? {} : { input_schema }),
    ...(output_schema === undefined ? {} : { output_schema }),
    effect: entry.effect,
    idempotent: entry.idempotent ?? false,
    open_world: entry.open_world ?? false,
  };
}

/** Checks run in file order, so the first problem reported is the first one in the file. */
function checkTools(yaml: YamlFile, tools: ToolEntry[]): void {
  const firstIndex = new Map<string, number>();
  tools.forEach((tool, index) => {
    checkNotControl(yaml, tool, index);
    checkUniqueName(yaml, tool, index, firstIndex);
    checkToolSchema(yaml, tool, index, "input_schema");
    checkToolSchema(yaml, tool, index, "output_schema");
  });
}

function checkNotControl(yaml: YamlFile, tool: ToolEntry, index: number): void {
  const byFamily = tool.family === CONTROL_FAMILY;
  const byName = CONTROL_NAMES.some((name) => name === tool.name);
  if (!byFamily && !byName) return;
  const why = byFamily ? `family: ${CONTROL_FAMILY}` : "a control's name";
  const line = yaml.lineOf(["tools", index, byFamily ? "family" : "name"]);
  const message =
    `tools[${index}]: tool "${tool.name}" claims to be a trusted control (${why}); ` +
    "controls come from route-eval's own configuration, not from a registry";
  throw new InputError(at(yaml.shown, line, message));
}

function checkUniqueName(yaml: YamlFile, tool: ToolEntry, index: number, firstIndex: Map<string, number>): void {
  const first = firstIndex.get(tool.name);
  if (first === undefined) {
    firstIndex.set(tool.name, index);
    return;
  }
  const firstLine = yaml.lineOf(["tools", first, "name"]);
  const message = `tools[${index}].name: duplicate tool name "${tool.name}" (first defined at line ${firstLine})`;
  throw new InputError(at(yaml.shown, yaml.lineOf(["tools", index, "name"]), message));
}

function checkToolSchema(yaml: YamlFile, tool: ToolEntry, index: number, key: "input_schema" | "output_schema"): void {
  const schema = tool[key];
  if (schema === undefined) return;
  const problem = findJsonSchemaProblem(schema);
  if (problem === null) return;
  const message = `not a valid JSON Schema 2020-12: ${problem.message}`;
  throw problemError(yaml, { ...problem, message }, ["tools", index, key]);
}
