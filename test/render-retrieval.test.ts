import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../src/report/render-markdown.js";
import { renderTerminal } from "../src/report/render-terminal.js";
import { buildFixtureReport, rate } from "./fixtures/report-fixture.js";

describe("retrieval quality and input tokens in the report renderings", () => {
  it("shows no retrieval section and no token line when the run had neither", () => {
    const report = buildFixtureReport();
    const terminal = renderTerminal(report, { color: false });
    expect(terminal).not.toContain("Retrieval quality");
    expect(terminal).not.toContain("mean input tokens");
    expect(renderMarkdown(report)).not.toContain("Retrieval quality");
  });

  // Wilson by hand (z = 1.96, n = 4): 3/4 → [30.1%, 95.4%]; 2.5/4 → centre 0.5638 ± 0.3443; 3.2/4 → 0.6530 ± 0.3162.
  it("adds recall@k, MRR and nDCG@k with their trials and intervals, in the terminal and in Markdown", () => {
    const report = buildFixtureReport();
    report.metrics.retrieval = {
      recall_at_k: rate(3, 4),
      mrr: rate(2.5, 4),
      ndcg_at_k: rate(3.2, 4),
    };
    const terminal = renderTerminal(report, { color: false });
    const rows = terminal
      .split("\n")
      .filter((l) => /^│ retriever (recall@k|MRR|nDCG@k) /.test(l))
      .map((l) =>
        l
          .split("│")
          .slice(1, -1)
          .map((c) => c.trim()),
      );
    expect(rows).toEqual([
      ["retriever recall@k", "4", "75.0%", "[30.1%, 95.4%]"],
      ["retriever MRR", "4", "62.5%", "[21.9%, 90.8%]"],
      ["retriever nDCG@k", "4", "80.0%", "[33.7%, 96.9%]"],
    ]);
    const markdown = renderMarkdown(report);
    expect(markdown).toContain("### Retrieval quality");
    expect(markdown).toContain("| retriever MRR | 4 | 62.5% | [21.9%, 90.8%] |");
  });

  it("says which input tokens are estimated and which the endpoint reported", () => {
    const report = buildFixtureReport();
    report.metrics.input_tokens = { mean: 1234.56, reported: 0, estimated: 11 };
    expect(renderTerminal(report, { color: false })).toContain(
      "mean input tokens: 1234.6 per trial, estimated as ceil(characters / 4) of the request for 11 of 11 trials (the endpoint reported none)",
    );
    report.metrics.input_tokens = { mean: 900, reported: 11, estimated: 0 };
    expect(renderMarkdown(report)).toContain(
      "mean input tokens: 900.0 per trial, reported by the endpoint for all 11 trials",
    );
  });
});
