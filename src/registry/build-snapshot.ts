/**
 * Tools as a source declares them (MCP, OpenAI, Anthropic) → a registry snapshot. What a source
 * says about a tool's behaviour (MCP annotations) is a hint from code route-eval did not write:
 * it is kept under `declared` and changes effect, idempotent and open_world only when the user
 * trusts it. Without that, every tool gets the conservative contract: destructive, not
 * idempotent, open-world — the MCP specification's own defaults when hints are absent.
 */
import type { RegistryFile, ToolEntry } from "../config/file-types.js";
import { findJsonSchemaProblem } from "../json-schema/schema-problems.js";
import { InputError } from "../errors.js";
import { shortContentHash } from "../text/content-hash.js";
import { CONTROL_FAMILY, CONTROL_NAMES, type Effect, type JsonObject } from "../types.js";
import { splitDescription } from "./split-description.js";

/** MCP tool annotations that describe behaviour. */
export interface BehaviourHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool as its source declares it. */
export interface SourceTool {
  name: string;
  description?: string;
  input_schema?: JsonObject;
  output_schema?: JsonObject;
  hints: BehaviourHints;
  /** Everything else the source declared that is worth keeping (title, annotations, strict…). */
  declared: JsonObject;
  /** Its family when the source says (the MCP server it came from); else the snapshot's. */
  family?: string;
  /** A skill, an agent or a server (docs/targets.md); absent for a tool. */
  kind?: "skill" | "agent" | "server";
  /** An agent's own tools, or the tools a server groups (names of other source tools). */
  members?: string[];
  /** An agent's system prompt. */
  instructions?: string;
}

export interface SnapshotOptions {
  snapshot: string;
  family: string;
  /** Provenance, e.g. `mcp: tools.json`. */
  source: string;
  trustAnnotations: boolean;
  /** How the framework offers its skills or agents (docs/targets.md). */
  dispatch?: "tool";
}

export interface BuiltSnapshot {
  registry: RegistryFile;
  /** Things the user should review (renamed tools, invalid schemas…), one line each. */
  warnings: string[];
}

const PROVIDER_SAFE = /^[A-Za-z0-9_-]{1,64}$/;

export function buildSnapshot(sources: SourceTool[], options: SnapshotOptions): BuiltSnapshot {
  if (options.family === CONTROL_FAMILY) {
    throw new InputError(
      `--family: "${CONTROL_FAMILY}" is reserved for route-eval's trusted controls; choose another family`,
    );
  }
  const warnings: string[] = [];
  const tools = sources.map((source, index) => toToolEntry(source, index, options, warnings));
  warnDuplicates(tools, warnings);
  const revision = `sha256:${shortContentHash(tools)}`;
  return {
    registry: {
      snapshot: options.snapshot,
      revision,
      source: options.source,
      ...(options.dispatch === undefined ? {} : { dispatch: options.dispatch }),
      tools,
    },
    warnings,
  };
}

function toToolEntry(
  source: SourceTool,
  index: number,
  options: SnapshotOptions,
  warnings: string[],
): ToolEntry {
  const name = safeName(source.name);
  const declared: JsonObject = { ...source.declared };
  if (name !== source.name) {
    declared.name = source.name;
    warnings.push(
      `tools[${index}]: "${source.name}" is not a provider-safe name; imported as "${name}"`,
    );
  }
  if (CONTROL_NAMES.some((control) => control === name)) {
    warnings.push(
      `tools[${index}]: "${name}" is the name of a trusted control; route-eval run rejects the snapshot until it is renamed`,
    );
  }
  const description = source.description?.trim() ?? "";
  if (description === "")
    warnings.push(`tools[${index}]: "${name}" has no description; its purpose is set to its name`);
  const parts = splitDescription(description === "" ? name : description);
  checkSchema(source.input_schema, `tools[${index}] "${name}": input schema`, warnings);
  checkSchema(source.output_schema, `tools[${index}] "${name}": output schema`, warnings);
  return {
    name,
    ...(source.kind === undefined ? {} : { kind: source.kind }),
    family: source.family ?? options.family,
    purpose: parts.purpose,
    ...(parts.use_when.length > 0 ? { use_when: parts.use_when } : {}),
    ...(parts.avoid_when.length > 0 ? { avoid_when: parts.avoid_when } : {}),
    ...(source.input_schema === undefined ? {} : { input_schema: source.input_schema }),
    ...(source.output_schema === undefined ? {} : { output_schema: source.output_schema }),
    // A skill or an agent is a choice of where to go, not an action: no effect of its own.
    ...(source.kind === undefined
      ? decideContract(source.hints, options.trustAnnotations)
      : { effect: "none" as const }),
    ...(source.members === undefined || source.members.length === 0
      ? {}
      : { tools: source.members.map(safeName) }),
    ...(source.instructions === undefined ? {} : { instructions: source.instructions }),
    ...(Object.keys(declared).length > 0 ? { declared } : {}),
  };
}

interface Contract {
  effect: Effect;
  idempotent: boolean;
  open_world: boolean;
}

/** The conservative contract, or (trusted) the one the hints describe, read as MCP defines them. */
export function decideContract(hints: BehaviourHints, trust: boolean): Contract {
  if (!trust) return { effect: "destructive", idempotent: false, open_world: true };
  const readOnly = hints.readOnlyHint === true;
  const effect: Effect = readOnly
    ? "read_only"
    : hints.destructiveHint === false
      ? "mutating"
      : "destructive";
  return {
    effect,
    idempotent: readOnly || hints.idempotentHint === true,
    open_world: hints.openWorldHint !== false,
  };
}

function safeName(name: string): string {
  if (PROVIDER_SAFE.test(name)) return name;
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 64);
  return cleaned === "" ? "tool" : cleaned;
}

function checkSchema(schema: JsonObject | undefined, what: string, warnings: string[]): void {
  if (schema === undefined) return;
  const problem = findJsonSchemaProblem(schema);
  if (problem !== null)
    warnings.push(
      `${what} is not valid JSON Schema 2020-12 (${problem.message}); route-eval lint reports where`,
    );
}

function warnDuplicates(tools: ToolEntry[], warnings: string[]): void {
  const first = new Map<string, number>();
  tools.forEach((tool, index) => {
    const earlier = first.get(tool.name);
    if (earlier === undefined) first.set(tool.name, index);
    else
      warnings.push(
        `tools[${index}]: "${tool.name}" repeats the name of tools[${earlier}]; route-eval run rejects the snapshot until one is renamed`,
      );
  });
}
