/**
 * What the lint checks read: registries (as parseRegistry reads them: a missing purpose or a bad
 * name is a finding, not a load error) and case files, each able to point at its own lines, and the
 * size of what every phase shows the model (computed by the composition root).
 */
import type { HiddenReason } from "../types.js";
import type { RegistryProblem } from "../registry/parse-registry.js";
import type { Tool } from "../types.js";
import type { JsonPath } from "../types/json.js";

/** A location inside a file: object keys and array indices, outermost first. */
export type LintPath = (string | number)[];

export interface LintRegistry {
  /** The path as shown in findings. */
  file: string;
  snapshot: string;
  tools: Tool[];
  /** The snapshot's own problems (registry/parse-registry.ts), listed as findings in the same words. */
  problems: RegistryProblem[];
  lineOf(path: LintPath): number;
  /** Position of a tool in the file's `tools` list. */
  indexOf(tool: Tool): number;
}

export interface LintCase {
  /** Where the decision is written: ["cases", i], or ["cases", i, "turns", t] for a conversation's turn. */
  at: JsonPath;
  /** The key of its request: goal, or a turn's user. */
  goalKey: "goal" | "user";
  id: string;
  goal: string;
  family: string | null;
  acceptable: string[];
  forbidden: string[];
  must_see: string[];
  must_not_see: string[];
  /** What is still to be written (route-eval freeze), or null. */
  todo: string | null;
}

export interface LintCaseFile {
  file: string;
  registry: LintRegistry;
  cases: LintCase[];
  lineOf(path: LintPath): number;
}

/** How many tools one phase shows the model from one registry. */
export interface LintSurface {
  /** The phase name, or null for cases without a phase (the whole registry). */
  phase: string | null;
  registry: LintRegistry;
  /** Ordinary tools the phase admits. */
  exposed: number;
  /** The tools it hides, counted by the first rule that hid each (family, effect, open_world). */
  hidden: Partial<Record<HiddenReason, number>>;
  /** The retriever's budget, or null when every exposed tool is shown. */
  k: number | null;
  /** Trusted controls added to every request. */
  controls: number;
  /** Where the phase is defined (route-eval.yaml), or the registry when there is no phase. */
  file: string;
  line: number | null;
}

export interface LintProject {
  registries: LintRegistry[];
  caseFiles: LintCaseFile[];
  surfaces: LintSurface[];
}
