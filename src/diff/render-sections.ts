/**
 * The content of a diff rendering, independent of presentation: titled sections of lines (plain,
 * or spans that mark removed and added words) and one table each. Terminal and Markdown lay the
 * same sections out differently. Definitions and gates are built in render-definitions.ts.
 */
import {
  describeCaseTest,
  formatCounts,
  MISSING,
  formatValue,
  pIs,
  plural,
} from "../render/format.js";
import type { Cell, TableData, Tone } from "../render/section.js";
import { FLIP_KINDS, RELIABILITY_CLASSES } from "../types/diff.js";
import type { CaseFlip, CaseSide, Diff, HeadroomMove, MetricDelta } from "../types/diff.js";
import { formatTrials } from "../counterfactual/render-counterfactual.js";
import {
  CHANGE_LABELS,
  CLASS_LABELS,
  describeSources,
  FLIP_LABELS,
  formatDelta,
  formatTest,
  isSignificant,
} from "./format-diff.js";
import { section, type DiffSection, type Line } from "./diff-section.js";
import { buildDefinitionSections } from "./render-definitions.js";

const MAX_FLIPS = 50;
const MAX_CONFUSIONS = 20;
const CHANGE_TONES: Record<MetricDelta["change"], Tone> = {
  improved: "good",
  regressed: "bad",
  unchanged: "plain",
  changed: "plain",
  unmeasured: "muted",
};

function more(total: number, shown: number): string[] {
  return total > shown ? [`… and ${total - shown} more`] : [];
}

export function buildComparabilitySection(diff: Diff): DiffSection {
  const { comparability, scope } = diff;
  const lines: Line[] = [...describeSources(diff)];
  if (comparability.comparable)
    lines.push(
      "comparable: same cases, trials per case, endpoint and model, temperature and retriever",
    );
  else lines.push(...comparability.differences.map((d) => `forced (--force): ${d.message}`));
  return section("Comparability", lines, null, [...comparability.notes, ...scope.notes]);
}

export function buildOutcomeSection(diff: Diff): DiffSection {
  const { flips, cases, trials } = diff.outcome;
  const counts = FLIP_KINDS.filter((kind) => flips[kind] > 0).map(
    (kind) => `${flips[kind]} ${FLIP_LABELS[kind]}`,
  );
  const lines = [
    counts.length === 0 ? "no cases" : counts.join(" · "),
    `cases (a case passes when every scored trial is correct): ${cases.up} fixed vs ${cases.down} regressed of ${plural(cases.pairs, "case")} scored in both runs, exact McNemar ${pIs(cases.p_value)}`,
    trials === null
      ? "trials: not paired (a run has no trial records)"
      : `trials: ${trials.up} fixed vs ${trials.down} regressed of ${plural(trials.pairs, "trial pair")}, exact McNemar ${pIs(trials.p_value)}`,
  ];
  return section("Outcome", lines);
}

function testCell(test: MetricDelta["cases"], alpha: number): Cell {
  const text = formatTest(test);
  return isSignificant(test, alpha) ? { text: `${text} *`, tone: "plain" } : text;
}

function metricRow(row: MetricDelta, alpha: number): Cell[] {
  const tone = CHANGE_TONES[row.change];
  return [
    row.label,
    formatValue(row, row.base),
    formatValue(row, row.current),
    { text: formatDelta(row), tone },
    { text: CHANGE_LABELS[row.change], tone },
    testCell(row.cases, alpha),
    testCell(row.trials, alpha),
  ];
}

/** What a rendering lists: by default what changed; `all` adds the unchanged metrics and the cases still failing. */
export interface DiffListing {
  all: boolean;
}

export function buildMetricsSection(diff: Diff, listing: DiffListing): DiffSection {
  const alpha = diff.power.alpha;
  const measured = diff.metrics.filter((m) => m.base.value !== null || m.current.value !== null);
  const shown = listing.all ? measured : measured.filter((m) => m.change !== "unchanged");
  const unchanged = measured.length - shown.length;
  const hidden = diff.metrics.filter((m) => !measured.includes(m)).map((m) => m.label);
  const table: TableData = {
    head: ["metric", "BASE", "CURRENT", "Δ", "change", "cases (paired)", "trials (paired)"],
    align: ["left", "right", "right", "right", "left", "left", "left"],
    rows: shown.map((row) => metricRow(row, alpha)),
  };
  const notes = [
    ...(shown.length > 0
      ? [
          `cases: sign test over the shared cases whose own value moved (↑ rose, ↓ fell); trials: exact McNemar over trial pairs in the metric's population in both runs; * p < ${alpha}`,
        ]
      : []),
    ...(unchanged > 0
      ? [`${unchanged} of ${measured.length} metrics unchanged (not listed; --all lists them)`]
      : []),
    ...(hidden.length > 0 ? [`not measured in either run: ${hidden.join(", ")}`] : []),
  ];
  return section("Metrics", [], shown.length > 0 ? table : null, notes);
}

