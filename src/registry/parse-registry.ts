/**
 * The one reader of a registry snapshot. Every rule about a snapshot lives here and reports a
 * problem as data: `run` raises the first (`file:line: message`, exit 2), `lint` lists them all
 * in the same words beside its design rules. A snapshot whose shape is wrong beyond a tool's name
 * or purpose has no registry value (nothing else can be checked); a bad name or a missing purpose
 * still yields the tools, so lint can say everything else about them.
 */
import type { JsonPath } from "../types/json.js";
import { basename, extname } from "node:path";
import type { ErrorObject } from "ajv/dist/2020.js";
import type { RegistryFile, ToolEntry } from "../config/file-types.js";
import { describeSchemaErrors, formatPath, isRecord } from "../json-schema/describe-errors.js";
import { registryShapeErrors } from "../config/validate.js";
import { dialectOf } from "../json-schema/dialects.js";
import type { YamlFile } from "../config/yaml-document.js";
import {
  CONTROL_FAMILY,
  CONTROL_NAMES,
  type JsonObject,
  type Registry,
  type Tool,
} from "../types.js";
import { findSchemaProblem } from "./find-schema-problem.js";

/** Rules a snapshot can break; lint shows the first three as its findings of the same names. */
export type RegistryRule =
  "control-claim" | "name-duplicate" | "schema-invalid" | "registry-shape" | "tool-partial";

export interface RegistryProblem {
  rule: RegistryRule;
  /** 1-based line in the snapshot file. */
  line: number;
  /** What is wrong, starting with the JSON path: `tools[2].name: duplicate tool name "x" (…)`. */
  message: string;
  /** How to fix it, for lint's listing. */
  fix: string;
  tool?: string;
  /** Which of the tool's schemas a schema-invalid problem is about. */
  schema?: "input_schema" | "output_schema";
}

export interface ParsedRegistry {
  /** null when the shape is wrong beyond a tool's name or purpose. */
  registry: Registry | null;
  problems: RegistryProblem[];
}

export function parseRegistry(yaml: YamlFile): ParsedRegistry {
  const errors = registryShapeErrors(yaml.data);
  const shape = errors.length === 0 ? [] : [shapeProblem(yaml, errors)];
  if (errors.some((error) => !isToolLevel(error)) || !isRegistryFile(yaml.data))
    return { registry: null, problems: shape };
  const written = yaml.data;
  return {
    registry: {
      snapshot: written.snapshot ?? basename(yaml.file, extname(yaml.file)),
      revision: written.revision,
      file: yaml.file,
      tools: written.tools.map(toTool),
    },
    problems: [...shape, ...checkTools(yaml, written.tools), ...checkPartial(yaml, written)],
  };
}

/** The schema's own errors on a tool's name pattern or its purpose: the tool can still be read. */
function isToolLevel(error: ErrorObject): boolean {
  if (/^\/tools\/\d+\/name$/.test(error.instancePath)) return error.keyword === "pattern";
  if (/^\/tools\/\d+\/purpose$/.test(error.instancePath)) return error.keyword === "minLength";
  return (
    /^\/tools\/\d+$/.test(error.instancePath) &&
    error.keyword === "required" &&
    error.params.missingProperty === "purpose"
  );
}

/** Past isToolLevel, what is left is the registry's shape with a name or purpose that may be off. */
function isRegistryFile(data: unknown): data is RegistryFile {
  return isRecord(data) && typeof data.revision === "string" && Array.isArray(data.tools);
}

function shapeProblem(yaml: YamlFile, errors: ErrorObject[]): RegistryProblem {
  const problem = describeSchemaErrors(errors, yaml.data);
  const where = problem.path.length > 0 ? `${formatPath(problem.path)}: ` : "";
  return {
    rule: "registry-shape",
    line: yaml.lineOf(problem.at),
    message: where + problem.message,
    fix: "correct it against schemas/registry.schema.json",
  };
}

/** "2020-12", "draft-07"…, or null for a $schema route-eval does not read (the problem says so). */
function dialectName(schema: JsonObject): string | null {
  const dialect = dialectOf(schema);
  return typeof dialect === "string" ? dialect : null;
}

