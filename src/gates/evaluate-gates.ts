/**
 * CI gates: thresholds on metrics. `"OP NUMBER"` applies to a rate's value (or a plain number);
 * `{k, min}` to pass^k / pass@k. A metric whose population is empty fails: a gate that cannot be
 * measured must not pass silently.
 */
import { isRateName } from "../types/rates.js";
import { InputError } from "../errors.js";
import type { GateResult, GateSpec, MeanEstimate, Metrics, Rate } from "../types.js";
import { formatCount, formatDecimal, plural } from "../render/format.js";
import { compareText } from "../text/compare-text.js";
import {
  CASE_MEANS,
  CASE_MEAN_PATTERN,
  GATE_METRICS,
  RECALL_PATTERN,
  isCallSetGate,
  SPEC_PATTERN,
} from "./gate-names.js";

export const OPERATORS = [">=", "<=", ">", "<", "==", "!="] as const;
export type Operator = (typeof OPERATORS)[number];

const COMPARE: Record<Operator, (actual: number, threshold: number) => boolean> = {
  ">=": (a, t) => a >= t,
  "<=": (a, t) => a <= t,
  ">": (a, t) => a > t,
  "<": (a, t) => a < t,
  "==": (a, t) => a === t,
  "!=": (a, t) => a !== t,
};
const PASS_PHRASES: Record<Operator, string> = {
  ">=": "is at least",
  "<=": "is at most",
  ">": "is above",
  "<": "is below",
  "==": "equals",
  "!=": "is not",
};
const FAIL_PHRASES: Record<Operator, string> = {
  ">=": "is below",
  "<=": "is above",
  ">": "is not above",
  "<": "is not below",
  "==": "is not",
  "!=": "equals",
};

type CaseMeanField = (typeof CASE_MEANS)[number];
const NO_POPULATION = "no trials in its population";

interface Threshold {
  op: Operator;
  value: number;
}

/** What a gate measured: `evidence` backs the value (e.g. " (13/16)"); `missing` explains a null. */
interface Measure {
  label: string;
  value: number | null;
  evidence: string;
  missing: string;
}

function isCaseMeanField(name: string): name is CaseMeanField {
  return CASE_MEANS.some((field) => field === name);
}

function isOperator(text: string): text is Operator {
  return OPERATORS.some((op) => op === text);
}

function fail(name: string, message: string): never {
  throw new InputError(`gates.${name}: ${message}`);
}

function measureRate(label: string, rate: Rate | undefined, missing = NO_POPULATION): Measure {
  const evidence =
    rate === undefined ? "" : ` (${formatCount(rate.numerator)}/${formatCount(rate.denominator)})`;
  return { label, value: rate?.value ?? null, evidence, missing };
}

function measureCaseMean(field: CaseMeanField, metrics: Metrics, k: number): Measure {
  const means = metrics[field];
  const mean = Object.hasOwn(means, String(k)) ? means[String(k)] : undefined;
  const measured = Object.keys(means).length;
  const lacking = (metrics.pass_k_short_cases ?? []).filter((c) => c.scored < k);
  const named = lacking
    .slice(0, 3)
    .map((c) => `case "${c.case_id}" has ${c.scored}`)
    .join(", ");
  const more = lacking.length > 3 ? ` and ${lacking.length - 3} more` : "";
  const why =
    lacking.length > 0
      ? `not measured: k=${k} needs every case to have ${k} scored trials, and ${named}${more} (errored trials do not count; measured k = 1..${measured})`
      : `${NO_POPULATION} (k=${k} needs cases with at least ${k} scored trials; measured k = 1..${measured})`;
  const evidence = mean === undefined ? "" : ` (mean over ${plural(mean.denominator, "case")})`;
  return { label: `${field} at k=${k}`, value: mean?.value ?? null, evidence, missing: why };
}

function measureRecall(metrics: Metrics, key: string): Measure {
  const recall = metrics.tool_recall_at_k;
  const rate = Object.hasOwn(recall, key) ? recall[key] : undefined;
  const measured = Object.keys(recall).join(", ") || "none";
  const missing = `${NO_POPULATION} (no exposed trials with k = ${key}; measured: ${measured})`;
  return measureRate(`tool_recall_at_k.${key}`, rate, missing);
}

/**
 * An adaptive run's rate, each case weighted once whatever its trials (its trials follow its
 * outcomes: passing cases get more, so the pooled rate leans their way): the mean of the cases'
 * own rates, with its interval over the cases.
 */
export type CaseWeighted = (name: string) => MeanEstimate | undefined;

