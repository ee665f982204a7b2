/** `route-eval lint`: every check over registries, case files and phase surfaces. Pure. */
import { checkCaseFile, checkFamilies, checkSuite } from "./check-cases.js";
import { checkContract } from "./check-contract.js";
import { checkDescriptions } from "./check-descriptions.js";
import { checkNames } from "./check-names.js";
import { checkRivals } from "./check-rivals.js";
import { checkSchemas } from "./check-schemas.js";
import { checkSurface } from "./check-surface.js";
import { findRivalPairs } from "./find-rivals.js";
import type { LintProject, LintRegistry } from "./lint-input.js";
import { finding, RULE_IDS, SEVERITIES, type Finding, type Severity } from "./rules.js";
import { compareText } from "../text/compare-text.js";

export interface LintResult {
  /** Sorted by file, line, rule. */
  findings: Finding[];
  counts: Record<Severity, number>;
  /** What was linted. */
  scope: { registries: number; tools: number; case_files: number; cases: number };
}

export function lintProject(project: LintProject): LintResult {
  const findings = [
    ...project.registries.flatMap(lintRegistry),
    ...project.surfaces.flatMap(checkSurface),
    ...project.caseFiles.flatMap(checkCaseFile),
    ...checkFamilies(project.caseFiles),
    ...checkSuite(project.caseFiles),
  ].sort(compareFindings);
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return {
    findings,
    counts,
    scope: {
      registries: project.registries.length,
      tools: project.registries.reduce((sum, r) => sum + r.tools.length, 0),
      case_files: project.caseFiles.length,
      cases: project.caseFiles.reduce((sum, f) => sum + f.cases.length, 0),
    },
  };
}

export function lintRegistry(registry: LintRegistry): Finding[] {
  const rivals = findRivalPairs(registry.tools);
  return [
    ...listSnapshotProblems(registry),
    ...checkNames(registry),
    ...checkDescriptions(registry, rivals),
    ...checkRivals(registry, rivals),
    ...checkSchemas(registry),
    ...checkContract(registry),
  ];
}

/** The snapshot's own problems in run's words; a bad name or purpose (registry-shape) lint words itself. */
function listSnapshotProblems(registry: LintRegistry): Finding[] {
  return registry.problems.flatMap((problem) => {
    const { rule, line, tool, message } = problem;
    if (rule === "registry-shape") return [];
    const fix =
      rule === "tool-partial"
        ? problem.fix
        : `${problem.fix}; \`route-eval run\` rejects this registry until then`;
    return [
      finding({
        rule,
        file: registry.file,
        line,
        ...(tool === undefined ? {} : { tool }),
        message,
        fix,
      }),
    ];
  });
}

const SEVERITY_RANK = new Map(SEVERITIES.map((severity, rank) => [severity, rank]));
const RULE_RANK = new Map(RULE_IDS.map((rule, rank) => [rule, rank]));

function compareFindings(a: Finding, b: Finding): number {
  return (
    compareText(a.file, b.file) ||
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
    (SEVERITY_RANK.get(a.severity) ?? 0) - (SEVERITY_RANK.get(b.severity) ?? 0) ||
    (RULE_RANK.get(a.rule) ?? 0) - (RULE_RANK.get(b.rule) ?? 0) ||
    compareText(a.message, b.message)
  );
}
