import { describe, expect, it } from "vitest";
import { inertMarkdown } from "../src/text/inert.js";
import { renderMarkdown } from "../src/report/render-markdown.js";
import type { GateResult } from "../src/types.js";
import { buildFixtureReport } from "./fixtures/report-fixture.js";

/** Cell separators of a table line: pipes not escaped with a backslash. */
function countSeparators(line: string): number {
  return (line.match(/(?<!\\)\|/g) ?? []).length;
}

/** Every table: consecutive lines starting with "|". */
function tablesOf(markdown: string): string[][] {
  const tables: string[][] = [];
  let current: string[] = [];
  for (const line of markdown.split("\n")) {
    if (line.startsWith("|")) current.push(line);
    else if (current.length > 0) {
      tables.push(current);
      current = [];
    }
  }
  if (current.length > 0) tables.push(current);
  return tables;
}

function hostileReport() {
  const report = buildFixtureReport();
  report.run.model = "<script>alert(1)</script>";
  report.cases[1].case_id = "free|text";
  report.cases[1].family = "a & b";
  report.errored[0].error = "line one\nline <two>";
  report.exposure_assertions[0].failures = ["must_see x|y: not exposed", "second\nline"];
  return report;
}

describe("inertMarkdown", () => {
  it("HTML-escapes <, > and &, escapes pipes and turns newlines into <br>", () => {
    expect(inertMarkdown("a|b <script>&\nc\r\nd")).toBe("a\\|b &lt;script&gt;&amp;<br>c<br>d");
  });
});

describe("renderMarkdown", () => {
  it("escapes registry, case and model strings so they cannot break tables or inject HTML", () => {
    const markdown = renderMarkdown(hostileReport());
    expect(markdown).not.toContain("<script>");
    expect(markdown).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markdown).toContain("| free\\|text | a &amp; b | search_orders |");
    expect(markdown).toContain("| must_see x\\|y: not exposed; second<br>line |");
    expect(markdown).not.toMatch(/line one\n/);
  });

  it("keeps every table rectangular, even with hostile strings", () => {
    const tables = tablesOf(renderMarkdown(hostileReport()));
    expect(tables.length).toBeGreaterThanOrEqual(12);
    for (const table of tables) {
      const width = countSeparators(table[0]);
      expect(table[1]).toMatch(/^\|( ---:? \|)+$/);
      for (const line of table) expect(countSeparators(line), line).toBe(width);
    }
  });

  it("renders the funnel with the fixture's numbers", () => {
    const markdown = renderMarkdown(buildFixtureReport());
    expect(markdown).toContain(
      "| stage | population | passed | rate | 95% CI |\n| --- | ---: | ---: | ---: | --- |",
    );
    expect(markdown).toContain("| coverage | 11 | 8 | 72.7% | [43.4%, 90.3%] |");
    expect(markdown).toContain("| selection | 6 | 4 | 66.7% | [30.0%, 90.3%] |");
    expect(markdown).toContain("| end-to-end | 11 | 4 | 36.4% | [15.2%, 64.6%] |");
    expect(markdown).toContain("| abstention accuracy | 0 | 0 | — | — |");
    expect(markdown).toContain(
      "| k | cases | pass^k (all k succeed) | pass@k (any of k succeeds) |",
    );
    expect(markdown).toContain(
      "| k=2 | 4 | 25.0% (1/4) [4.6%, 69.9%] | 41.7% (1.67/4) [11.0%, 80.5%] |",
    );
  });

  it("lists failing cases (not passing ones) with family, acceptable, selections and stages", () => {
    const markdown = renderMarkdown(buildFixtureReport());
    expect(markdown).toContain("3 of 4 cases had a failing trial");
    expect(markdown).toContain(
      "| order-status-free-text | exact-id-vs-free-text | search_orders | get_order ×2, search_orders ×1 | selection ×2, correct ×1 |",
    );
    expect(markdown).toContain(
      "| refund-needs-approval | policy-forbids | escalate_refund | refund_order ×2 | exposure ×2, errored ×1 |",
    );
    expect(markdown).toContain(
      "| track-shipment | tool-available-vs-absent | track_shipment | no_applicable_tool ×3 | coverage ×3 |",
    );
    expect(markdown).not.toContain("| order-status-exact-id |");
  });

  it("breaks selection and end-to-end accuracy down by family and phase with n", () => {
    const markdown = renderMarkdown(buildFixtureReport());
    expect(markdown).toContain("### By family");
    expect(markdown).toContain("| exact-id-vs-free-text | 6 | 66.7% (4/6) | 66.7% (4/6) |");
    expect(markdown).toContain("| policy-forbids | 2 | — (0/0) | 0.0% (0/2) |");
    expect(markdown).toContain("### By phase");
    expect(markdown).toContain("| support | 11 | 66.7% (4/6) | 36.4% (4/11) |");
  });

  it("puts gates first when given, HTML-escaping the operator", () => {
    const gates: GateResult[] = [
      {
        name: "selection_accuracy",
        threshold: ">= 0.9",
        value: 4 / 6,
        passed: false,
        reason: "selection_accuracy 0.667 (4/6) is below 0.9",
      },
    ];
    const markdown = renderMarkdown(buildFixtureReport(), { gates });
    expect(markdown).toContain(
      "| ✗ | selection_accuracy &gt;= 0.9 | selection_accuracy 0.667 (4/6) is below 0.9 |",
    );
    expect(markdown.indexOf("### Gates")).toBeLessThan(markdown.indexOf("### Routing ladder"));
    expect(renderMarkdown(buildFixtureReport())).not.toContain("### Gates");
  });

  it("is deterministic and ends with a single newline", () => {
    const markdown = renderMarkdown(buildFixtureReport());
    expect(renderMarkdown(buildFixtureReport())).toBe(markdown);
    expect(markdown.endsWith("|\n")).toBe(true);
  });
});
