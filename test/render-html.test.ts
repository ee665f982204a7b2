import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { buildHeatmap, PHANTOM_COLUMN } from "../src/report/confusion-heatmap.js";
import type { CaseExplanation, TrialView } from "../src/types/explain.js";
import { renderReport } from "../src/report/render.js";
import { renderHtml } from "../src/report/render-html.js";
import { embedJson, escapeHtml, html, joinHtml } from "../src/render/html/escape.js";
import { buildFixtureReport } from "./fixtures/report-fixture.js";

const HOSTILE = `</script><script>window.__pwned=1</script><img src=x onerror=alert(1)>`;

describe("the html tag", () => {
  it("escapes every interpolated string, in text and in attributes", () => {
    const value = `"'<b>&`;
    expect(html`<p title="${value}">${value}</p>`.text).toBe(
      '<p title="&quot;&#39;&lt;b&gt;&amp;">&quot;&#39;&lt;b&gt;&amp;</p>',
    );
    expect(escapeHtml("a<b")).toBe("a&lt;b");
  });

  it("passes SafeHtml through, flattens lists and drops null and false", () => {
    const inner = html`<i>${"<x>"}</i>`;
    expect(html`${[inner, "<y>", 3, null, false, undefined]}`.text).toBe(
      "<i>&lt;x&gt;</i>&lt;y&gt;3",
    );
    expect(joinHtml(["a", "<b>"], ", ").text).toBe("a, &lt;b&gt;");
  });

  it("cannot be fooled by an object that merely looks like SafeHtml", () => {
    const fake = JSON.parse('{"text": "<script>x</script>"}');
    expect(html`${fake}`.text).not.toContain("<script>");
  });
});

describe("embedJson", () => {
  it("leaves no < > & or line separators for the HTML parser, and parses back unchanged", () => {
    const value = { description: HOSTILE, odd: "a\u2028b & c <!-- d" };
    const text = embedJson(value).text;
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

function view(over: Partial<TrialView>): TrialView {
  return {
    trial: 0,
    error: null,
    selected: "get_order",
    phantom: false,
    acceptable: false,
    forbidden: false,
    arguments: {},
    argument_errors: [],
    argument_match: null,
    failed_stage: null,
    selection_error: null,
    response_text: null,
    extra_calls: [],
    ...over,
  };
}

function explanation(caseId: string, acceptable: string[], views: TrialView[]): CaseExplanation {
  return {
    case_id: caseId,
    goal: HOSTILE,
    phase: "support",
    family: null,
    tags: [],
    acceptable,
    forbidden: [],
    trials: views.length,
    scored: views.filter((v) => v.error === null).length,
    correct: 0,
    errored: 0,
    violated: 0,
    outcome: "",
    stage: null,
    registry: { tools: 4, controls: 3, acceptable_present: acceptable },
    exposure: {
      phase: "support",
      policy: null,
      exposed: 4,
      hidden: 0,
      groups: [],
      hidden_acceptable: [],
    },
    discovery: { k: null, exposed: 4, ranking: null },
    visible_order: [],
    ladder: [],
    trial_views: views,
    forbidden_hits: [],
    rival: null,
    fix: null,
  };
}

describe("buildHeatmap", () => {
  const report = buildFixtureReport();

  it("without records: the report's confusion matrix, abstention and no-call columns first", () => {
    const map = buildHeatmap(report, null);
    const total = map.rows.reduce((sum, row) => sum + row.total, 0);
    expect(total).toBe(report.metrics.confusion_matrix.reduce((sum, c) => sum + c.count, 0));
    expect(map.columns.slice(0, 2)).toEqual([
      { key: "no_applicable_tool", special: true },
      { key: "(no call)", special: true },
    ]);
    expect(map.rows.map((r) => [r.label, r.wrong, r.total])).toEqual([
      ["track_shipment", 3, 3],
      ["escalate_refund", 2, 2],
      ["search_orders", 2, 3],
      ["get_order", 0, 3],
    ]);
  });

  it("with records: phantom selections get their own column, errored trials are left out", () => {
    const map = buildHeatmap(report, [
      explanation(
        "a",
        ["get_order"],
        [
          view({ trial: 0 }),
          view({ trial: 1, selected: "ghost_tool", phantom: true }),
          view({ trial: 2, error: "HTTP 500", selected: null }),
        ],
      ),
      explanation("b", ["get_order"], [view({ selected: null })]),
    ]);
    const row = map.rows[0];
    expect(row.total).toBe(3);
    expect(row.wrong).toBe(2);
    expect(row.cells.get(PHANTOM_COLUMN)).toEqual({
      count: 1,
      cases: ["a"],
      names: ["ghost_tool"],
    });
    expect(row.cells.get("(no call)")).toEqual({ count: 1, cases: ["b"], names: [] });
    expect(map.columns.map((c) => c.key)).toEqual([
      "no_applicable_tool",
      "(no call)",
      PHANTOM_COLUMN,
      "get_order",
    ]);
  });
});

describe("renderHtml", () => {
  function hostileReport() {
    const report = buildFixtureReport();
    report.run.model = HOSTILE;
    report.cases[1].case_id = HOSTILE;
    report.cases[1].family = HOSTILE;
    report.errored[0].error = HOSTILE;
    report.metrics.confusion_matrix[0].selected = HOSTILE;
    return report;
  }

  it("is one self-contained document: no external URL, our two script blocks only", () => {
    const page = renderHtml(hostileReport(), {
      gates: [],
      explanations: [explanation(HOSTILE, ["search_orders"], [view({})])],
    });
    expect(page.startsWith("<!DOCTYPE html>")).toBe(true);
    expect(page).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect(page.match(/<script/g)).toHaveLength(2);
    expect(page.match(/<\/script>/g)).toHaveLength(2);
    expect(page).not.toContain("<img");
    expect(page).toContain("&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;");
  });

  it("allows only its own inline script, by hash, and no fetches", () => {
    const page = renderHtml(buildFixtureReport(), { gates: [], explanations: null });
    const csp = (
      /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(page)?.[1] ?? ""
    ).replace(/&#39;/g, "'");
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? "";
    const hash = createHash("sha256").update(script).digest("base64");
    expect(csp).toBe(
      `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
  });

  it("writes the funnel numbers from the report", () => {
    const report = buildFixtureReport();
    const page = renderHtml(report, { gates: [], explanations: null });
    const cell = (rung: string, field: string) =>
      new RegExp(`data-rung="${rung}"[\\s\\S]*?data-field="${field}">([^<]*)<`).exec(page)?.[1];
    expect([cell("coverage", "numerator"), cell("coverage", "denominator")]).toEqual(["8", "11"]);
    expect([cell("exposure", "numerator"), cell("exposure", "denominator")]).toEqual(["6", "8"]);
    expect([cell("selection", "numerator"), cell("selection", "denominator")]).toEqual(["4", "6"]);
    expect([cell("end-to-end", "numerator"), cell("end-to-end", "denominator")]).toEqual([
      "4",
      "11",
    ]);
  });

  it("offers no drill-down without explanations, and says how to get one", () => {
    const page = renderReport(buildFixtureReport(), "html", { color: false, gates: [] });
    expect(page).not.toContain('class="expand"');
    expect(page).toContain("the drill-down needs the run&#39;s records");
    expect(page).toContain('"cases":[]');
  });
});
