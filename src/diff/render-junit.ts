/**
 * JUnit XML of a diff for CI test panels: one testcase per gate, then one per case of either run.
 * A failed gate and a case regressed beyond its trial noise are failures; a removed case, and a
 * pass → fail flip within noise or in quarantine, are skipped (with why); the rest pass.
 */
import { escapeXml } from "../render/xml.js";
import { formatCounts, MISSING, pIs } from "../render/format.js";
import type { CaseFlip, CaseSide, Diff } from "../types/diff.js";
import { FLIP_LABELS } from "./format-diff.js";

const SUITE = "route-eval diff";

function attribute(text: string): string {
  return escapeXml(text).replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

function attributes(pairs: [string, string | number][]): string {
  return pairs.map(([name, value]) => ` ${name}="${attribute(String(value))}"`).join("");
}

function describeSide(label: string, side: CaseSide | null): string {
  if (side === null) return `${label}: ${MISSING}`;
  return `${label}: ${side.correct}/${side.scored} correct, stage ${side.stage}, selections ${formatCounts(side.selections)}`;
}

function renderGate(gate: Diff["gates"][number]): string {
  const open = `    <testcase${attributes([
    ["classname", "gates"],
    ["name", gate.rule],
  ])}`;
  if (gate.not_evaluable !== undefined)
    return `${open}>\n      <skipped${attributes([["message", `not evaluable (${gate.not_evaluable}): ${gate.reason}`]])}/>\n    </testcase>`;
  if (gate.passed) return `${open}/>`;
  return `${open}>\n      <failure${attributes([
    ["message", gate.reason],
    ["type", "gate"],
  ])}/>\n    </testcase>`;
}

/** A case that fails the suite: its drop is beyond its trial noise, and it is not quarantined. */
function fails(flip: CaseFlip): boolean {
  return flip.kind === "regressed" && flip.test?.beyond_noise === true && flip.quarantined !== true;
}

/** Why a pass → fail flip does not fail the suite. */
function excused(flip: CaseFlip): string | null {
  if (flip.kind !== "regressed" || fails(flip)) return null;
  if (flip.quarantined === true) return "regressed, quarantined: reported, never gated";
  return `regressed within its trial noise (Holm ${pIs(flip.test?.p_holm ?? 1)}): not a regression`;
}

function renderCase(flip: CaseFlip): string {
  const open = `    <testcase${attributes([
    ["classname", "cases"],
    ["name", flip.case_id],
  ])}`;
  const body = escapeXml(
    [
      `flip: ${FLIP_LABELS[flip.kind]}`,
      describeSide("BASE", flip.base),
      describeSide("CURRENT", flip.current),
    ].join("\n"),
  );
  if (flip.kind === "removed")
    return `${open}>\n      <skipped${attributes([["message", "removed: only in BASE"]])}/>\n    </testcase>`;
  const excuse = excused(flip);
  if (excuse !== null)
    return `${open}>\n      <skipped${attributes([["message", excuse]])}/>\n      <system-out>${body}</system-out>\n    </testcase>`;
  if (!fails(flip)) return `${open}>\n      <system-out>${body}</system-out>\n    </testcase>`;
  const message = `regressed: ${describeSide("BASE", flip.base)}; ${describeSide("CURRENT", flip.current)}`;
  return `${open}>\n      <failure${attributes([
    ["message", message],
    ["type", "regression"],
  ])}>${body}</failure>\n    </testcase>`;
}

export function renderDiffJunit(diff: Diff): string {
  const cases = diff.flips;
  const failures = diff.gates.filter((g) => !g.passed).length + cases.filter(fails).length;
  const skipped =
    cases.filter((f) => f.kind === "removed" || excused(f) !== null).length +
    diff.gates.filter((g) => g.not_evaluable !== undefined).length;
  const counts: [string, number][] = [
    ["tests", diff.gates.length + cases.length],
    ["failures", failures],
    ["errors", 0],
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attributes([["name", SUITE], ...counts])}>`,
    `  <testsuite${attributes([["name", SUITE], ...counts, ["skipped", skipped]])}>`,
    "    <properties>",
    `      <property${attributes([
      ["name", "base"],
      ["value", diff.base.run_id],
    ])}/>`,
    `      <property${attributes([
      ["name", "current"],
      ["value", diff.current.run_id],
    ])}/>`,
    `      <property${attributes([
      ["name", "verdict"],
      ["value", diff.verdict],
    ])}/>`,
    "    </properties>",
    ...diff.gates.map(renderGate),
    ...cases.map(renderCase),
    "  </testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
