import { maxOf } from "../text/extremes.js";
import { memberSet } from "../classify/name-sets.js";
import { computeBreakdowns } from "../metrics/breakdowns.js";
import { rowOfCase, withCaseRows } from "../metrics/case-rows.js";
import type { CaseTally } from "../metrics/case-tally.js";
import { tallyRecords, type AnsweredTokens, type RecordTally } from "../metrics/record-tally.js";
import { metricsOfCases } from "../metrics/compute-metrics.js";
import { evaluateGates } from "../gates/evaluate-gates.js";
import {
  REPORT_SCHEMA_VERSION,
  type CostEstimate,
  type Report,
  type RunMeta,
  type TrialRecord,
} from "../types.js";
import { compareText } from "../text/compare-text.js";
import { caseWeighted, summariseAdaptive } from "../metrics/adaptive.js";

/**
 * The whole report, from run metadata and trial records alone — no endpoint, no registry. The
 * run's gates are evaluated on its metrics unless `gates` is false (--no-gates).
 */
export function buildReport(
  meta: RunMeta,
  records: TrialRecord[],
  options: { gates?: boolean } = {},
): Report {
  return reportOfTally(meta, tallyRecords(records), { ...options, records: () => records });
}

/**
 * The whole report from records counted as they came (a run's, a records file's as it is read).
 * `records` reads them again: only a breakdown whose cases'
 * records disagree on its key (records merged from runs whose cases changed) needs them.
 */
export function reportOfTally(
  meta: RunMeta,
  tally: RecordTally,
  options: { gates?: boolean; records: () => TrialRecord[] },
): Report {
  // run.json's input hashes serve --resume; the report names the definitions and settings only.
  const { inputs: _inputs, ...run } = meta;
  const success = run.config.success ?? "selection";
  // Each settled tally read as it is (its counts through getters): no copy of a million cases.
  const cases: readonly CaseTally[] = tally.settledCases();
  const metrics = metricsOfCases(cases, success);
  const report: Omit<Report, "cases"> = {
    schema_version: REPORT_SCHEMA_VERSION,
    run,
    metrics,
    gates:
      options.gates === false
        ? []
        : evaluateGates(
            metrics,
            run.config.gates,
            meta.adaptive === undefined ? undefined : caseWeighted(cases, success),
          ),
    breakdowns: computeBreakdowns(options.records, cases, success, metrics),
    ...(meta.adaptive === undefined
      ? {}
      : {
          adaptive: summariseAdaptive(
            meta.adaptive,
            cases.map((c) => c.caseId),
            tally,
            success,
          ),
        }),
    errored: tally.errored(),
    exposure_assertions: checkExposureAssertions(cases),
    ...costOf(meta, tally.answered),
  };
  // Made from the settled tallies when read (report.json writes them), not held beside them.
  return withCaseRows(report, function* () {
    for (const c of cases) yield rowOfCase(c, success);
  });
}

/** must_see / must_not_see of each case against the exposed set of its first trial. */
function checkExposureAssertions(cases: readonly CaseTally[]): Report["exposure_assertions"] {
  const out: Report["exposure_assertions"] = [];
  for (const { first: r, caseId } of cases) {
    if (r.must_see.length === 0 && r.must_not_see.length === 0) continue;
    const exposed = memberSet(r.exposed_names);
    const failures = [
      ...r.must_see
        .filter((name) => !exposed.has(name))
        .map((name) => `must_see ${name}: not exposed in phase ${r.phase ?? "(none)"}`),
      ...r.must_not_see
        .filter((name) => exposed.has(name))
        .map((name) => `must_not_see ${name}: exposed in phase ${r.phase ?? "(none)"}`),
    ];
    if (failures.length > 0) out.push({ case_id: caseId, failures });
  }
  return out;
}

/**
 * Metadata for records that came without a run.json (written by another tool), derived from all
 * of them, so the order of the lines never matters: an endpoint or model the records disagree on
 * is "mixed: a ×n, b ×m"; trials is the most any case has; the retriever budget is the k most
 * records carry (records do not name their retriever: one with a k is taken as bm25).
 */
export function metaFromRecords(runId: string, records: RecordTally, toolVersion: string): RunMeta {
  const k = mostCommon(records.seen.k);
  return {
    run_id: runId,
    tool_version: toolVersion,
    started_at: "",
    finished_at: null,
    endpoint: describeAll(records.seen.endpoint),
    model: describeAll(records.seen.model),
    registries: [],
    definitions: {},
    config: {
      cases: [],
      phases: {},
      controls: [],
      discovery: k === null ? { retriever: "none" } : { retriever: "bm25", k: Number(k) },
      trials: maxOf(
        records.cases().map((c) => c.trials),
        0,
      ),
      concurrency: 1,
      temperature: 0,
      seed: 0,
      system_prompt: "",
      gates: {},
    },
  };
}

/** The one value all records share, else "mixed: a ×n, b ×m" (most first, then by name). */
function describeAll(values: ReadonlyMap<string, number>): string {
  const counts = byCount(values);
  if (counts.length === 0) return "unknown";
  if (counts.length === 1) return counts[0][0];
  return `mixed: ${counts.map(([value, n]) => `${value} ×${n}`).join(", ")}`;
}

function mostCommon(values: ReadonlyMap<string, number>): string | null {
  return byCount(values)[0]?.[0] ?? null;
}

function byCount(counts: ReadonlyMap<string, number>): [string, number][] {
  return [...counts].sort(([a, x], [b, y]) => y - x || compareText(a, b));
}

/** The estimated cost of every answered trial at the configured price of the run's model (none when unpriced). */
function costOf(meta: RunMeta, answered: AnsweredTokens): { cost?: CostEstimate } {
  const price = meta.config.prices?.[meta.model];
  if (price === undefined) return {};
  const { input, output, estimated, missing } = answered;
  const discount = meta.batch === true ? (price.batch_discount ?? 0) : 0;
  const usd =
    ((input * price.input_per_mtok + output * price.output_per_mtok) / 1_000_000) * (1 - discount);
  return {
    cost: {
      estimate: true,
      model: meta.model,
      usd,
      input_tokens: input,
      output_tokens: output,
      input_estimated: estimated,
      output_missing: missing,
      batch_discount: discount,
    },
  };
}