function describeStage(side: CaseSide | null): string {
  return side === null ? MISSING : side.stage;
}

function flipRow(flip: CaseFlip): Cell[] {
  const tone: Tone = flip.kind === "regressed" ? "bad" : flip.kind === "fixed" ? "good" : "plain";
  return [
    flip.case_id,
    { text: FLIP_LABELS[flip.kind], tone },
    `${describeStage(flip.base)} → ${describeStage(flip.current)}`,
    flip.base === null ? MISSING : formatCounts(flip.base.selections),
    flip.current === null ? MISSING : formatCounts(flip.current.selections),
  ];
}

export function buildFlipsSection(diff: Diff, listing: DiffListing): DiffSection {
  const listed = diff.flips.filter(
    (flip) => flip.kind !== "still_passing" && (listing.all || flip.kind !== "still_failing"),
  );
  const count = (kind: CaseFlip["kind"]) => diff.flips.filter((flip) => flip.kind === kind).length;
  const unlisted = [
    ...(listing.all || count("still_failing") === 0
      ? []
      : [`${plural(count("still_failing"), "case")} still failing (not listed; --all lists them)`]),
    ...(count("still_passing") === 0
      ? []
      : [`${plural(count("still_passing"), "case")} still passing (not listed)`]),
  ];
  const title = "Case flips";
  const notes = [...more(listed.length, MAX_FLIPS), ...unlisted];
  if (listed.length === 0) return section(title, ["no case changed outcome"], null, notes);
  const table: TableData = {
    head: ["case", "flip", "stage BASE → CURRENT", "selections BASE", "selections CURRENT"],
    align: ["left", "left", "left", "left", "left"],
    rows: listed.slice(0, MAX_FLIPS).map(flipRow),
  };
  return section(title, [], table, notes);
}

/**
 * The noise model: which test decides that a case regressed, what it found, the flaky cases, the
 * quarantine (reported, never gated) and the base side's remeasured trials.
 */
export function buildNoiseSection(diff: Diff): DiffSection {
  const n = diff.noise;
  const byId = new Map(diff.flips.map((f) => [f.case_id, f]));
  const counts = (id: string): string => describeCaseTest(byId.get(id), id);
  const beyond = diff.flips.filter((f) => f.test?.beyond_noise === true).map((f) => f.case_id);
  const lines: Line[] = [
    `a case regresses only when its drop is beyond its own trial noise: one-sided Fisher exact test on its trials in the two runs, Holm-adjusted across the ${plural(n.tested, "case")} scored in both, α ${n.alpha}`,
    beyond.length === 0
      ? "regressed beyond trial noise: none"
      : `regressed beyond trial noise: ${beyond.map(counts).join(", ")}`,
  ];
  if (n.within_noise.length > 0)
    lines.push(
      `passed before, fail now, within noise (not a regression): ${n.within_noise.map(counts).join(", ")}`,
    );
  if (n.best_reachable !== null && n.best_reachable >= n.alpha)
    lines.push(
      `with these trials no case can show a regression (the most a case can reach is Holm ${pIs(n.best_reachable)}): run more trials, or diff --remeasure-base N`,
    );
  if (n.remeasured !== null)
    lines.push(
      `base side remeasured: ${plural(n.remeasured, "more trial")} per case, through the store (tested with the base run's own)`,
    );
  lines.push(
    n.flaky.length === 0
      ? "flaky (own trials disagree in either run): none"
      : `flaky (own trials disagree in either run): ${n.flaky.join(", ")}`,
  );
  if (n.quarantine_file !== null) {
    lines.push(
      n.quarantined.length === 0
        ? `quarantine ${n.quarantine_file}: no case of this diff`
        : `quarantined (${n.quarantine_file}; reported, never gated): ${n.quarantined.join(", ")}`,
    );
    if (n.stable_quarantined.length > 0)
      lines.push(
        `quarantined but stable in both runs now (release them?): ${n.stable_quarantined.join(", ")}`,
      );
  }
  return section("Trial noise (per case)", lines);
}

