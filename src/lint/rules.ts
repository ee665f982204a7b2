/**
 * The closed vocabulary of `route-eval lint`: every rule id, its group, its severity and a
 * one-line summary. A rule that is not in RULES cannot be reported; a rule in RULES that no check
 * emits is caught by the tests (each rule has a fixture that triggers it).
 */

export const SEVERITIES = ["error", "warning", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

export const RULE_GROUPS = [
  "names",
  "descriptions",
  "rivals",
  "schemas",
  "contract",
  "surface",
  "cases",
] as const;
export type RuleGroup = (typeof RULE_GROUPS)[number];

export const RULE_IDS = [
  "name-invalid",
  "name-not-snake-case",
  "name-duplicate",
  "purpose-missing",
  "purpose-vague",
  "use-when-missing",
  "avoid-when-missing",
  "no-losing-condition",
  "skill-description-long",
  "rival-pair",
  "rival-cluster",
  "schema-invalid",
  "schema-dialect-inferred",
  "schema-root-not-object",
  "schema-open",
  "schema-required-missing",
  "schema-too-many-params",
  "schema-nested",
  "schema-naked-string",
  "schema-pattern-backtracks",
  "no-idempotency-key",
  "control-claim",
  "surface-empty",
  "surface-crowded",
  "surface-over-limit",
  "case-unknown-tool",
  "case-coverage-gap",
  "case-family-single",
  "case-contradictory",
  "case-todo-goal",
  "case-todo",
  "tool-partial",
  "suite-no-control-case",
] as const;
export type RuleId = (typeof RULE_IDS)[number];

export interface RuleInfo {
  group: RuleGroup;
  severity: Severity;
  summary: string;
}

/** Severity: error = the run or a provider would reject it, or routing cannot be right; warning = a likely routing failure; info = worth knowing. */
export const RULES: Record<RuleId, RuleInfo> = {
  "name-invalid": {
    group: "names",
    severity: "error",
    summary: "tool name outside ^[A-Za-z0-9_-]{1,64}$ (providers reject it)",
  },
  "name-not-snake-case": {
    group: "names",
    severity: "warning",
    summary: "tool name is not snake_case",
  },
  "name-duplicate": { group: "names", severity: "error", summary: "two tools share a name" },
  "purpose-missing": {
    group: "descriptions",
    severity: "error",
    summary: "no purpose: the model sees a bare name",
  },
  "purpose-vague": {
    group: "descriptions",
    severity: "warning",
    summary: "purpose says nothing the name does not",
  },
  "skill-description-long": {
    group: "descriptions",
    severity: "warning",
    summary: "a skill's description over the 1,024 characters a skill listing allows",
  },
  "use-when-missing": {
    group: "descriptions",
    severity: "warning",
    summary: "no use_when: no winning condition",
  },
  "avoid-when-missing": {
    group: "descriptions",
    severity: "warning",
    summary: "no avoid_when: no losing condition",
  },
  "no-losing-condition": {
    group: "descriptions",
    severity: "warning",
    summary: "a close rival that avoid_when never names",
  },
  "rival-pair": {
    group: "rivals",
    severity: "info",
    summary: "two tools whose names or descriptions are close (with the score)",
  },
  "rival-cluster": {
    group: "rivals",
    severity: "warning",
    summary: "three or more tools, each a rival of every other",
  },
  "schema-invalid": {
    group: "schemas",
    severity: "error",
    summary: "not a valid JSON Schema of its dialect ($schema; none = 2020-12)",
  },
  "schema-dialect-inferred": {
    group: "schemas",
    severity: "warning",
    summary: "no $schema, but keywords only draft-04 reads so: read as draft-04",
  },
  "schema-root-not-object": {
    group: "schemas",
    severity: "error",
    summary: "input_schema root is not type: object",
  },
  "schema-open": {
    group: "schemas",
    severity: "warning",
    summary: "object schema without additionalProperties: false",
  },
  "schema-required-missing": {
    group: "schemas",
    severity: "warning",
    summary: "input_schema does not state required",
  },
  "schema-too-many-params": {
    group: "schemas",
    severity: "warning",
    summary: "more than 7 parameters",
  },
  "schema-nested": {
    group: "schemas",
    severity: "warning",
    summary: "objects nested deeper than one level",
  },
  "schema-naked-string": {
    group: "schemas",
    severity: "warning",
    summary: "free-form string where a finite set fits (no enum, pattern or format)",
  },
  "schema-pattern-backtracks": {
    group: "schemas",
    severity: "warning",
    summary: "a pattern with a nested quantifier: exponential time in a backtracking engine",
  },
  "no-idempotency-key": {
    group: "contract",
    severity: "warning",
    summary: "mutating/destructive, not idempotent, and no idempotency key parameter",
  },
  "control-claim": {
    group: "contract",
    severity: "error",
    summary: "a registry tool claims to be a trusted control",
  },
  "surface-empty": {
    group: "surface",
    severity: "warning",
    summary: "a phase admits none of the registry's tools",
  },
  "surface-crowded": {
    group: "surface",
    severity: "warning",
    summary: "a phase shows the model more than 20 ordinary tools",
  },
  "surface-over-limit": {
    group: "surface",
    severity: "error",
    summary: "a phase shows more than 128 tools (the provider limit)",
  },
  "case-unknown-tool": {
    group: "cases",
    severity: "error",
    summary: "a case names a tool the registry lacks, like a typo",
  },
  "case-coverage-gap": {
    group: "cases",
    severity: "info",
    summary: "acceptable names a tool that does not exist (a coverage gap)",
  },
  "case-family-single": {
    group: "cases",
    severity: "warning",
    summary: "a case family with a single case (no near neighbour)",
  },
  "case-contradictory": {
    group: "cases",
    severity: "error",
    summary: "acceptable names no_applicable_tool beside a tool",
  },
  "case-todo-goal": {
    group: "cases",
    severity: "error",
    summary: "a starter case's goal is still a TODO (route-eval init)",
  },
  "case-todo": {
    group: "cases",
    severity: "error",
    summary: "a case still has a todo: (route-eval freeze leaves acceptable to you)",
  },
  "tool-partial": {
    group: "descriptions",
    severity: "warning",
    summary: "a tool known by name alone (a trace gave no description or schema)",
  },
  "suite-no-control-case": {
    group: "cases",
    severity: "warning",
    summary: "no case expects abstention or ask_user",
  },
};

/** One problem found, with where it is and how to fix it. `line` is null when the place has no line. */
export interface Finding {
  rule: RuleId;
  severity: Severity;
  file: string;
  line: number | null;
  tool?: string;
  case?: string;
  message: string;
  fix: string;
  /** Other tools involved (rivals, cluster members). */
  related?: string[];
  /** The measured similarity, for rival findings. */
  score?: number;
}

export type FindingFields = Omit<Finding, "severity">;

/** A finding with its rule's severity, keys in a stable order. */
export function finding(fields: FindingFields): Finding {
  const { rule, file, line, tool, case: caseId, message, fix, related, score } = fields;
  return {
    rule,
    severity: RULES[rule].severity,
    file,
    line,
    ...(tool === undefined ? {} : { tool }),
    ...(caseId === undefined ? {} : { case: caseId }),
    message,
    fix,
    ...(related === undefined ? {} : { related }),
    ...(score === undefined ? {} : { score }),
  };
}
