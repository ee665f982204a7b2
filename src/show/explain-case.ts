/**
 * Explain one case from its records: what existed, what the phase exposed and hid, what the
 * retriever kept, what each trial chose, where the ladder broke, who took the expected tool's
 * place and what to fix. Pure: every input is an argument (the composition root gathers them).
 */
import { scoreRecords } from "../metrics/scored-trials.js";
import { STAGES, isControl } from "../types.js";
import type { CaseRow, HiddenReason, PhasePolicy, Rival, Stage, TrialRecord } from "../types.js";
import { buildLadder, rankTools } from "./explain-ladder.js";
import { findFix, findRival } from "./explain-fix.js";
import type {
  CaseExplanation,
  CaseFacts,
  HiddenGroup,
  HiddenTool,
  TrialView,
} from "../types/explain.js";
import { describeCaseOutcome } from "../render/format.js";
import { compareText } from "../text/compare-text.js";

export interface CaseEvidence {
  /** The case's row of the report. */
  row: CaseRow;
  /** Every trial of the case, as recorded (any order, at least one). */
  records: TrialRecord[];
  /** The phase policy the case ran under (null: no phase, or a phase run.json does not name). */
  policy: PhasePolicy | null;
  /** The ordinary tools the phase hid, with the rules that hid them. */
  hidden: HiddenTool[];
  /** Model-facing description of every tool and control the run knows. */
  descriptions: Record<string, string>;
  /** The run-wide rivals table (report.metrics.rivals). */
  rivals: Rival[];
}

export function explainCase(e: CaseEvidence): CaseExplanation {
  const records = [...e.records].sort((a, b) => a.trial - b.trial);
  const scored = scoreRecords(records);
  const facts = gatherFacts(e, records, scored);
  const rival = findRival(facts, e.descriptions, e.rivals);
  return {
    ...facts,
    ladder: buildLadder(facts, scored),
    rival,
    fix: findFix({ ...facts, rival }, scored, e.descriptions),
  };
}

/** The sets come from the first scored trial (exposure and discovery do not vary by trial). */
function gatherFacts(e: CaseEvidence, records: TrialRecord[], scored: TrialRecord[]): CaseFacts {
  const first = scored[0] ?? records[0];
  const views = records.map((r) => viewTrial(scored.find((s) => s.trial === r.trial) ?? r));
  const exposed = first.exposed_names.filter((name) => !isControl(name)).length;
  return {
    case_id: e.row.case_id,
    goal: first.goal ?? null,
    phase: first.phase,
    family: first.family,
    tags: first.tags,
    acceptable: first.acceptable,
    ...(first.hierarchy === undefined ? {} : { paths: first.hierarchy.paths }),
    forbidden: first.forbidden,
    trials: records.length,
    scored: scored.length,
    correct: e.row.correct,
    errored: e.row.errored,
    violated: e.row.violated,
    outcome: describeCaseOutcome(e.row),
    stage: earliestStage(scored),
    registry: describeRegistry(first),
    exposure: {
      phase: first.phase,
      policy: e.policy,
      exposed,
      hidden: e.hidden.length,
      groups: groupHidden(e.hidden),
      hidden_acceptable: e.hidden.filter((t) => t.acceptable),
    },
    discovery: { k: first.retrieval_k, exposed, ranking: rankTools(first) },
    visible_order: first.visible_order,
    trial_views: views,
    ...(first.call_set === undefined
      ? {}
      : {
          expected_calls: {
            expected: first.call_set.expected,
            order: first.call_set.order,
            allow_extra: first.call_set.allow_extra,
          },
        }),
    forbidden_hits: views.flatMap((v) => {
      const tools = v.call_set === undefined ? [v.selected] : v.call_set.calls.map((c) => c.tool);
      return tools
        .filter((tool): tool is string => tool !== null && first.forbidden.includes(tool))
        .map((tool) => ({ trial: v.trial, tool }));
    }),
  };
}

function describeRegistry(first: TrialRecord): CaseFacts["registry"] {
  const tools = first.registry_names.filter((name) => !isControl(name)).length;
  return {
    tools,
    controls: first.registry_names.length - tools,
    acceptable_present: first.acceptable.filter((name) => first.registry_names.includes(name)),
  };
}

const RULE_ORDER: HiddenReason[] = ["family", "effect", "open_world", "withheld", "removed"];

/** What a group of hidden tools has in common, by the rule that hid them. */
const GROUP_VALUES: Record<HiddenReason, (tool: HiddenTool) => string> = {
  family: (tool) => `family ${tool.family}`,
  effect: (tool) => `effect ${tool.effect}`,
  open_world: () => "open world",
  withheld: () => "withheld until a later turn",
  removed: () => "removed by an earlier turn",
};

/** Hidden tools listed per group; the rest are counted (acceptable ones are always listed). */
const LISTED_HIDDEN = 20;

/** Hidden tools by their first rule and what it looked at; tools keep registry order. */
function groupHidden(hidden: HiddenTool[]): HiddenGroup[] {
  const groups = new Map<string, HiddenGroup>();
  for (const tool of hidden) {
    const rule = tool.rules[0] ?? null;
    const value = rule === null ? "reason unknown" : GROUP_VALUES[rule](tool);
    const group = groups.get(value) ?? { rule, value, tools: [], more: 0 };
    groups.set(value, group);
    if (group.tools.length < LISTED_HIDDEN || tool.acceptable) group.tools.push(tool.name);
    else group.more += 1;
  }
  const order = (g: HiddenGroup): number =>
    g.rule === null ? RULE_ORDER.length : RULE_ORDER.indexOf(g.rule);
  return [...groups.values()].sort((a, b) => order(a) - order(b) || compareText(a.value, b.value));
}

function viewTrial(r: TrialRecord): TrialView {
  // Inside the right agent, the choice that failed is the agent's own (its tools were offered).
  const inside = r.hierarchy?.level === "inside" && r.hierarchy.by === "agent";
  const selected = inside ? (r.hierarchy?.inside ?? null) : r.selected;
  return {
    trial: r.trial,
    error: r.error,
    selected,
    ...(r.hierarchy === undefined ? {} : { level: r.hierarchy.level }),
    phantom:
      selected !== null &&
      !(inside ? (r.hierarchy?.offered ?? []) : r.visible_order).includes(selected),
    acceptable: !inside && r.selected !== null && r.acceptable.includes(r.selected),
    forbidden: r.selected !== null && r.forbidden.includes(r.selected),
    arguments: r.arguments,
    argument_errors: r.argument_errors,
    argument_match: r.argument_match,
    failed_stage: r.error === null ? r.failed_stage : null,
    selection_error: r.error === null ? r.selection_error : null,
    response_text: r.response_text,
    extra_calls: r.call_set === undefined ? (r.calls ?? []).slice(1) : [],
    ...(r.search === undefined ? {} : { search: r.search }),
    ...(r.call_set === undefined ? {} : { call_set: { calls: r.calls ?? [], set: r.call_set } }),
  };
}

/** The first rung (in ladder order) that any scored trial failed. */
function earliestStage(scored: TrialRecord[]): Stage | null {
  return STAGES.find((stage) => scored.some((t) => t.failed_stage === stage)) ?? null;
}
