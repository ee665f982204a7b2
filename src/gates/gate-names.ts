/**
 * The vocabulary of `gates:` — which names a gate may have and how its threshold is written —
 * checked when route-eval.yaml is loaded, so a misspelt gate fails before the first (paid) call.
 * report/gates.ts evaluates the same names.
 */
import { RATE_NAMES } from "../types/rates.js";
import { findNearName } from "../text/near-name.js";
import type { GateSpec } from "../types.js";

export const CASE_MEANS = ["pass_hat_k", "pass_at_k"] as const;

/** The call-set rates a gate may name (metrics.call_sets, docs/call-sets.md). */
export const CALL_SET_GATES = ["call_set_exact", "call_recall", "call_precision"] as const;
export type CallSetGate = (typeof CALL_SET_GATES)[number];

/** Each call-set rate's label, as the report and diff show it. */
export const CALL_SET_LABELS: Record<CallSetGate, string> = {
  call_set_exact: "call sets exact (with arguments)",
  call_recall: "expected-call recall",
  call_precision: "call precision",
};

export function isCallSetGate(name: string): name is CallSetGate {
  return (CALL_SET_GATES as readonly string[]).includes(name);
}

/** Every gate name evaluateGates accepts (`<k>` stands for a budget, or "all" for recall). */
export const GATE_METRICS: readonly string[] = [
  ...RATE_NAMES,
  "consistency",
  "mean_visible",
  "conversation_success",
  ...CALL_SET_GATES,
  "tool_recall_at_k.<k>",
  ...CASE_MEANS,
  "pass_hat_k.<k>",
  "pass_at_k.<k>",
];

export const RECALL_PATTERN = /^tool_recall_at_k\.(all|[1-9]\d*)$/;
export const CASE_MEAN_PATTERN = /^(pass_hat_k|pass_at_k)\.([1-9]\d*)$/;
/** A variant gate's threshold: `>= base`, `<= previous`, `> 0.8`. */
export const VARIANT_GATE_PATTERN =
  /^\s*(>=|<=|==|!=|>|<)\s*(base|previous|[-+]?(?:\d+(?:\.\d*)?|\.\d+))\s*$/;
export const SPEC_PATTERN = /^(>=|<=|==|!=|>|<)\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)$/;

const PLAIN_NAMES: ReadonlySet<string> = new Set([
  ...RATE_NAMES,
  "consistency",
  "mean_visible",
  "conversation_success",
  ...CALL_SET_GATES,
]);
const SUGGESTIONS: ReadonlySet<string> = new Set([
  ...PLAIN_NAMES,
  ...CASE_MEANS,
  "tool_recall_at_k.all",
]);

/** What is wrong with gate `name: spec`, or null. */
export function findGateProblem(name: string, spec: GateSpec): string | null {
  const isMean = CASE_MEANS.some((mean) => mean === name);
  if (typeof spec !== "string")
    return isMean
      ? null
      : `{k, min} applies only to ${CASE_MEANS.join(" and ")}; write "OP NUMBER" (e.g. ">= 0.9")`;
  if (isMean) return `expected {k, min} (e.g. {k: 3, min: 0.8}), or name the k: "${name}.3"`;
  if (!PLAIN_NAMES.has(name) && !RECALL_PATTERN.test(name) && !CASE_MEAN_PATTERN.test(name)) {
    const near = findNearName(name, SUGGESTIONS);
    return `unknown metric${near === null ? ` (known: ${GATE_METRICS.join(", ")})` : ` (did you mean "${near}"?)`}`;
  }
  return null;
}
