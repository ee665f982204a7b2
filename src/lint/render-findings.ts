/** Lint results as text (one `file:line: severity rule: message` line and a fix line each) or JSON. */
import { inertLine } from "../text/inert.js";
import type { LintResult } from "./lint.js";
import type { Finding } from "./rules.js";

export const LINT_FORMATS = ["text", "json"] as const;
export type LintFormat = (typeof LINT_FORMATS)[number];

/** Version of the JSON output; a breaking change bumps it. */
export const LINT_SCHEMA_VERSION = 1;

export function renderLint(result: LintResult, format: LintFormat): string {
  return format === "json" ? renderJson(result) : renderText(result);
}

function renderJson(result: LintResult): string {
  const { counts, scope, findings } = result;
  return JSON.stringify({ schema_version: LINT_SCHEMA_VERSION, counts, scope, findings }, null, 2) + "\n";
}

function renderText(result: LintResult): string {
  const lines = result.findings.map(renderFinding);
  return [...lines, summarize(result)].join("\n") + "\n";
}

function renderFinding(f: Finding): string {
  const where = f.line === null ? f.file : `${f.file}:${f.line}`;
  return inertLine(`${where}: ${f.severity} ${f.rule}: ${f.message}`) + `\n    fix: ${inertLine(f.fix)}`;
}

function summarize(result: LintResult): string {
  const { counts, scope } = result;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`;
  const linted =
    `${plural(scope.tools, "tool")} in ${plural(scope.registries, "registry").replace("registrys", "registries")}, ` +
    `${plural(scope.cases, "case")} in ${plural(scope.case_files, "file")}`;
  const verdict = `${plural(counts.error, "error")}, ${plural(counts.warning, "warning")}, ${counts.info} info`;
  return `${result.findings.length === 0 ? "" : "\n"}${linted}: ${verdict}`;
}