function toTool(entry: ToolEntry): Tool {
  const { input_schema, output_schema } = entry;
  return {
    name: entry.name,
    family: entry.family,
    purpose: entry.purpose ?? "",
    use_when: entry.use_when ?? [],
    avoid_when: entry.avoid_when ?? [],
    ...(input_schema === undefined ? {} : { input_schema }),
    ...(output_schema === undefined ? {} : { output_schema }),
    effect: entry.effect,
    idempotent: entry.idempotent ?? false,
    open_world: entry.open_world ?? false,
  };
}

/** Tools a trace gave by name alone: each is a finding until its definition is written (an unknown name is one too). */
function checkPartial(yaml: YamlFile, written: RegistryFile): RegistryProblem[] {
  const names = new Set(written.tools.map((tool) => tool.name));
  return (written.partial ?? []).map((name, index) => {
    const line = yaml.lineOf(["partial", index]);
    if (!names.has(name))
      return {
        rule: "registry-shape",
        line,
        message: `partial[${index}]: "${name}" is not a tool of this snapshot`,
        fix: "remove it from partial:",
      };
    return {
      rule: "tool-partial",
      line,
      tool: name,
      message: `partial[${index}]: tool "${name}" is known by name alone (the trace gave no description or schema): its purpose is its name and it has no input_schema`,
      fix: "write its purpose and input_schema (or freeze again with --registry SNAPSHOT to join it by name), then remove it from partial:",
    };
  });
}

/** Tool by tool in file order, so the first problem is the first one in the file. */
function checkTools(yaml: YamlFile, tools: ToolEntry[]): RegistryProblem[] {
  const firstIndex = new Map<string, number>();
  return tools.flatMap((tool, index) => [
    ...checkNotControl(yaml, tool, index),
    ...checkUniqueName(yaml, tool, index, firstIndex),
    ...checkToolSchema(yaml, tool, index, "input_schema"),
    ...checkToolSchema(yaml, tool, index, "output_schema"),
  ]);
}

function checkNotControl(yaml: YamlFile, tool: ToolEntry, index: number): RegistryProblem[] {
  const byFamily = tool.family === CONTROL_FAMILY;
  const byName = CONTROL_NAMES.some((name) => name === tool.name);
  if (!byFamily && !byName) return [];
  const why = byFamily ? `family: ${CONTROL_FAMILY}` : "a control's name";
  return [
    {
      rule: "control-claim",
      line: yaml.lineOf(["tools", index, byFamily ? "family" : "name"]),
      tool: tool.name,
      message:
        `tools[${index}]: tool "${tool.name}" claims to be a trusted control (${why}); ` +
        "controls come from route-eval's own configuration, not from a registry",
      fix: byFamily
        ? "give it an ordinary family"
        : `rename it; ${CONTROL_NAMES.join(", ")} are built in`,
    },
  ];
}

function checkUniqueName(
  yaml: YamlFile,
  tool: ToolEntry,
  index: number,
  firstIndex: Map<string, number>,
): RegistryProblem[] {
  const first = firstIndex.get(tool.name);
  if (first === undefined) {
    firstIndex.set(tool.name, index);
    return [];
  }
  const firstLine = yaml.lineOf(["tools", first, "name"]);
  return [
    {
      rule: "name-duplicate",
      line: yaml.lineOf(["tools", index, "name"]),
      tool: tool.name,
      message: `tools[${index}].name: duplicate tool name "${tool.name}" (first defined at line ${firstLine})`,
      fix: "rename one of them or merge them into one tool",
    },
  ];
}

function checkToolSchema(
  yaml: YamlFile,
  tool: ToolEntry,
  index: number,
  key: "input_schema" | "output_schema",
): RegistryProblem[] {
  const schema = tool[key];
  if (schema === undefined) return [];
  const problem = findSchemaProblem(schema);
  if (problem === null) return [];
  const path: JsonPath = ["tools", index, key];
  return [
    {
      rule: "schema-invalid",
      line: yaml.lineOf([...path, ...problem.at]),
      tool: tool.name,
      schema: key,
      message: `${formatPath([...path, ...problem.path])}: ${dialectName(schema) === null ? "" : `not a valid JSON Schema ${dialectName(schema)}: `}${problem.message}`,
      fix: "correct it against its dialect's meta-schema (json-schema.org); without $schema that is 2020-12",
    },
  ];
}
