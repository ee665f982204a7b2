/**
 * CI checks across variants: `gates.variants` thresholds (against a number, the base, or the
 * rung before) and `--fail-if-worse VARIANT` (its paired verdict against its reference is "hurt").
 * A value that cannot be measured fails: a gate must not pass silently.
 */
import { VARIANT_GATE_PATTERN } from "./gate-names.js";
import { formatDecimal } from "../render/format.js";
import { OPERATORS, type Operator } from "./evaluate-gates.js";
import type { VariantGate } from "../types.js";
import { type Experiment, type VariantGateCheck, BASE_NAME, findVariant } from "../types/ablate.js";

const COMPARE: Record<Operator, (a: number, b: number) => boolean> = {
  ">=": (a, b) => a >= b - 1e-12,
  "<=": (a, b) => a <= b + 1e-12,
  ">": (a, b) => a > b,
  "<": (a, b) => a < b,
  "==": (a, b) => Math.abs(a - b) < 1e-12,
  "!=": (a, b) => Math.abs(a - b) >= 1e-12,
};

export function evaluateVariantGates(
  experiment: Experiment,
  gates: VariantGate[],
  failIfWorse: string[],
): VariantGateCheck[] {
  const slugged = experiment.variants.map((v, index) => ({
    ...v,
    index,
    slug: v.dir.replace(/^variants\//, ""),
  }));
  const checks: VariantGateCheck[] = [];
  for (const gate of gates) {
    const variant = findVariant(slugged, gate.variant);
    const match = VARIANT_GATE_PATTERN.exec(gate.threshold);
    const row = experiment.metrics.find((m) => m.metric === gate.metric);
    if (variant === undefined || match === null) continue; // checked when the experiment was planned
    const op = OPERATORS.find((o) => o === match[1]) ?? ">=";
    const rule = `${variant.name}: ${gate.metric} ${op} ${match[2]}`;
    const value = row?.values[variant.index].value ?? null;
    const against = referenceOf(experiment, variant.index, match[2]);
    const target =
      typeof against === "number"
        ? against
        : against === null
          ? null
          : (row?.values[against.index].value ?? null);
    if (value === null || target === null) {
      checks.push({
        variant: variant.name,
        rule,
        passed: false,
        reason: `${gate.metric} is not measured in ${value === null ? variant.name : "the variant it is compared with"}`,
      });
      continue;
    }
    const passed = COMPARE[op](value, target);
    const targetName =
      typeof against === "number" || against === null
        ? formatDecimal(target)
        : `${against.name} (${formatDecimal(target)})`;
    checks.push({
      variant: variant.name,
      rule,
      passed,
      reason: `${gate.metric} ${formatDecimal(value)} ${passed ? "meets" : "fails"} ${op} ${targetName}`,
    });
  }
  for (const name of failIfWorse) {
    const variant = findVariant(slugged, name);
    const comparison = experiment.comparisons.find((c) => c.variant === variant?.name);
    if (variant === undefined || comparison === undefined) continue; // checked before the run
    // A variant that could not be judged fails: a gate must not pass silently.
    const passed = comparison.verdict !== "hurt" && comparison.verdict !== "unmeasured";
    const reason = `against ${comparison.reference}: ${comparison.verdict} (${comparison.because})`;
    checks.push({ variant: variant.name, rule: `--fail-if-worse ${variant.name}`, passed, reason });
  }
  return checks;
}

/** What a threshold names: a number, or the variant "base" / "previous" stand for (null when there is none). */
function referenceOf(
  experiment: Experiment,
  index: number,
  written: string,
): number | { index: number; name: string } | null {
  if (written !== BASE_NAME && written !== "previous") return Number(written);
  const name =
    written === "previous" ? experiment.variants[index].reference : experiment.variants[0].name;
  const at = experiment.variants.findIndex((v) => v.name === name);
  return at === -1 ? null : { index: at, name: experiment.variants[at].name };
}
