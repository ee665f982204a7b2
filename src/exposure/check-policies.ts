/**
 * A phase that admits a family no registry tool carries: when it is a likely typo of one that
 * exists, the phase silently hides that family (a failing gate can turn into a pass), so it is an
 * error with a did-you-mean; otherwise (a revision that dropped a family) a warning. Pure.
 */
import { findNearName } from "../text/near-name.js";
import type { PhasePolicy } from "../types.js";

export interface PolicyProblem {
  phase: string;
  /** Position in the phase's `families` list. */
  index: number;
  /** The family it is a likely typo of, or null. */
  near: string | null;
  message: string;
}

export function findUnknownFamilies(
  phases: Record<string, PhasePolicy>,
  families: ReadonlySet<string>,
): PolicyProblem[] {
  return Object.entries(phases).flatMap(([phase, policy]) =>
    (policy.families ?? []).flatMap((family, index) => {
      if (families.has(family)) return [];
      const near = findNearName(family, families);
      const hint =
        near === null
          ? `families the registries have: ${[...families].sort().join(", ") || "(none)"}`
          : `did you mean "${near}"?`;
      return [
        {
          phase,
          index,
          near,
          message: `phases.${phase}.families[${index}]: no registry tool has family "${family}" (${hint})`,
        },
      ];
    }),
  );
}
