/** Diff sections for changed definitions (word diff, blast radius) and for the gates. */
import type { Cell, TableData } from "../render/section.js";
import { FLIP_KINDS } from "../types/diff.js";
import type { DefinitionChange, Diff, FlipKind } from "../types/diff.js";
import { DEFINITION_LABELS, FLIP_LABELS } from "./format-diff.js";
import { section, type DiffSection, type Line, type Span } from "./diff-section.js";

const MAX_BLAST_LISTED = 20;
/** Cases whose outcome moved (or appeared, or vanished) are named; the steady ones only counted. */
const LISTED_KINDS: ReadonlySet<FlipKind> = new Set<FlipKind>([
  "regressed",
  "fixed",
  "new",
  "removed",
  "errored",
]);
const BASIS_LABELS: Record<DefinitionChange["blast_radius"]["basis"], string> = {
  visible_sets: "cases whose visible set contained it",
  case_rows:
    "cases naming it as acceptable or forbidden, or selecting it (no trial records: visible sets unknown)",
};

function wordLine(change: DefinitionChange): Line {
  return change.words.map((segment): Span => ({ text: segment.text, mark: segment.op }));
}

/** Hash, inferred input_schema change, family, effect and open_world moves, one line each. */
export function describeFields(change: DefinitionChange): string[] {
  const { base, current } = change;
  if (base === null || current === null) return [];
  const lines = base.hash === current.hash ? [] : [`hash ${base.hash} → ${current.hash}`];
  if (change.fields.includes("input_schema"))
    lines.push("input_schema changed (the hash moved, the description did not)");
  for (const key of ["family", "effect", "open_world"] as const) {
    if (base[key] !== current[key])
      lines.push(`${key} ${String(base[key])} → ${String(current[key])}`);
  }
  return lines;
}

function describeBlast(change: DefinitionChange): string[] {
  const blast = change.blast_radius;
  const counts = FLIP_KINDS.filter((kind) => blast.counts[kind] > 0).map(
    (kind) => `${blast.counts[kind]} ${FLIP_LABELS[kind]}`,
  );
  const trials = `correct trials ${blast.base.correct}/${blast.base.scored} → ${blast.current.correct}/${blast.current.scored}`;
  const head = `blast radius: ${blast.cases.length} ${BASIS_LABELS[blast.basis].replace(/^cases/, blast.cases.length === 1 ? "case" : "cases")}${counts.length > 0 ? ` — ${counts.join(", ")}` : ""}; ${trials}`;
  const moved = blast.cases.filter((c) => LISTED_KINDS.has(c.kind));
  const listed = moved
    .slice(0, MAX_BLAST_LISTED)
    .map((c) => `  ${FLIP_LABELS[c.kind]}: ${c.case_id}`);
  const rest =
    moved.length > MAX_BLAST_LISTED ? [`  … and ${moved.length - MAX_BLAST_LISTED} more`] : [];
  return [head, ...listed, ...rest];
}

function buildDefinitionSection(change: DefinitionChange): DiffSection {
  const title = `${change.tool} — ${DEFINITION_LABELS[change.change]}${change.change === "changed" ? `: ${change.fields.join(", ")}` : ""}`;
  const text: Line[] = change.words.length > 0 ? [wordLine(change)] : [];
  return section(title, [...text, ...describeFields(change)], null, describeBlast(change));
}

/** A summary section, then one section per changed tool. */
export function buildDefinitionSections(diff: Diff): DiffSection[] {
  const { base_recorded, current_recorded, changes } = diff.definitions;
  const title = "Changed definitions (model-facing text)";
  if (!base_recorded || !current_recorded) {
    const missing = [
      ...(base_recorded ? [] : ["BASE"]),
      ...(current_recorded ? [] : ["CURRENT"]),
    ].join(" and ");
    return [
      section(title, [
        `not compared: ${missing} recorded no tool definitions (records without run.json)`,
      ]),
    ];
  }
  if (changes.length === 0) return [section(title, ["no tool definition changed"])];
  const summary = changes.map((c) => `${c.tool} (${DEFINITION_LABELS[c.change]})`).join(", ");
  return [
    section(title, [`${changes.length} tool${changes.length === 1 ? "" : "s"}: ${summary}`]),
    ...changes.map(buildDefinitionSection),
  ];
}

export function buildGateSection(diff: Diff): DiffSection {
  const title = "Gates";
  if (diff.gates.length === 0)
    return section(title, ["none set (use --max-drop or --fail-on-regressed-case); exit 0"]);
  const rows = diff.gates.map((g): Cell[] => [
    g.not_evaluable !== undefined
      ? { text: "–", tone: "muted" }
      : g.passed
        ? { text: "✓", tone: "good" }
        : { text: "✗", tone: "bad" },
    g.rule,
    g.not_evaluable !== undefined ? `not evaluable (${g.not_evaluable}): ${g.reason}` : g.reason,
  ]);
  const table: TableData = { head: ["", "gate", "reason"], align: ["left", "left", "left"], rows };
  return section(title, [describeGates(diff.gates)], table);
}

/** "all 2 gates passed", "1 of 2 gates failed: exit 1", "1 passed, 1 not evaluable (… ): exit 0". */
export function describeGates(gates: Diff["gates"]): string {
  const failed = gates.filter((g) => !g.passed).length;
  const vacuous = gates.filter((g) => g.not_evaluable !== undefined).length;
  if (failed > 0) return `${failed} of ${gates.length} gates failed: exit 1`;
  if (vacuous === 0) return `all ${gates.length} gates passed`;
  return `${gates.length - vacuous} passed, ${vacuous} not evaluable (it could not have failed with these trials): exit 0, but nothing is guarded by ${vacuous === 1 ? "it" : "them"}`;
}
