/** Lint results as text (one `file:line: severity rule: message` line and a fix line each) or JSON. */
import type { LintFormat } from "../types/formats.js";
import { inertLine } from "../text/inert.js";
import { displayWidth, wrapText } from "../render/text-layout.js";
import type { LintResult } from "./lint.js";
import type { Finding } from "./rules.js";


/** Version of the JSON output; a breaking change bumps it. */
export const LINT_SCHEMA_VERSION = 1;

/**
 * The rendering in pieces, one finding at a time, so a registry of tens of thousands of tools is
 * written without one string of the whole output (for json, the pieces join to exactly
 * JSON.stringify of the whole result with a 2-space indent).
 */
export function* renderLintChunks(result: LintResult, format: LintFormat, width = Number.POSITIVE_INFINITY): Generator<string> {
  if (format === "json") yield* renderJson(result);
  else yield* renderText(result, width);
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
  const [first, ...rest] = wrapText(text.slice(lead.length), width - Math.max(lead.length, indent.length));
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
