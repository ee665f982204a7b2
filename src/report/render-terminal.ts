/**
 * The terminal summary of a report: the ladder as a funnel, then failures, rates, reliability,
 * errored trials, exposure assertions and gates. Pure; without colour the output has no ANSI codes.
 */
import type { GateResult, Report } from "../types.js";
import type { Section } from "../render/section.js";
import { makePaint, renderTable, stripControls, type Paint } from "../render/terminal.js";
import { describeRun } from "../render/run-header.js";
import { buildGateSection, buildSummarySections } from "./render-sections.js";

export interface TerminalOptions {
  color: boolean;
  gates?: GateResult[];
}

function renderSection(section: Section, paint: Paint): string {
  const parts = [paint(section.title, "bold"), ...section.lines.map(stripControls)];
  if (section.table !== null) parts.push(renderTable(section.table, paint));
  parts.push(...section.notes.map(stripControls));
  return parts.join("\n");
}

/** The whole terminal summary, ending with a newline; the same report always renders the same. */
export function renderTerminal(report: Report, opts: TerminalOptions): string {
  const paint = makePaint(opts.color);
  const sections = buildSummarySections(report);
  if (opts.gates !== undefined && opts.gates.length > 0) sections.push(buildGateSection(opts.gates));
  const blocks = [paint(stripControls(describeRun(report)), "bold"), ...sections.map((s) => renderSection(s, paint))];
  return `${blocks.join("\n\n")}\n`;
}