function measureCaseWeighted(name: string, mean: MeanEstimate): Measure {
  const ci = mean.ci === null ? "" : `, ${formatDecimal(mean.ci[0])}–${formatDecimal(mean.ci[1])}`;
  return {
    label: `${name} (case-weighted: an adaptive run gives each case its own trials)`,
    value: mean.mean,
    evidence: ` (mean of ${plural(mean.cases, "case")}' own rates${ci})`,
    missing: NO_POPULATION,
  };
}

/** The value a string gate names; throws InputError on a name that is not a metric. */
function measureNamed(metrics: Metrics, name: string, weighted?: CaseWeighted): Measure {
  const byCase = isRateName(name) ? weighted?.(name) : undefined;
  if (byCase !== undefined) return measureCaseWeighted(name, byCase);
  if (isRateName(name)) return measureRate(name, metrics[name]);
  if (name === "consistency" || name === "mean_visible") {
    return { label: name, value: metrics[name], evidence: "", missing: NO_POPULATION };
  }
  if (name === "conversation_success") {
    return measureRate(
      name,
      metrics.conversations?.success,
      `${NO_POPULATION} (the run has no conversation case with a scored trial)`,
    );
  }
  if (isCallSetGate(name))
    return measureRate(
      name,
      metrics.call_sets?.[name],
      `${NO_POPULATION} (the run has no case with calls: and a scored trial)`,
    );
  const recall = RECALL_PATTERN.exec(name);
  if (recall !== null) return measureRecall(metrics, recall[1]);
  const mean = CASE_MEAN_PATTERN.exec(name);
  if (mean !== null && isCaseMeanField(mean[1]))
    return measureCaseMean(mean[1], metrics, Number(mean[2]));
  if (isCaseMeanField(name))
    fail(name, `expected {k, min} (e.g. {k: 3, min: 0.8}), or name the k: "${name}.3"`);
  return fail(name, `unknown metric "${name}"; known metrics: ${GATE_METRICS.join(", ")}`);
}

function parseThreshold(name: string, spec: string): Threshold {
  const match = SPEC_PATTERN.exec(spec.trim());
  const value = match === null ? NaN : Number(match[2]);
  if (match === null || !isOperator(match[1]) || !Number.isFinite(value)) {
    return fail(
      name,
      `expected "OP NUMBER" with OP one of ${OPERATORS.join(", ")} (e.g. ">= 0.9"), got "${spec}"`,
    );
  }
  return { op: match[1], value };
}

function judge(metric: string, spec: string, measure: Measure, threshold: Threshold): GateResult {
  const limit = String(threshold.value);
  if (measure.value === null) {
    return {
      name: metric,
      threshold: spec,
      value: null,
      passed: false,
      reason: `${measure.label}: ${measure.missing}`,
    };
  }
  const passed = COMPARE[threshold.op](measure.value, threshold.value);
  const phrase = (passed ? PASS_PHRASES : FAIL_PHRASES)[threshold.op];
  const reason = `${measure.label} ${formatDecimal(measure.value)}${measure.evidence} ${phrase} ${limit}`;
  return { name: metric, threshold: spec, value: measure.value, passed, reason };
}

function evaluateGate(
  metrics: Metrics,
  name: string,
  spec: GateSpec,
  weighted?: CaseWeighted,
): GateResult {
  if (typeof spec === "string") {
    const threshold = parseThreshold(name, spec);
    return judge(
      name,
      `${threshold.op} ${threshold.value}`,
      measureNamed(metrics, name, weighted),
      threshold,
    );
  }
  if (!isCaseMeanField(name)) {
    return fail(
      name,
      `{k, min} applies only to ${CASE_MEANS.join(" and ")}; write "OP NUMBER" (e.g. ">= 0.9")`,
    );
  }
  if (!Number.isInteger(spec.k) || spec.k < 1 || !Number.isFinite(spec.min)) {
    return fail(
      name,
      `expected k a positive integer and min a number, got {k: ${spec.k}, min: ${spec.min}}`,
    );
  }
  const threshold: Threshold = { op: ">=", value: spec.min };
  return judge(
    name,
    `>= ${spec.min} at k=${spec.k}`,
    measureCaseMean(name, metrics, spec.k),
    threshold,
  );
}

/**
 * Evaluate every gate against the metrics, sorted by metric name. Throws InputError (exit 2) on
 * an unknown metric or a malformed spec, before any result is returned.
 */
export function evaluateGates(
  metrics: Metrics,
  gates: Record<string, GateSpec>,
  weighted?: CaseWeighted,
): GateResult[] {
  return Object.keys(gates)
    .sort(compareText)
    .map((name) => evaluateGate(metrics, name, gates[name], weighted));
}
