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
import {
  describeProblem,
  describeSchemaErrors,
  formatPath,
  isRecord,
} from "../json-schema/describe-errors.js";
import { registryShapeErrors } from "../config/validate.js";
import { dialectOf } from "../json-schema/dialects.js";
import type { YamlFile } from "../config/yaml-document.js";
import {
  CONTROL_FAMILY,
  CONTROL_NAMES,
  type AgentTools,
  type Dispatch,
  type DispatchedKind,
  type JsonObject,
  type Registry,
  type ServerGroup,
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
      ...arrangeTargets(written),
    },
    problems: [
      ...shape,
      ...checkTools(yaml, written.tools),
      ...checkPartial(yaml, written),
      ...checkTargets(yaml, written),
    ],
  };
}

export const DEFAULT_DISPATCH: Dispatch = {
  style: "functions",
  skill: { name: "Skill", argument: "skill" },
  agent: { name: "Task", argument: "subagent_type" },
};

/**
 * The entries as a decision meets them (docs/targets.md): every tool, skill and agent (an agent's
 * own tools among them: registry/targets.ts offers them only once the task is handed to it);
 * servers as groups of tools.
 */
function arrangeTargets(
  written: RegistryFile,
): Pick<Registry, "tools" | "servers" | "agents" | "dispatch"> {
  const entries = written.tools;
  const byName = new Map(entries.map((entry) => [entry.name, entry]));
  const agents = new Map<string, AgentTools>();
  const servers: ServerGroup[] = [];
  for (const entry of entries) {
    const members = (entry.tools ?? []).filter((name) => isPlainTool(byName.get(name)));
    if (entry.kind === "server")
      servers.push({ name: entry.name, purpose: entry.purpose ?? "", tools: members });
    if (entry.kind === "agent" && members.length > 0)
      agents.set(entry.name, {
        instructions: entry.instructions ?? entry.purpose ?? "",
        tools: members,
      });
  }
  const dispatch = dispatchOf(written);
  return {
    tools: entries.filter((entry) => entry.kind !== "server").map(toTool),
    ...(servers.length === 0 ? {} : { servers }),
    ...(agents.size === 0 ? {} : { agents }),
    ...(dispatch === null ? {} : { dispatch }),
  };
}

function isPlainTool(entry: ToolEntry | undefined): boolean {
  return entry !== undefined && (entry.kind ?? "tool") === "tool";
}

function dispatchOf(written: RegistryFile): Dispatch | null {
  if (written.dispatch === undefined && written.dispatchers === undefined) return null;
  const own = written.dispatchers ?? {};
  const dispatcher = (kind: DispatchedKind) => {
    const given = own[kind];
    return given === undefined
      ? DEFAULT_DISPATCH[kind]
      : { name: given.tool, argument: given.argument };
  };
  return {
    style: written.dispatch ?? "functions",
    skill: dispatcher("skill"),
    agent: dispatcher("agent"),
  };
}

/** What a target entry may hold, the names its tools: list, and dispatchers that would shadow a name. */
function checkTargets(yaml: YamlFile, written: RegistryFile): RegistryProblem[] {
  const byName = new Map(written.tools.map((entry) => [entry.name, entry]));
  const problems: RegistryProblem[] = [];
  const problem = (path: JsonPath, message: string, fix: string, tool?: string) =>
    problems.push({
      rule: "registry-shape",
      line: yaml.lineOf(path),
      message: `${formatPath(path)}: ${message}`,
      fix,
      ...(tool === undefined ? {} : { tool }),
    });
  written.tools.forEach((entry, index) => {
    const kind = entry.kind ?? "tool";
    if (entry.tools !== undefined && kind !== "agent" && kind !== "server")
      problem(
        ["tools", index, "tools"],
        `${kind} "${entry.name}" lists tools; only an agent (its own tools) or a server (the tools it groups) has them`,
        "remove tools:, or give the entry kind: agent or kind: server",
        entry.name,
      );
    if (entry.instructions !== undefined && kind !== "agent")
      problem(
        ["tools", index, "instructions"],
        `${kind} "${entry.name}" has instructions; only an agent has them (its system prompt once handed the task)`,
        "remove instructions:, or give the entry kind: agent",
        entry.name,
      );
    (entry.tools ?? []).forEach((name, at) => {
      const member = byName.get(name);
      if (isPlainTool(member)) return;
      problem(
        ["tools", index, "tools", at],
        member === undefined
          ? `"${name}" is not an entry of this snapshot`
          : `"${name}" is a ${member.kind}; ${kind} "${entry.name}" can hold only tools`,
        "name an ordinary tool of this snapshot (its own entry, kind tool)",
        entry.name,
      );
    });
  });
  // Any case may fold the registry's targets into their dispatcher (its own dispatch: tool).
  const dispatch = dispatchOf(written) ?? DEFAULT_DISPATCH;
  for (const kind of ["skill", "agent"] as const) {
    if (!written.tools.some((entry) => entry.kind === kind)) continue;
    const name = dispatch[kind].name;
    if (!byName.has(name) && !CONTROL_NAMES.some((control) => control === name)) continue;
    const clash = written.tools.findIndex((entry) => entry.name === name);
    problem(
      written.dispatchers?.[kind] !== undefined
        ? ["dispatchers", kind, "tool"]
        : clash >= 0
          ? ["tools", clash, "name"]
          : ["dispatch"],
      `the ${kind} dispatcher tool "${name}" has the name of an entry or control (a case's dispatch: tool would offer both)`,
      `name the dispatcher otherwise (dispatchers: ${kind}: {tool: NAME, argument: ARG})`,
    );
  }
  return problems;
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
  return {
    rule: "registry-shape",
    line: yaml.lineOf(problem.at),
    message: describeProblem(problem),
    fix: "correct it against schemas/registry.schema.json",
  };
}

/** "2020-12", "draft-07"…, or null for a $schema route-eval does not read (the problem says so). */
function dialectName(schema: JsonObject): string | null {
  const dialect = dialectOf(schema);
  return typeof dialect === "string" ? dialect : null;
}

function toTool(entry: ToolEntry): Tool {
  const { input_schema, output_schema, kind } = entry;
  return {
    name: entry.name,
    ...(kind === "skill" || kind === "agent" ? { kind } : {}),
    family: entry.family ?? (kind === "server" ? entry.name : (kind ?? "tool")),
    purpose: entry.purpose ?? "",
    use_when: entry.use_when ?? [],
    avoid_when: entry.avoid_when ?? [],
    ...(input_schema === undefined ? {} : { input_schema }),
    ...(output_schema === undefined ? {} : { output_schema }),
    effect: entry.effect ?? "none",
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
