/**
 * The tools behind a run's failures, each as a brief for a proposer: from the tune split only
 * (a held-out goal never reaches a proposer). A tool is behind a failure when a tune case that
 * accepts it failed at discovery or selection (what a description can change; coverage and
 * exposure are the registry's and the policy's), and the tools chosen instead are its rivals.
 * Tools come most-failed first; a control, or a tool the registry lacks, is never revised.
 */
import type { Case, CaseRow, Registry, Tool } from "../types.js";
import { isControl } from "../types.js";
import type { ProposalBrief } from "../types/tune.js";
import { renderDescription } from "../registry/render-definition.js";
import { compareText } from "../text/compare-text.js";
import { lintRegistry } from "../lint/lint.js";
import type { CaseSplit } from "./split-cases.js";

const DESCRIPTION_STAGES = ["discovery", "selection"];

/** One tool's failing tune trials, the cases and the tools chosen instead. */
interface Failing {
  trials: number;
  cases: ProposalBrief["failing_goals"];
  rivals: Map<string, number>;
}

export function briefsOf(
  cases: readonly Case[],
  rows: ReadonlyMap<string, CaseRow>,
  split: CaseSplit,
  registry: Registry,
): ProposalBrief[] {
  const tools = new Map(registry.tools.map((t) => [t.name, t]));
  const failing = new Map<string, Failing>();
  const passing = new Map<string, string[]>();
  for (const c of cases) {
    const row = rows.get(c.id);
    if (!split.tune.has(c.id) || row === undefined || c.registry !== registry) continue;
    const failed = DESCRIPTION_STAGES.reduce((sum, stage) => sum + (row.stages[stage] ?? 0), 0);
    for (const name of c.acceptable) {
      if (isControl(name) || !tools.has(name)) continue;
      if (failed === 0) {
        if (row.correct > 0) passing.set(name, [...(passing.get(name) ?? []), c.goal]);
        continue;
      }
      const entry: Failing = failing.get(name) ?? { trials: 0, cases: [], rivals: new Map() };
      const chosen = Object.entries(row.selections)
        .filter(([tool]) => !c.acceptable.includes(tool))
        .sort(([a, x], [b, y]) => y - x || compareText(a, b));
      entry.trials += failed;
      entry.cases.push({ case_id: c.id, goal: c.goal, chosen: chosen[0]?.[0] ?? "(no call)" });
      for (const [tool, times] of chosen)
        entry.rivals.set(tool, (entry.rivals.get(tool) ?? 0) + times);
      failing.set(name, entry);
    }
  }
  const findings = lintRegistry({
    file: registry.file,
    snapshot: registry.snapshot,
    tools: registry.tools,
    problems: [],
    lineOf: () => 0,
    indexOf: (tool: Tool) => registry.tools.indexOf(tool),
  });
  return [...failing]
    .sort(([a, x], [b, y]) => y.trials - x.trials || compareText(a, b))
    .map(([name, entry]) => {
      const tool = tools.get(name) as Tool;
      return {
        tool: name,
        description: renderDescription(tool),
        purpose: tool.purpose,
        use_when: tool.use_when,
        avoid_when: tool.avoid_when,
        rivals: [...entry.rivals]
          .sort(([a, x], [b, y]) => y - x || compareText(a, b))
          .map(([rival, times]) => ({
            name: rival,
            description: tools.has(rival) ? renderDescription(tools.get(rival) as Tool) : "",
            times,
          })),
        failing_goals: entry.cases,
        passing_goals: passing.get(name) ?? [],
        lint: findings
          .filter((f) => f.tool === name && f.rule !== "tool-partial")
          .map((f) => `${f.rule}: ${f.message}`),
      };
    });
}
