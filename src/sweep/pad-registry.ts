import type { Case, Registry } from "../types.js";

/**
 * A registry padded with the tools of a distractor snapshot that it lacks (a name it already has
 * keeps its own definition). Padding tools pass the phase policies like any other tool; a size
 * sweep draws them only after the case's own exposed tools.
 */
export function padRegistry(registry: Registry, padding: Registry): Registry {
  const own = new Set(registry.tools.map((tool) => tool.name));
  return {
    snapshot: `${registry.snapshot}+${padding.snapshot}`,
    revision: `${registry.revision}+${padding.revision}`,
    file: registry.file,
    tools: [...registry.tools, ...padding.tools.filter((tool) => !own.has(tool.name))],
  };
}

/** Pads every case's registry, one padded object per distinct registry (runs cache by identity). */
export function createCasePadder(padding: Registry): {
  padCases: (cases: Case[]) => Case[];
  paddingNames: (registry: Registry) => ReadonlySet<string>;
} {
  const padded = new Map<Registry, Registry>();
  const added = new Map<Registry, ReadonlySet<string>>();
  const padOne = (registry: Registry): Registry => {
    let result = padded.get(registry);
    if (result === undefined) {
      result = padRegistry(registry, padding);
      const own = new Set(registry.tools.map((tool) => tool.name));
      padded.set(registry, result);
      added.set(
        result,
        new Set(result.tools.map((tool) => tool.name).filter((name) => !own.has(name))),
      );
    }
    return result;
  };
  return {
    padCases: (cases) =>
      cases.map((testCase) => ({ ...testCase, registry: padOne(testCase.registry) })),
    paddingNames: (registry) => added.get(registry) ?? new Set(),
  };
}
