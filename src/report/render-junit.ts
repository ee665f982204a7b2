/**
 * JUnit XML for CI test panels: one testcase per case, in report order. A case fails when any
 * scored trial failed a rung; a case whose every trial errored is an error, not a failure.
 */
import type { CaseRow, GateResult, Report } from "../types.js";
import {
  describeCaseOutcome,
  formatCounts,
  hasFailedTrial,
  isAllErrored,
  truncateLine,
} from "../render/format.js";

import { attributes, escapeXml } from "../render/xml.js";

const SUITE = "route-eval";

function classnameOf(row: CaseRow): string {
  return row.family ?? row.phase ?? "cases";
}

function describeCase(row: CaseRow): string {
  return [
    `acceptable: ${row.acceptable.join(", ")}`,
    `forbidden: ${row.forbidden.length === 0 ? "(none)" : row.forbidden.join(", ")}`,
    `phase: ${row.phase ?? "(none)"}`,
    `selections: ${formatCounts(row.selections)}`,
    `trials: ${row.trials} (${row.correct} correct, ${row.errored} errored, ${row.violated} violated)`,
  ].join("\n");
}

function firstError(report: Report, caseId: string): string {
  const found = report.errored.find((e) => e.case_id === caseId);
  return found === undefined ? "" : `: ${truncateLine(found.error, 200)}`;
}

type Verdict = "passed" | "failed" | "errored";

function judgeCase(row: CaseRow): Verdict {
  if (hasFailedTrial(row)) return "failed";
  return isAllErrored(row) ? "errored" : "passed";
}

function renderCase(report: Report, row: CaseRow, verdict: Verdict): string {
  const open = `    <testcase${attributes([
    ["classname", classnameOf(row)],
    ["name", row.case_id],
  ])}`;
  if (verdict === "passed") return `${open}/>`;
  const body = escapeXml(describeCase(row));
  const child =
    verdict === "failed"
      ? `<failure${attributes([
          ["message", describeCaseOutcome(row)],
          ["type", "routing"],
        ])}>${body}</failure>`
      : `<error${attributes([
          [
            "message",
            `${row.trials === 1 ? "its trial" : `all ${row.trials} trials`} errored${firstError(report, row.case_id)}`,
          ],
          ["type", "endpoint"],
        ])}>${body}</error>`;
  return `${open}>\n      ${child}\n    </testcase>`;
}

/** Each gate is a testcase of its own (classname "gates"), so a CI panel says why the run failed. */
function renderGate(gate: GateResult): string {
  return renderGateCase("gates", `${gate.name} ${gate.threshold}`, gate);
}

/** A gate as a testcase: passed, or a failure whose message is the reason. */
function renderGateCase(
  classname: string,
  name: string,
  gate: { passed: boolean; reason: string },
): string {
  const open = `    <testcase${attributes([
    ["classname", classname],
    ["name", name],
    ["time", 0],
  ])}`;
  if (gate.passed) return `${open}/>`;
  return `${open}>\n      <failure${attributes([
    ["message", gate.reason],
    ["type", "gate"],
  ])}>${escapeXml(gate.reason)}</failure>\n    </testcase>`;
}

/** A suite of gates alone (an experiment's gates across variants), one testcase each. */
export function renderGateSuite(
  name: string,
  classname: string,
  gates: { rule: string; passed: boolean; reason: string }[],
): JunitSuite {
  const counts: [string, number][] = [
    ["tests", gates.length],
    ["failures", gates.filter((g) => !g.passed).length],
    ["errors", 0],
  ];
  const lines = [
    `  <testsuite${attributes([["name", name], ...counts, ["skipped", 0]])}>`,
    ...gates.map((g) => renderGateCase(classname, g.rule, g)),
    "  </testsuite>",
  ];
  return { counts, lines };
}

function renderProperties(report: Report): string[] {
  const { run } = report;
  const registries = run.registries.map((r) => `${r.snapshot}@${r.revision}`).join(", ");
  const pairs: [string, string][] = [
    ["run_id", run.run_id],
    ["endpoint", run.endpoint],
    ["model", run.model],
    ["registry", registries],
    ["trials", String(run.config.trials)],
    ["started_at", run.started_at],
  ];
  const lines = pairs.map(
    ([name, value]) =>
      `      <property${attributes([
        ["name", name],
        ["value", value],
      ])}/>`,
  );
  return ["    <properties>", ...lines, "    </properties>"];
}

/** The JUnit document, ending with a newline; deterministic for a given report. */
export function renderJunit(report: Report): string {
  return wrapSuites([renderJunitSuite(report, SUITE)]);
}

/** One report's testsuite: its cases, then its gates (`gates: false` leaves them out). */
export function renderJunitSuite(
  report: Report,
  name: string,
  options: { gates: boolean } = { gates: true },
): JunitSuite {
  const verdicts = report.cases.map(judgeCase);
  const gates = options.gates ? report.gates : [];
  const failedGates = gates.filter((g) => !g.passed).length;
  const counts: [string, number][] = [
    ["tests", report.cases.length + gates.length],
    ["failures", verdicts.filter((v) => v === "failed").length + failedGates],
    ["errors", verdicts.filter((v) => v === "errored").length],
  ];
  const lines = [
    `  <testsuite${attributes([["name", name], ...counts, ["skipped", 0]])}>`,
    ...renderProperties(report),
    ...report.cases.map((row, i) => renderCase(report, row, verdicts[i])),
    ...gates.map(renderGate),
    "  </testsuite>",
  ];
  return { counts, lines };
}

export interface JunitSuite {
  /** tests, failures, errors. */
  counts: [string, number][];
  lines: string[];
}

/** The document around suites: <testsuites> carries their summed counts. */
export function wrapSuites(suites: JunitSuite[]): string {
  const names = suites[0]?.counts.map(([name]) => name) ?? ["tests", "failures", "errors"];
  const counts: [string, number][] = names.map((name, i) => [
    name,
    suites.reduce((sum, s) => sum + s.counts[i][1], 0),
  ]);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes([["name", SUITE], ...counts])}>`,
    ...suites.flatMap((s) => s.lines),
    "</testsuites>",
    "",
  ].join("\n");
}
