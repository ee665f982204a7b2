/**
 * What `route-eval freeze` writes of a traced turn's tools: a registry snapshot of exactly the
 * tools the model saw — traced definitions first, a join snapshot's for tools traced by name
 * alone (the rest listed as `partial`: a schema is never invented), and a join snapshot's targets
 * in place of a traced dispatcher it offers them through (docs/targets.md).
 */
import type { RegistryFile, ToolEntry } from "../config/file-types.js";
import { buildSnapshot, type SourceTool } from "../registry/build-snapshot.js";
import { DEFAULT_DISPATCH } from "../registry/parse-registry.js";
import { targetsBehind } from "../registry/targets.js";
import { contentHash } from "../text/content-hash.js";
import type { Dispatch, Registry, Tool, TracedTurn } from "../types.js";

/** The snapshot of the tools a turn offered. */
export interface FrozenSnapshot {
  registry: RegistryFile;
  /** The content address of its tools (the file's name). */
  hash: string;
  /** Tools traced by name only that the join snapshot did not have. */
  partial: string[];
  warnings: string[];
}

/** The tools a turn offered, as a snapshot: traced definitions first, the join snapshot's for names alone. */
export function snapshotOfTurn(
  turn: TracedTurn,
  join: Registry | null,
  family: string,
): FrozenSnapshot {
  const joined = new Map((join?.tools ?? []).map((tool) => [tool.name, tool]));
  const partial: string[] = [];
  const sources: SourceTool[] = [];
  const taken: ToolEntry[] = [];
  const seen = new Set<string>();
  // A trace that kept no tool list is frozen with the --join registry's tools, all of them.
  if (turn.tools.length === 0)
    for (const tool of join?.tools ?? []) {
      seen.add(tool.name);
      taken.push(toEntry(tool));
    }
  // A --join registry of dispatch: tool (docs/targets.md): its dispatcher traced (Skill, Task) is
  // frozen as its targets, folded into the dispatcher again when replayed, so the stored reply's
  // call of it reads back as the target it names.
  const dispatch = join?.dispatch?.style === "tool" ? join.dispatch : null;
  let folded = false;
  for (const tool of turn.tools) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    const targets = targetsBehind(join, tool.name) ?? [];
    if (targets.length > 0) {
      folded = true;
      for (const target of targets)
        if (!seen.has(target.name)) {
          seen.add(target.name);
          taken.push(toEntry(target));
        }
      continue;
    }
    const nameOnly = tool.description === undefined && tool.input_schema === undefined;
    const known = nameOnly ? joined.get(tool.name) : undefined;
    if (known !== undefined) {
      taken.push(toEntry(known));
      continue;
    }
    if (nameOnly) partial.push(tool.name);
    sources.push({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.input_schema === undefined ? {} : { input_schema: tool.input_schema }),
      hints: {},
      declared: {},
    });
  }
  const built = buildSnapshot(sources, {
    snapshot: "frozen",
    family,
    source: "route-eval freeze",
    trustAnnotations: false,
  });
  // By the name as traced: a name that is not provider-safe is written under its safe form (and
  // its traced name in `declared`), never dropped.
  const byName = new Map([
    ...sources.map((source, i) => [source.name, built.registry.tools[i]] as const),
    ...taken.map((tool) => [tool.name, tool] as const),
  ]);
  // The turn's order, as the model saw the tools.
  const tools = [...seen]
    .map((name) => byName.get(name))
    .filter((tool): tool is ToolEntry => tool !== undefined);
  const hash = contentHash(tools).slice(0, 16);
  const warnings = built.warnings.filter(
    (warning) =>
      !/has no description/.test(warning) || !partial.some((name) => warning.includes(`"${name}"`)),
  );
  const registry: RegistryFile = {
    snapshot: `frozen-${hash}`,
    revision: `sha256:${hash}`,
    source:
      join === null
        ? "route-eval freeze: the tools of a traced turn"
        : `route-eval freeze: the tools of a traced turn, names alone joined with ${join.snapshot}`,
    ...(partial.length === 0 ? {} : { partial }),
    ...(folded && dispatch !== null ? dispatchOfJoin(dispatch) : {}),
    tools,
  };
  return { registry, hash, partial, warnings };
}

/** dispatch: tool, and the join's dispatchers where they are not the defaults. */
function dispatchOfJoin(dispatch: Dispatch): Pick<RegistryFile, "dispatch" | "dispatchers"> {
  const own = (["skill", "agent"] as const).filter(
    (kind) =>
      dispatch[kind].name !== DEFAULT_DISPATCH[kind].name ||
      dispatch[kind].argument !== DEFAULT_DISPATCH[kind].argument,
  );
  return {
    dispatch: "tool",
    ...(own.length === 0
      ? {}
      : {
          dispatchers: Object.fromEntries(
            own.map((kind) => [
              kind,
              { tool: dispatch[kind].name, argument: dispatch[kind].argument },
            ]),
          ),
        }),
  };
}

function toEntry(tool: Tool): ToolEntry {
  const {
    kind,
    name,
    family,
    purpose,
    use_when,
    avoid_when,
    input_schema,
    output_schema,
    effect,
    idempotent,
    open_world,
  } = tool;
  return {
    name,
    ...(kind === undefined ? {} : { kind }),
    family,
    purpose,
    ...(use_when.length > 0 ? { use_when } : {}),
    ...(avoid_when.length > 0 ? { avoid_when } : {}),
    ...(input_schema === undefined ? {} : { input_schema }),
    ...(output_schema === undefined ? {} : { output_schema }),
    effect,
    idempotent,
    open_world,
  };
}
