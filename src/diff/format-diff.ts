/**
 * Words and numbers of a diff, shared by every renderer: metric values, deltas in points, paired
 * tests, flip and class labels (exhaustive maps over the closed vocabularies).
 */
import { pIs, isProportion, MISSING, plural } from "../render/format.js";
import { describeDiscovery } from "./comparability.js";
import { describeRegistries } from "../render/run-header.js";
import type {
  Change,
  DefinitionChangeKind,
  Diff,
  DiffRunInfo,
  FlipKind,
  MetricDelta,
  ReliabilityClass,
  PairedTest,
} from "../types/diff.js";

export const FLIP_LABELS: Record<FlipKind, string> = {
  regressed: "regressed",
  fixed: "fixed",
  still_failing: "still failing",
  new: "new",
  removed: "removed",
  errored: "errored",
  still_passing: "still passing",
};

export const CLASS_LABELS: Record<ReliabilityClass, string> = {
  always_pass: "always pass",
  flaky: "flaky",
  always_fail: "always fail",
  errored: "all errored",
};

export const CHANGE_LABELS: Record<Change, string> = {
  improved: "better",
  regressed: "worse",
  unchanged: "same",
  changed: "changed",
  unmeasured: MISSING,
};

export const DEFINITION_LABELS: Record<DefinitionChangeKind, string> = {
  changed: "changed",
  added: "added",
  removed: "removed",
};

/** "+4.2 pts", "−8.3 pts", "0.0 pts"; plain numbers for non-proportions; "—" when unmeasured. */
export function formatDelta(row: MetricDelta): string {
  if (row.delta === null) return MISSING;
  const scaled = isProportion(row) ? row.delta * 100 : row.delta;
  const text = Math.abs(scaled).toFixed(1);
  const sign = text === "0.0" ? "" : row.delta > 0 ? "+" : "−";
  return isProportion(row) ? `${sign}${text} pts` : `${sign}${text}`;
}

/** "3↑ 1↓ of 12, p = 0.625"; "—" when the test is unavailable. */
export function formatTest(test: PairedTest | null): string {
  if (test === null) return MISSING;
  return `${test.up}↑ ${test.down}↓ of ${test.pairs}, ${pIs(test.p_value)}`;
}

export function isSignificant(test: PairedTest | null, alpha: number): boolean {
  return test !== null && test.up + test.down > 0 && test.p_value < alpha;
}

function describeRunInfo(info: DiffRunInfo): string {
  const registries = describeRegistries(info.registries);
  return `${info.run_id} (${registries})`;
}

/** One line: BASE → CURRENT, endpoint/model, shared cases × trials, retriever. */
export function describeDiff(diff: Diff): string {
  const { base, current, scope } = diff;
  const endpoint =
    base.endpoint === current.endpoint && base.model === current.model
      ? `${base.endpoint}/${base.model}`
      : `${base.endpoint}/${base.model} → ${current.endpoint}/${current.model}`;
  const trials =
    base.trials === current.trials ? String(base.trials) : `${base.trials}/${current.trials}`;
  const discovery = describeDiscovery(base.discovery);
  const retriever = discovery === "none" ? "no retriever" : `retriever ${discovery}`;
  return `route-eval diff ${describeRunInfo(base)} → ${describeRunInfo(current)} · ${endpoint} · ${plural(scope.shared_cases, "shared case")} × ${trials} trial${trials === "1" ? "" : "s"} · ${retriever}`;
}

/** "BASE reports/a (trial records)", "CURRENT x.json (report.json only)". */
export function describeSources(diff: Diff): string[] {
  const source = (info: DiffRunInfo): string =>
    info.source === "records" ? "trial records" : "report.json only";
  return [
    `BASE ${diff.base.label} (${source(diff.base)})`,
    `CURRENT ${diff.current.label} (${source(diff.current)})`,
  ];
}