export function buildReliabilitySection(diff: Diff): DiffSection {
  const { base, current, changed } = diff.reliability;
  const rows = RELIABILITY_CLASSES.map((c): Cell[] => [
    CLASS_LABELS[c],
    String(base[c]),
    String(current[c]),
  ]);
  const table: TableData = {
    head: ["class", "BASE", "CURRENT"],
    align: ["left", "right", "right"],
    rows,
  };
  const moves = changed.map(
    (c) => `${c.case_id}: ${CLASS_LABELS[c.base]} → ${CLASS_LABELS[c.current]}`,
  );
  const notes =
    changed.length === 0
      ? ["no shared case changed class"]
      : [`${plural(changed.length, "case")} changed class:`, ...moves];
  return section(
    "Reliability classes (each run's cases, over their scored trials)",
    [],
    table,
    notes,
  );
}

export function buildConfusionSection(diff: Diff): DiffSection {
  const title = "Confusion cells that moved (expected → selected, trial counts)";
  if (diff.confusions.length === 0) return section(title, ["none"]);
  const rows = diff.confusions
    .slice(0, MAX_CONFUSIONS)
    .map((c): Cell[] => [
      c.acceptable,
      c.selected,
      c.correct ? "correct" : { text: "confusion", tone: c.delta > 0 ? "bad" : "good" },
      String(c.base),
      String(c.current),
      c.delta > 0 ? `+${c.delta}` : `−${Math.abs(c.delta)}`,
    ]);
  const table: TableData = {
    head: ["expected", "selected", "cell", "BASE", "CURRENT", "Δ"],
    align: ["left", "left", "left", "right", "right", "right"],
    rows,
  };
  return section(title, [], table, more(diff.confusions.length, MAX_CONFUSIONS));
}

export function buildPowerSection(diff: Diff): DiffSection {
  const {
    alpha,
    min_discordant: m,
    cases,
    min_case_change,
    trial_pairs,
    min_trial_change,
  } = diff.power;
  if (m === null)
    return section("What this sample can detect", [`no significance level (alpha ${alpha})`]);
  const reach = (n: number, unit: string, change: number | null): string =>
    change === null
      ? `with ${n} ${unit} no change can reach p < ${alpha}`
      : `with ${n} ${unit} at least ${(change * 100).toFixed(1)}% (${Math.round(change * n)}/${n}) of them must move, all the same way`;
  const lines = [
    `an exact paired test reaches p < ${alpha} only with at least ${m} discordant pairs, all in one direction`,
    reach(
      cases,
      cases === 1 ? "case scored in both runs" : "cases scored in both runs",
      min_case_change,
    ),
    ...(trial_pairs === null
      ? []
      : [reach(trial_pairs, trial_pairs === 1 ? "trial pair" : "trial pairs", min_trial_change)]),
  ];
  return section("What this sample can detect", lines);
}

/** Headroom per stage in each run (both ran route-eval counterfactual). */
function buildHeadroomSection(moves: HeadroomMove[]): DiffSection {
  const gain = (g: number | null) => (g === null ? MISSING : `+${(g * 100).toFixed(1)} pts`);
  const rows: Cell[][] = moves.map((m) => [
    m.stage,
    String(m.base.failures),
    String(m.current.failures),
    formatTrials(m.base.binding),
    formatTrials(m.current.binding),
    gain(m.base.gain),
    gain(m.current.gain),
  ]);
  const table: TableData = {
    head: ["stage", "failures BASE", "CURRENT", "binding BASE", "CURRENT", "gain BASE", "CURRENT"],
    align: ["left", "right", "right", "right", "right", "right", "right"],
    rows,
  };
  return section(
    "Headroom (counterfactual)",
    [
      "the failures each stage's fix turns correct, and the end-to-end points that is worth, in each run",
    ],
    table,
  );
}

/** Every section in reading order, gates excluded (each renderer places them). */
export function buildDiffSections(diff: Diff, listing: DiffListing): DiffSection[] {
  return [
    buildComparabilitySection(diff),
    buildOutcomeSection(diff),
    buildMetricsSection(diff, listing),
    buildFlipsSection(diff, listing),
    buildNoiseSection(diff),
    buildReliabilitySection(diff),
    buildConfusionSection(diff),
    ...buildDefinitionSections(diff),
    ...(diff.headroom === undefined ? [] : [buildHeadroomSection(diff.headroom)]),
    buildPowerSection(diff),
  ];
}
