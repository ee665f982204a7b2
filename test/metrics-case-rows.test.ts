import { describe, it, expect } from "vitest";
import { computeBreakdowns } from "../src/metrics/breakdowns.js";
import { buildCaseRows, eachCaseRow } from "../src/metrics/case-rows.js";
import { tallyCases, tallyRecords } from "../src/metrics/record-tally.js";
import { buildReport, metaFromRecords } from "../src/report/build-report.js";
import { computeMetrics } from "../src/metrics/compute-metrics.js";
import type { TrialRecord } from "../src/types.js";
import { classified } from "./support/records.js";

const ALL = ["ask_user", "wait_for_event", "no_applicable_tool", "get_order", "cancel_order"];

function record(over: Partial<TrialRecord>): TrialRecord {
  return classified({
    case_id: "x",
    trial: 0,
    phase: "support",
    family: "exact-id",
    tags: ["read"],
    acceptable: ["get_order"],
    forbidden: ["cancel_order"],
    registry_names: ALL,
    exposed_names: ALL,
    retrieved_names: ALL,
    visible_order: ALL,
    retrieval_k: null,
    retrieval: null,
    must_see: [],
    must_not_see: [],
    selected: "get_order",
    arguments: {},
    argument_errors: null,
    argument_match: null,
    failed_stage: null,
    selection_error: null,
    violated: false,
    response_text: null,
    tool_calls: 1,
    usage: { input_tokens: null, output_tokens: null },
    latency_ms: 0,
    endpoint: "test",
    model: "test",
    request_hash: "h",
    error: null,
    ...over,
  });
}

describe("buildCaseRows", () => {
  const rows = buildCaseRows([
    record({ case_id: "z", error: "HTTP 500" }),
    record({ case_id: "y", trial: 1, selected: "cancel_order", tags: ["later"] }),
    record({ case_id: "x", trial: 2 }),
    record({ case_id: "x", trial: 1, error: "timeout", selected: null }),
    record({ case_id: "y", trial: 0, family: null, phase: null, tags: [] }),
    record({ case_id: "x", trial: 0 }),
  ]);

  it("sorts rows by case id", () => {
    expect(rows.map((row) => row.case_id)).toEqual(["x", "y", "z"]);
  });

  it("passes a case whose scored trials are all correct, errored trials aside", () => {
    expect(rows[0]).toEqual({
      case_id: "x",
      family: "exact-id",
      tags: ["read"],
      phase: "support",
      acceptable: ["get_order"],
      forbidden: ["cancel_order"],
      trials: 3,
      errored: 1,
      correct: 2,
      violated: 0,
      stages: { correct: 2 },
      selections: { get_order: 2 },
      passed: true,
    });
  });

  it("fails a case with a wrong trial, counting stages in ladder order and violations", () => {
    expect(rows[1]).toMatchObject({
      family: null,
      phase: null,
      tags: [],
      trials: 2,
      errored: 0,
      correct: 1,
      violated: 1,
      passed: false,
      selections: { cancel_order: 1, get_order: 1 },
    });
    expect(Object.entries(rows[1].stages)).toEqual([
      ["selection", 1],
      ["correct", 1],
    ]);
  });

  it("does not pass a case with no scored trial", () => {
    expect(rows[2]).toMatchObject({
      trials: 1,
      errored: 1,
      correct: 0,
      stages: {},
      selections: {},
      passed: false,
    });
  });
});

describe("computeBreakdowns", () => {
  const records = [
    record({ case_id: "a", family: "f2", tags: ["read", "write"], phase: "support" }),
    record({ case_id: "b", family: null, tags: ["read"], phase: null, selected: "cancel_order" }),
    record({ case_id: "c", family: "f1", tags: [], phase: "admin", error: "HTTP 500" }),
  ];
  const breakdowns = computeBreakdowns(
    () => records,
    tallyCases(records),
    "selection",
    computeMetrics(records),
  );

  it("keys slices in sorted order with (none) for missing family or phase", () => {
    expect(Object.keys(breakdowns.family)).toEqual(["(none)", "f1", "f2"]);
    expect(Object.keys(breakdowns.tag)).toEqual(["read", "write"]);
    expect(Object.keys(breakdowns.phase)).toEqual(["(none)", "admin", "support"]);
  });

  it("computes the full metrics of each slice", () => {
    expect(breakdowns.tag.read.trials).toBe(2);
    expect(breakdowns.tag.read.end_to_end_accuracy.value).toBe(0.5);
    expect(breakdowns.tag.write.end_to_end_accuracy.value).toBe(1);
    expect(breakdowns.family["(none)"].violation_rate.value).toBe(1);
    expect(breakdowns.family.f1).toMatchObject({ trials: 1, errored: 1, scored: 0 });
    expect(breakdowns.phase.admin.end_to_end_accuracy.value).toBeNull();
  });

  it("a slice equal to the whole run is the run's metrics (reused, not recomputed), equal to computing it", () => {
    const whole = computeMetrics(records);
    const one = records.map((r) => ({ ...r, family: "only" }));
    const oneWhole = computeMetrics(one);
    const reused = computeBreakdowns(() => one, tallyCases(one), "selection", oneWhole);
    expect(reused.family.only).toBe(oneWhole);
    expect(reused.family.only).toEqual(computeMetrics(one.slice()));
    expect(
      computeBreakdowns(() => records, tallyCases(records), "selection", whole).family.f2,
    ).not.toBe(whole);
  });
});

describe("a report's case rows", () => {
  const records = [
    record({ case_id: "b", selected: "cancel_order" }),
    record({ case_id: "a" }),
    record({ case_id: "a", trial: 1, selected: "ask_user" }),
  ];
  const meta = metaFromRecords("r", tallyRecords(records), "0");

  it("are made when read: one list while a reader holds it, the rows of the records", () => {
    const report = buildReport(meta, records, { gates: false });
    // One at a time (report.json is written so), before any list is made.
    const streamed = eachCaseRow(report);
    expect(Array.isArray(streamed)).toBe(false);
    expect([...streamed]).toEqual(buildCaseRows(records));
    const held = report.cases;
    expect(eachCaseRow(report)).toBe(held);
    expect(report.cases).toBe(held);
    expect(held).toEqual(buildCaseRows(records));
    expect(JSON.parse(JSON.stringify(report)).cases).toEqual(held);
    expect(Object.keys(report)).toContain("cases");
  });
});
