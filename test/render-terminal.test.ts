import { describe, expect, it } from "vitest";
import { renderTerminal } from "../src/report/render-terminal.js";
import type { GateResult } from "../src/types.js";
import { renderMarkdown } from "../src/report/render-markdown.js";
import { buildFixtureReport, makeMetrics } from "./fixtures/report-fixture.js";

const ANSI = /\u001b\[[0-9;]*m/g;

/** The lines of the block that starts with `title` and ends at the next blank line. */
function sectionOf(output: string, title: string): string[] {
  const lines = output.split("\n");
  const start = lines.indexOf(title);
  expect(start, `section "${title}"`).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? undefined : end);
}

/** Table rows of a section as trimmed cells, keyed by their first cell. */
function rowsOf(output: string, title: string): Map<string, string[]> {
  const rows = sectionOf(output, title)
    .filter((line) => line.startsWith("│"))
    .map((line) =>
      line
        .split("│")
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  return new Map(rows.map((cells) => [cells[0], cells.slice(1)]));
}

describe("renderTerminal", () => {
  it("emits no ANSI codes without colour, even from hostile registry or model strings", () => {
    const report = buildFixtureReport();
    report.run.model = "evil\u001b[31mred\u001b[0m";
    report.errored[0].error = "boom\u001b[2J\nsecond line";
    const output = renderTerminal(report, { color: false });
    expect(output).not.toMatch(/\u001b/);
    expect(output).toContain("boom\\u001b[2J second line");
  });

  it("colours with ANSI when asked, and the layout is the same once the codes are removed", () => {
    const report = buildFixtureReport();
    const gates: GateResult[] = [
      { name: "violation_rate", threshold: "== 0", value: 0.18, passed: false, reason: "x" },
    ];
    const colored = renderTerminal(report, { color: true, gates });
    expect(colored).toMatch(ANSI);
    expect(colored.replace(ANSI, "")).toBe(renderTerminal(report, { color: false, gates }));
  });

  it("shows the ladder as a funnel with population, passed, rate and Wilson interval", () => {
    const output = renderTerminal(buildFixtureReport(), { color: false });
    const rows = rowsOf(output, "Routing ladder");
    expect([...rows.keys()]).toEqual([
      "stage",
      "coverage",
      "exposure",
      "discovery",
      "selection",
      "end-to-end",
    ]);
    expect(rows.get("stage")).toEqual(["population", "passed", "rate", "95% CI"]);
    // 8/11, 6/8, 6/6, 4/6, 4/11 with 95% Wilson intervals computed by hand (z = 1.96).
    expect(rows.get("coverage")).toEqual(["11", "8", "72.7%", "[43.4%, 90.3%]"]);
    expect(rows.get("exposure")).toEqual(["8", "6", "75.0%", "[40.9%, 92.9%]"]);
    expect(rows.get("discovery")).toEqual(["6", "6", "100.0%", "[61.0%, 100.0%]"]);
    expect(rows.get("selection")).toEqual(["6", "4", "66.7%", "[30.0%, 90.3%]"]);
    expect(rows.get("end-to-end")).toEqual(["11", "4", "36.4%", "[15.2%, 64.6%]"]);
  });

  it("shows the failure profile as counts and shares of the 7 failures, and the selection error types", () => {
    const output = renderTerminal(buildFixtureReport(), { color: false });
    const profile = rowsOf(output, "Failure profile");
    expect(profile.get("coverage")?.slice(0, 2)).toEqual(["3", "42.9%"]);
    expect(profile.get("exposure")?.slice(0, 2)).toEqual(["2", "28.6%"]);
    expect(profile.get("discovery")?.slice(0, 2)).toEqual(["0", "0.0%"]);
    expect(profile.get("selection")?.slice(0, 2)).toEqual(["2", "28.6%"]);
    const types = rowsOf(output, "Selection failures by type");
    expect(types.get("wrong_tool")?.slice(0, 2)).toEqual(["2", "100.0%"]);
    expect(types.get("phantom_tool")?.slice(0, 2)).toEqual(["0", "0.0%"]);
    expect([...types.keys()]).toHaveLength(7);
  });

  it("shows confusions, other rates with — for an empty population, pass^k and consistency", () => {
    const output = renderTerminal(buildFixtureReport(), { color: false });
    expect(rowsOf(output, "Top selection confusions").get("search_orders")).toEqual([
      "→",
      "get_order",
      "2",
    ]);
    const rates = rowsOf(output, "Other rates");
    expect(rates.get("abstention accuracy")).toEqual(["0", "0", "—", "—"]);
    expect(rates.get("violation rate")).toEqual(["11", "2", "18.2%", "[5.1%, 47.7%]"]);
    expect(rates.get("argument validity")).toEqual(["8", "7", "87.5%", "[52.9%, 97.8%]"]);
    expect(rates.get("discovery rate (k=all)")).toEqual(["6", "6", "100.0%", "[61.0%, 100.0%]"]);
    expect(output).toContain(
      "mean visible set size: 7.0 ordinary tools per trial (controls apart)",
    );
    const reliability = rowsOf(output, "Reliability over trials");
    // k as rows: pass^k and pass@k over the same cases at every k.
    expect(reliability.get("k")).toEqual([
      "cases",
      "pass^k (all k succeed)",
      "pass@k (any of k succeeds)",
    ]);
    // Each a mean of per-case estimates, with its sum over the cases and its interval.
    expect(reliability.get("k=1")).toEqual([
      "4",
      "33.3% (1.33/4) [7.5%, 75.5%]",
      "33.3% (1.33/4) [7.5%, 75.5%]",
    ]);
    expect(reliability.get("k=2")).toEqual([
      "4",
      "25.0% (1/4) [4.6%, 69.9%]",
      "41.7% (1.67/4) [11.0%, 80.5%]",
    ]);
    expect(reliability.get("k=3")).toEqual([
      "3",
      "33.3% (1/3) [6.1%, 79.2%]",
      "66.7% (2/3) [20.8%, 93.9%]",
    ]);
    expect(output).toContain("consistency 91.7%");
    const unstable = rowsOf(output, "Consistency");
    expect(unstable.get("order-status-free-text")).toEqual([
      "get_order",
      "2/3",
      "get_order ×2, search_orders ×1",
    ]);
  });

  it("shows the header, errored trials and failing exposure assertions", () => {
    const output = renderTerminal(buildFixtureReport(), { color: false });
    const header = output.split("\n")[0];
    for (const part of [
      "2026-11-30T12-00-00Z-abc123",
      "openai/gpt-4.1-mini",
      "commerce@2026-11-29.1",
      "4 cases × 3 trials",
      "no retriever",
    ]) {
      expect(header).toContain(part);
    }
    expect(output).toContain("1 of 12 trials errored");
    expect(rowsOf(output, "Errored trials").get("refund-needs-approval")).toEqual([
      "0",
      "HTTP 503 Service Unavailable after 3 retries",
    ]);
    expect(rowsOf(output, "Failing exposure assertions").get("refund-needs-approval")).toEqual([
      "must_see escalate_refund: not exposed in phase support",
    ]);
  });

  it("names the retriever and k when there is one", () => {
    const report = buildFixtureReport();
    report.run.config.discovery = { retriever: "bm25", k: 5 };
    expect(renderTerminal(report, { color: false }).split("\n")[0]).toContain(
      "retriever bm25, k=5",
    );
  });

  it("caps long lists: 10 confusions, 5 errored trials", () => {
    const report = buildFixtureReport();
    report.metrics.selection_confusions = Array.from({ length: 12 }, (_, i) => ({
      acceptable: `tool_${i}`,
      selected: "x",
      count: 20 - i,
    }));
    report.errored = Array.from({ length: 7 }, (_, i) => ({
      case_id: `case-${i}`,
      trial: i,
      error: "timeout",
    }));
    const output = renderTerminal(report, { color: false });
    const confusions = rowsOf(output, "Top selection confusions");
    expect(confusions.size).toBe(11); // header + 10
    expect(confusions.has("tool_9") && !confusions.has("tool_10")).toBe(true);
    expect(sectionOf(output, "Top selection confusions")).toContain("… and 2 more");
    expect(rowsOf(output, "Errored trials").size).toBe(6); // header + 5
    expect(sectionOf(output, "Errored trials")).toContain("… and 2 more");
  });

  it("shows gates only when given, with ✓ / ✗ and the reason", () => {
    const report = buildFixtureReport();
    expect(renderTerminal(report, { color: false })).not.toContain("Gates");
    const gates: GateResult[] = [
      {
        name: "selection_accuracy",
        threshold: ">= 0.9",
        value: 4 / 6,
        passed: false,
        reason: "selection_accuracy 0.667 (4/6) is below 0.9",
      },
      {
        name: "violation_rate",
        threshold: "<= 0.5",
        value: 2 / 11,
        passed: true,
        reason: "violation_rate 0.182 (2/11) is at most 0.5",
      },
    ];
    const output = renderTerminal(report, { color: false, gates });
    const rows = rowsOf(output, "Gates");
    expect(rows.get("✗")).toEqual([
      "selection_accuracy >= 0.9",
      "selection_accuracy 0.667 (4/6) is below 0.9",
    ]);
    expect(rows.get("✓")).toEqual([
      "violation_rate <= 0.5",
      "violation_rate 0.182 (2/11) is at most 0.5",
    ]);
    expect(output).toContain("1 of 2 gates passed");
  });

  it("is deterministic and ends with a newline", () => {
    const first = renderTerminal(buildFixtureReport(), { color: false });
    expect(renderTerminal(buildFixtureReport(), { color: false })).toBe(first);
    expect(first.endsWith("\n")).toBe(true);
    expect(first.endsWith("\n\n")).toBe(false);
  });

  it("renders a run with no trials: every rate is —", () => {
    const report = buildFixtureReport();
    report.metrics = makeMetrics({});
    report.breakdowns = { family: {}, tag: {}, phase: {} };
    report.cases = [];
    report.errored = [];
    report.exposure_assertions = [];
    const output = renderTerminal(report, { color: false });
    expect(rowsOf(output, "Routing ladder").get("coverage")).toEqual(["0", "0", "—", "—"]);
    expect(output).toContain("Reliability over trials\nno scored trials");
    expect(output).not.toContain("Failing exposure assertions");
    expect(renderMarkdown(report)).toContain("### Failing cases\n\nnone");
  });
});
