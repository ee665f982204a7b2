/** Lint results as text (one `file:line: severity rule: message` line and a fix line each) or JSON. */
import type { LintFormat } from "../types/formats.js";
import { inertLine } from "../text/inert.js";
import { cutToWidth, displayWidth, wrapText } from "../render/text-layout.js";
import type { LintResult } from "./lint.js";
import { RULE_IDS, RULES, type Finding, type RuleId } from "./rules.js";

/** Version of the JSON output; a breaking change bumps it. */
export const LINT_SCHEMA_VERSION = 1;

/**
 * The rendering in pieces, one finding at a time, so a registry of tens of thousands of tools is
 * written without one string of the whole output (for json, the pieces join to exactly
 * JSON.stringify of the whole result with a 2-space indent).
 */
export function* renderLintChunks(
  result: LintResult,
  format: LintFormat,
  width = Number.POSITIVE_INFINITY,
  all = false,
): Generator<string> {
  if (format === "json") yield* renderJson(result);
  else if (all) yield* renderText(result, width);
  else yield* renderGrouped(result, width);
}

function* renderJson(result: LintResult): Generator<string> {
  const { counts, scope, findings } = result;
  const head = JSON.stringify({ schema_version: LINT_SCHEMA_VERSION, counts, scope }, null, 2);
  if (findings.length === 0) {
    yield `${head.slice(0, -2)},\n  "findings": []\n}\n`;
    return;
  }
  yield `${head.slice(0, -2)},\n  "findings": [\n`;
  for (let i = 0; i < findings.length; i++) {
    const text = JSON.stringify(findings[i], null, 2).replace(/\n/g, "\n    ");
    yield `    ${text}${i === findings.length - 1 ? "\n" : ",\n"}`;
  }
  yield "  ]\n}\n";
}

/** Findings listed whole up to this many; beyond, each rule shows its worst few and counts the rest. */
const LIST_ALL_UP_TO = 24;
/** Lines the summary of a large result takes at most (a screen). */
const SCREEN = 50;
const SEVERITY_ORDER: Record<Finding["severity"], number> = { error: 0, warning: 1, info: 2 };

/**
 * The findings by rule — errors, then warnings, then info; within a rule the worst first (the
 * highest score, then file order), each rule headed by its count and what it means. A short result
 * is listed whole, each finding with its fix. A long one is a screen: a line per rule, its worst
 * findings one line each (as many as the screen holds, at least one), and a count of the rest,
 * which `--all` lists with their fixes.
 */
function* renderGrouped(result: LintResult, width: number): Generator<string> {
  const byRule = new Map<RuleId, Finding[]>();
  for (const f of result.findings) {
    const list = byRule.get(f.rule);
    if (list === undefined) byRule.set(f.rule, [f]);
    else list.push(f);
  }
  const groups = [...byRule.entries()]
    .map(([rule, findings]) => ({
      rule,
      findings: findings.slice().sort((x, y) => (y.score ?? 0) - (x.score ?? 0)),
    }))
    .sort(
      (x, y) =>
        SEVERITY_ORDER[RULES[x.rule].severity] - SEVERITY_ORDER[RULES[y.rule].severity] ||
        RULE_IDS.indexOf(x.rule) - RULE_IDS.indexOf(y.rule),
    );
  const heading = (rule: RuleId, count: number) => {
    const { severity, summary } = RULES[rule];
    return `${rule} · ${count} ${severity === "info" ? "info" : `${severity}${count === 1 ? "" : "s"}`} — ${summary}`;
  };
  if (result.findings.length <= LIST_ALL_UP_TO) {
    for (const { rule, findings } of groups) {
      yield `${wrap(heading(rule, findings.length), width, "    ")}\n`;
      for (const f of findings) yield `${indent(renderFinding(f, width - 2))}\n`;
      yield "\n";
    }
    yield `${wrap(summarize(result).replace(/^\n/, ""), width, "")}\n`;
    return;
  }
  const fit = Number.isFinite(width) ? width : 120;
  const quota = shareScreen(groups.map((g) => g.findings.length));
  for (const [i, { rule, findings }] of groups.entries()) {
    yield `${cutToWidth(heading(rule, findings.length), fit)}\n`;
    for (const f of findings.slice(0, quota[i]))
      yield `  ${cutToWidth(inertLine(`${f.line === null ? f.file : `${f.file}:${f.line}`}: ${f.message}`), fit - 2)}\n`;
    if (findings.length > quota[i]) yield `  … and ${findings.length - quota[i]} more\n`;
  }
  const shown = quota.reduce((sum, n) => sum + n, 0);
  yield `\n${wrap(`${result.findings.length - shown} of ${result.findings.length} findings not shown, and no fixes: route-eval lint --all lists every finding with its fix (--format json for tools)`, width, "")}\n`;
  yield `${wrap(summarize(result).replace(/^\n/, ""), width, "")}\n`;
}

/**
 * How many findings of each rule (errors first) a screen holds: one each at least, then one more
 * for each rule in turn while lines are left (a rule takes a heading and a "more" line, a finding one).
 */
function shareScreen(counts: number[]): number[] {
  const quota = counts.map((n) => Math.min(1, n));
  let lines =
    SCREEN - 3 - counts.reduce((sum, n, i) => sum + 1 + quota[i] + (n > quota[i] ? 1 : 0), 0);
  for (let more = true; more && lines > 0;) {
    more = false;
    for (let i = 0; i < counts.length && lines > 0; i++) {
      if (quota[i] >= counts[i]) continue;
      // The last one of a rule replaces its "more" line.
      quota[i] += 1;
      lines -= quota[i] === counts[i] ? 0 : 1;
      more = true;
    }
  }
  return quota;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

function* renderText(result: LintResult, width: number): Generator<string> {
  for (const finding of result.findings) yield `${renderFinding(finding, width)}\n`;
  yield `${wrap(summarize(result), width, "")}\n`;
}

/** `file:line: severity rule: message` (continued on indented lines past the width), then the fix. */
function renderFinding(f: Finding, width: number): string {
  const where = f.line === null ? f.file : `${f.file}:${f.line}`;
  return `${wrap(inertLine(`${where}: ${f.severity} ${f.rule}: ${f.message}`), width, "    ")}\n${wrap(inertLine(`    fix: ${f.fix}`), width, "         ")}`;
}

function wrap(text: string, width: number, indent: string): string {
  if (displayWidth(text) <= width) return text;
  const lead = /^ */.exec(text)?.[0] ?? "";
  const [first, ...rest] = wrapText(
    text.slice(lead.length),
    width - Math.max(lead.length, indent.length),
  );
  return [lead + first, ...rest.map((line) => indent + line)].join("\n");
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
