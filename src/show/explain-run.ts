/**
 * Composition root of `show` and of the HTML report's drill-down: gather, for every case of a run,
 * the evidence its explanation needs (records, phase policy, why each hidden tool was hidden,
 * the model-facing descriptions) from run.json and records.jsonl alone — nothing is re-run.
 */
import { findNearName } from "../text/near-name.js";
import { InputError } from "../errors.js";
import { listHidingRules } from "../exposure/hiding-rules.js";
import { groupBy } from "../metrics/scored-trials.js";
import { CONTROL_TOOLS, renderDescription } from "../registry/render-definition.js";
import { explainCase } from "./explain-case.js";
import type { CaseExplanation, HiddenTool } from "../types/explain.js";
import { isControl } from "../types.js";
import type { CaseRow, HiddenReason, PhasePolicy, Report, RunMeta, TrialRecord } from "../types.js";

/** One explanation per case, in the report's case order. */
export function explainRun(report: Report, records: TrialRecord[]): CaseExplanation[] {
  const byCase = groupBy(records, (r) => r.case_id);
  const descriptions = collectDescriptions(report.run);
  return report.cases.map((row) =>
    explainRows(report, row, byCase.get(row.case_id) ?? [], descriptions),
  );
}

/** The explanation of one case; an unknown id is an InputError that names some known ones. */
export function explainOneCase(
  report: Report,
  records: TrialRecord[],
  caseId: string,
  source: string,
): CaseExplanation {
  const trials = records.filter((r) => r.case_id === caseId);
  const row = report.cases.find((c) => c.case_id === caseId);
  if (trials.length === 0 || row === undefined) {
    const ids = report.cases.map((c) => c.case_id);
    const typo = findNearName(caseId, ids);
    const near =
      typo !== null
        ? [typo]
        : ids.filter((id) => id.includes(caseId) || caseId.includes(id)).slice(0, 5);
    const hint =
      near.length > 0
        ? `did you mean ${near.map((id) => `"${id}"`).join(", ")}?`
        : `run "route-eval show ${source}" to list the failing cases`;
    throw new InputError(
      `${source}: no case "${caseId}" in this run (${report.cases.length} cases); ${hint}`,
    );
  }
  return explainRows(report, row, trials, collectDescriptions(report.run));
}

function explainRows(
  report: Report,
  row: CaseRow,
  trials: TrialRecord[],
  descriptions: Record<string, string>,
): CaseExplanation {
  const first = trials.reduce((a, b) => (b.trial < a.trial ? b : a));
  const policy = findPolicy(report.run, first.phase);
  const hidden = findHidden(first, report.run, policy);
  return explainCase({
    row,
    records: trials,
    policy,
    hidden,
    descriptions,
    rivals: report.metrics.rivals,
  });
}

function findPolicy(meta: RunMeta, phase: string | null): PhasePolicy | null {
  return phase === null ? null : (meta.config.phases[phase] ?? null);
}

/** Ordinary tools in the registry but not exposed, with every rule of the policy that hid each. */
function findHidden(record: TrialRecord, meta: RunMeta, policy: PhasePolicy | null): HiddenTool[] {
  const exposed = new Set(record.exposed_names);
  return record.registry_names
    .filter((name) => !exposed.has(name) && !isControl(name))
    .map((name) => {
      const d = meta.definitions[name];
      return {
        name,
        family: d?.family ?? null,
        effect: d?.effect ?? null,
        open_world: d?.open_world ?? null,
        rules:
          turnRule(record, name) ??
          (d === undefined || policy === null ? [] : listHidingRules(d, policy)),
        acceptable: record.acceptable.includes(name),
      };
    });
}

/** A tool a conversation's turn hid by itself (removed earlier, or withheld until a later turn), else null. */
function turnRule(record: TrialRecord, name: string): HiddenReason[] | null {
  if (record.turn?.removed.includes(name) === true) return ["removed"];
  if (record.turn?.withheld.includes(name) === true) return ["withheld"];
  return null;
}

/** Descriptions of the run's tools (run.json) and of the trusted controls (as the runtime renders them). */
function collectDescriptions(meta: RunMeta): Record<string, string> {
  const controls = Object.values(CONTROL_TOOLS).map((tool) => [tool.name, renderDescription(tool)]);
  const tools = Object.entries(meta.definitions).map(([name, d]) => [name, d.description]);
  return Object.fromEntries([...controls, ...tools]);
}
