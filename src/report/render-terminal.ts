/**
 * The terminal summary of a report: the ladder as a funnel, then failures, rates, reliability,
 * errored trials, exposure assertions and gates. Pure; without colour the output has no ANSI codes.
 */
import type { GateResult, Report } from "../types.js";
import { makePaint, stripControls } from "../render/terminal.js";
import { wrapFacts } from "../render/text-layout.js";
import { sectionTerminal } from "../render/lay-out-sections.js";
import { describeRun } from "../render/run-header.js";
import { buildGateSection, buildSummarySections } from "./render-sections.js";

export interface TerminalOptions {
  color: boolean;
  gates?: GateResult[];
  /** Columns to fit (the CLI passes the terminal's; absent: no limit): tables narrow or stack, lines wrap. */
  width?: number;
}

/** The whole terminal summary, ending with a newline; the same report always renders the same. */
export function renderTerminal(report: Report, opts: TerminalOptions): string {
  const paint = makePaint(opts.color);
  const sections = buildSummarySections(report);
  if (opts.gates !== undefined && opts.gates.length > 0)
    sections.push(buildGateSection(opts.gates));
  const width = opts.width ?? Number.POSITIVE_INFINITY;
  const header = wrapFacts(stripControls(describeRun(report)), width)
    .map((line) => paint(line, "bold"))
    .join("\n");
  const blocks = [header, ...sections.map((s) => sectionTerminal(s, paint, width))];
  return `${blocks.join("\n\n")}\n`;
}
