/**
 * Whether two reports can be compared: same cases, trials per case, endpoint and model,
 * temperature and discovery. Each difference is named; other differences become notes.
 */
import { canonicalJson } from "../text/canonical-json.js";
import type { DiscoveryConfig } from "../types.js";
import type { Comparability, Difference, DiffReport } from "../types/diff.js";

const MAX_LISTED = 5;

function listIds(ids: string[]): string {
  const shown = ids.slice(0, MAX_LISTED).join(", ");
  return ids.length > MAX_LISTED ? `${shown}, … ${ids.length - MAX_LISTED} more` : shown;
}

export function describeDiscovery(discovery: DiscoveryConfig): string {
  return discovery.retriever === "none" ? "none" : `${discovery.retriever} k=${discovery.k ?? "?"}`;
}

/** Case ids present in one report and not the other, each list sorted. */
export function splitCaseIds(
  base: DiffReport,
  current: DiffReport,
): { shared: string[]; onlyBase: string[]; onlyCurrent: string[] } {
  const baseIds = new Set(base.cases.map((row) => row.case_id));
  const currentIds = new Set(current.cases.map((row) => row.case_id));
  return {
    shared: [...baseIds].filter((id) => currentIds.has(id)).sort(),
    onlyBase: [...baseIds].filter((id) => !currentIds.has(id)).sort(),
    onlyCurrent: [...currentIds].filter((id) => !baseIds.has(id)).sort(),
  };
}

function caseDifference(base: DiffReport, current: DiffReport): Difference[] {
  const { onlyBase, onlyCurrent } = splitCaseIds(base, current);
  if (onlyBase.length === 0 && onlyCurrent.length === 0) return [];
  const parts = [
    ...(onlyBase.length > 0 ? [`${onlyBase.length} only in BASE (${listIds(onlyBase)})`] : []),
    ...(onlyCurrent.length > 0
      ? [`${onlyCurrent.length} only in CURRENT (${listIds(onlyCurrent)})`]
      : []),
  ];
  return [
    {
      setting: "cases",
      base: `${base.cases.length} cases`,
      current: `${current.cases.length} cases`,
      message: `case sets differ: ${parts.join(", ")}`,
    },
  ];
}

function differ(
  setting: Difference["setting"],
  what: string,
  base: string,
  current: string,
): Difference[] {
  return base === current
    ? []
    : [{ setting, base, current, message: `${what} differs: ${base} vs ${current}` }];
}

/** Settings that change what is measured; the reader should know, but the comparison stands. */
function collectNotes(base: DiffReport, current: DiffReport): string[] {
  const notes: string[] = [];
  const revisions = (r: DiffReport): Map<string, string> =>
    new Map(r.run.registries.map((g) => [g.snapshot, g.revision]));
  const before = revisions(base);
  for (const [snapshot, revision] of revisions(current)) {
    const old = before.get(snapshot);
    if (old !== undefined && old !== revision)
      notes.push(`registry ${snapshot}: revision ${old} → ${revision}`);
  }
  const a = base.run.config;
  const b = current.run.config;
  if (a.system_prompt !== b.system_prompt) notes.push("system prompt changed");
  if (canonicalJson(a.phases) !== canonicalJson(b.phases)) notes.push("phase policies changed");
  if (canonicalJson(a.controls) !== canonicalJson(b.controls))
    notes.push(`controls changed: ${a.controls.join(", ")} → ${b.controls.join(", ")}`);
  const [sa, sb] = [a.success ?? "selection", b.success ?? "selection"];
  if (sa !== sb)
    notes.push(
      `success changed: ${sa} → ${sb} (pass^k, flips and passed cases use different correctness)`,
    );
  if (base.run.tool_version !== current.run.tool_version) {
    notes.push(`route-eval version ${base.run.tool_version} → ${current.run.tool_version}`);
  }
  return notes;
}

/** Every blocking difference, in a fixed order, and the notes. */
export function checkComparability(
  base: DiffReport,
  current: DiffReport,
  forced: boolean,
): Comparability {
  const a = base.run;
  const b = current.run;
  const differences = [
    ...caseDifference(base, current),
    ...differ("trials", "trials per case", String(a.config.trials), String(b.config.trials)),
    ...differ("endpoint", "endpoint", a.endpoint, b.endpoint),
    ...differ("model", "model", a.model, b.model),
    ...differ(
      "temperature",
      "temperature",
      String(a.config.temperature),
      String(b.config.temperature),
    ),
    ...differ(
      "discovery",
      "retriever",
      describeDiscovery(a.config.discovery),
      describeDiscovery(b.config.discovery),
    ),
  ];
  return {
    comparable: differences.length === 0,
    forced,
    differences,
    notes: collectNotes(base, current),
  };
}
