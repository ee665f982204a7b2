import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config/load-config.js";
import { estimateInputTokens, withTokenEstimate } from "../src/endpoint/estimate-tokens.js";
import { createBaselineEndpoint } from "../src/endpoint/baseline.js";
import { renderTerminal } from "../src/report/render-terminal.js";
import { runEvaluation } from "../src/trial/evaluate.js";
import type { TrialRecord, TrialRequest } from "../src/types.js";

const out = mkdtempSync(join(tmpdir(), "route-eval-tokens-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const REQUEST: TrialRequest = {
  case_id: "c",
  trial: 0,
  system: "Route.",
  context: { actor: "cus_1" },
  messages: [],
  goal: "Where is ord_1?",
  tools: [
    { name: "get_order", description: "Look up an order.", input_schema: { type: "object" } },
  ],
  temperature: 0,
};

describe("the input-token estimate", () => {
  it("is ceil(characters / 4) of the JSON of system, context, messages, goal and tools", () => {
    const { system, context, messages, goal, tools } = REQUEST;
    const chars = JSON.stringify({ system, context, messages, goal, tools }).length;
    expect(estimateInputTokens(REQUEST)).toBe(Math.ceil(chars / 4));
    const more = {
      ...REQUEST,
      tools: [
        ...REQUEST.tools,
        { name: "search_orders", description: "Search orders by text.", input_schema: {} },
      ],
    };
    expect(estimateInputTokens(more)).toBeGreaterThan(estimateInputTokens(REQUEST));
  });

  it("counts exactly the characters of that JSON, whatever is absent, repeated or non-ASCII", () => {
    const tool = REQUEST.tools[0];
    const variants: TrialRequest[] = [
      { ...REQUEST, tools: [] },
      {
        ...REQUEST,
        system: undefined as unknown as string,
        context: undefined as unknown as TrialRequest["context"],
      },
      {
        ...REQUEST,
        system: undefined as unknown as string,
        context: undefined as unknown as TrialRequest["context"],
        messages: undefined as unknown as TrialRequest["messages"],
        goal: undefined as unknown as string,
      },
      {
        ...REQUEST,
        goal: "Où est ord_1 ? 🚚",
        tools: [
          tool,
          tool,
          {
            name: "x",
            description: 'é\n"',
            input_schema: { type: "object", properties: { a: { enum: ["ü"] } } },
          },
        ],
      },
    ];
    // Four lengths in a row per variant: a count off by any amount crosses a multiple of 4 in one of them.
    for (const variant of variants) {
      for (let pad = 0; pad < 4; pad++) {
        const request = {
          ...variant,
          case_id: "c",
          tools: [
            ...variant.tools,
            ...(pad === 0 ? [] : [{ name: "p".repeat(pad), description: "", input_schema: {} }]),
          ],
        };
        const { system, context, messages, goal, tools } = request;
        expect(estimateInputTokens(request)).toBe(
          Math.ceil(JSON.stringify({ system, context, messages, goal, tools }).length / 4),
        );
      }
    }
  });

  it("is added beside the endpoint's own count, never in its place", async () => {
    const outcome = await withTokenEstimate(createBaselineEndpoint()).call(REQUEST);
    expect(outcome.ok && outcome.response.usage).toEqual({
      input_tokens: null,
      output_tokens: null,
      input_tokens_estimated: estimateInputTokens(REQUEST),
    });
  });

  it("reaches every record and the report, which says the tokens are estimated", async () => {
    const config = loadConfig(
      resolve("test/fixtures/sweep/route-eval.yaml"),
      { out_dir: out, trials: 1 },
      process.cwd(),
    );
    const { runDir, report } = await runEvaluation(config, {
      place: { kind: "new", id: "tokens" },
      env: {},
      now: () => new Date(),
    });
    const records: TrialRecord[] = readFileSync(join(runDir, "records.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const r of records) {
      expect(r.usage.input_tokens).toBeNull();
      expect(r.usage.input_tokens_estimated).toBeGreaterThan(100);
    }
    const mean =
      records.reduce((s, r) => s + (r.usage.input_tokens_estimated ?? 0), 0) / records.length;
    expect(report.metrics.input_tokens).toEqual({ mean, reported: 0, estimated: records.length });
    expect(renderTerminal(report, { color: false })).toContain(
      `mean input tokens: ${mean.toFixed(1)} per trial, estimated as ceil(characters / 4) of the request for 6 of 6 trials (the endpoint reported none)`,
    );
  });
});
