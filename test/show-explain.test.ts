import displayWidth from "string-width";
import { summariseScores } from "../src/run-files/record-form.js";
import { describe, expect, it } from "vitest";
import { expose } from "../src/exposure/expose.js";
import { listHidingRules } from "../src/exposure/hiding-rules.js";
import { buildCaseRows } from "../src/metrics/case-rows.js";
import { explainCase, type CaseEvidence } from "../src/show/explain-case.js";
import type { HiddenTool } from "../src/types/explain.js";
import { renderCaseExplanation } from "../src/show/render-case.js";
import type { Rival, Tool, TrialRecord } from "../src/types.js";
import { classified } from "./support/records.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];
const REGISTRY = [...CONTROLS, "get_order", "search_orders", "cancel_order", "refund_order"];
const EXPOSED = [...CONTROLS, "get_order", "search_orders"];
const VISIBLE = ["search_orders", "get_order", ...CONTROLS];

function record(over: Partial<TrialRecord>): TrialRecord {
  return classified({
    case_id: "c",
    trial: 0,
    goal: "Where is the blue teapot I ordered?",
    phase: "support",
    family: "lookup",
    tags: ["read"],
    acceptable: ["search_orders"],
    forbidden: ["cancel_order"],
    registry_names: REGISTRY,
    exposed_names: EXPOSED,
    retrieved_names: VISIBLE,
    visible_order: VISIBLE,
    retrieval_k: null,
    retrieval: null,
    must_see: [],
    must_not_see: [],
    selected: "search_orders",
    arguments: { query: "blue teapot" },
    argument_errors: [],
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

const HIDDEN: HiddenTool[] = [
  {
    name: "cancel_order",
    family: "orders",
    effect: "destructive",
    open_world: false,
    rules: ["effect"],
    acceptable: false,
  },
  {
    name: "refund_order",
    family: "payments",
    effect: "mutating",
    open_world: false,
    rules: ["family"],
    acceptable: false,
  },
];

function evidence(records: TrialRecord[], over: Partial<CaseEvidence> = {}): CaseEvidence {
  return {
    row: buildCaseRows(records)[0],
    records,
    policy: { families: ["orders"], max_effect: "mutating" },
    hidden: HIDDEN,
    descriptions: {
      search_orders: "Search orders by words.",
      get_order: "Look up one order by id.",
      ask_user: "Ask the user.",
    },
    rivals: [],
    ...over,
  };
}

describe("listHidingRules", () => {
  const tool: Tool = {
    name: "t",
    family: "payments",
    purpose: "",
    use_when: [],
    avoid_when: [],
    effect: "destructive",
    idempotent: false,
    open_world: true,
  };

  it("names every rule that hides a tool, in expose() order", () => {
    expect(
      listHidingRules(tool, { families: ["orders"], max_effect: "mutating", open_world: false }),
    ).toEqual(["family", "effect", "open_world"]);
    expect(listHidingRules(tool, { families: ["payments"], max_effect: "destructive" })).toEqual(
      [],
    );
    expect(listHidingRules(tool, { open_world: false })).toEqual(["open_world"]);
  });

  it("agrees with expose(), which reports the first rule", () => {
    expect(expose([tool], { families: ["orders"], max_effect: "mutating" }, []).hidden).toEqual({
      t: "family",
    });
    expect(expose([tool], { max_effect: "read_only", open_world: false }, []).hidden).toEqual({
      t: "effect",
    });
  });
});

describe("explainCase", () => {
  it("marks a rung mixed when only some trials fail it, and takes the rival from the case's own trials", () => {
    const x = explainCase(
      evidence([
        record({ trial: 0, selected: "get_order", arguments: {} }),
        record({ trial: 1 }),
        record({ trial: 2, selected: "get_order", arguments: {} }),
      ]),
    );
    expect(x.stage).toBe("selection");
    expect(x.ladder.map((s) => s.status)).toEqual(["passed", "passed", "passed", "mixed"]);
    expect(x.ladder[3].text).toBe("1 of 3 trials chose an acceptable tool; instead: get_order ×2");
    expect(x.rival).toEqual({
      expected: { name: "search_orders", description: "Search orders by words." },
      rival: { name: "get_order", description: "Look up one order by id." },
      count: 2,
      of: 3,
      scope: "case",
    });
    expect(x.fix?.action).toBe("sharpen one pair of descriptions");
    expect(x.fix?.detail[0]).toBe(
      "The model chose get_order instead of search_orders on 2 of 3 trials.",
    );
  });

  it("lists twenty hidden tools per group and counts the rest, always listing the acceptable ones", () => {
    const many: HiddenTool[] = Array.from({ length: 50 }, (_, i) => ({
      name: `admin_tool_${i}`,
      family: "admin",
      effect: "read_only",
      open_world: false,
      rules: ["family"],
      acceptable: i === 40,
    }));
    const x = explainCase(
      evidence([record({ acceptable: ["admin_tool_40"], selected: "get_order" })], {
        hidden: many,
      }),
    );
    const [group] = x.exposure.groups;
    expect(group.tools).toEqual([
      ...Array.from({ length: 20 }, (_, i) => `admin_tool_${i}`),
      "admin_tool_40",
    ]);
    expect(group.more).toBe(29);
    expect(renderCaseExplanation(x, { color: false }).replace(/\n\s+/g, " ")).toContain(
      "admin_tool_19, admin_tool_40* … and 29 more",
    );
  });

  it("groups hidden tools by rule and keeps the acceptable ones with every rule", () => {
    const x = explainCase(
      evidence([record({ acceptable: ["refund_order"], selected: "get_order" })], {
        hidden: HIDDEN.map((t) =>
          t.name === "refund_order" ? { ...t, acceptable: true, rules: ["family", "effect"] } : t,
        ),
      }),
    );
    expect(x.stage).toBe("exposure");
    expect(x.exposure.groups).toEqual([
      { rule: "family", value: "family payments", tools: ["refund_order"], more: 0 },
      { rule: "effect", value: "effect destructive", tools: ["cancel_order"], more: 0 },
    ]);
    expect(x.ladder[1].text).toBe(
      "phase support exposed 2 of 4 tools and hid 2; it hid every acceptable tool: refund_order (family + effect)",
    );
    expect(x.fix?.detail[0]).toBe(
      'refund_order is hidden in phase support by family and effect: add "payments" to phases.support.families, and raise phases.support.max_effect to mutating to admit it.',
    );
  });

  it("ranks the exposed tools by retriever score and points discovery failures at k", () => {
    const scored = { search_orders: 0.5, get_order: 2, ask_user: 9 };
    const shown = {
      retrieval_k: 1,
      retrieved_names: ["get_order", ...CONTROLS],
      visible_order: ["get_order", ...CONTROLS],
    };
    const retrieval = summariseScores(scored, { ...shown, acceptable: ["search_orders"] });
    const x = explainCase(evidence([record({ ...shown, retrieval, selected: "get_order" })]));
    expect(x.stage).toBe("discovery");
    expect(x.discovery.ranking).toEqual([
      { name: "get_order", score: 2, kept: true, acceptable: false, rank: 1 },
      { name: "search_orders", score: 0.5, kept: false, acceptable: true, rank: 2 },
    ]);
    expect(x.fix?.detail).toEqual([
      "search_orders ranked #2 of 2 for this goal (score 0.5); k=1 kept only the top 1.",
      "Raise k to at least 2, or put the goal's words in search_orders's purpose or use_when (goal word stems it lacks: blue, teapot).",
    ]);
  });

  it("keeps errored trials apart: listed, never scored, never a stage", () => {
    const x = explainCase(
      evidence([
        record({ trial: 0, error: "HTTP 500", selected: null }),
        record({ trial: 1, error: "timeout", selected: null }),
      ]),
    );
    expect(x.scored).toBe(0);
    expect(x.stage).toBeNull();
    expect(x.fix).toBeNull();
    expect(
      x.ladder.every(
        (s) => s.status === "not_reached" && s.text === "not reached: every trial errored",
      ),
    ).toBe(true);
    expect(x.trial_views.map((v) => v.error)).toEqual(["HTTP 500", "timeout"]);
  });

  it("spots phantom selections and forbidden hits, and types the fix by the selection error", () => {
    const x = explainCase(
      evidence([
        record({ trial: 0, selected: "cancel_order", arguments: {}, argument_errors: null }),
        record({ trial: 1, selected: "cancel_order", argument_errors: null }),
      ]),
    );
    expect(x.trial_views.map((v) => [v.phantom, v.forbidden, v.selection_error])).toEqual([
      [true, true, "phantom_tool"],
      [true, true, "phantom_tool"],
    ]);
    expect(x.forbidden_hits).toEqual([
      { trial: 0, tool: "cancel_order" },
      { trial: 1, tool: "cancel_order" },
    ]);
    expect(x.fix?.detail[0]).toBe(
      "The model called cancel_order, which was not visible (a phantom tool).",
    );
    const abstained = explainCase(evidence([record({ selected: "no_applicable_tool" })]));
    expect(abstained.fix?.detail[0]).toBe(
      "The model declined (no_applicable_tool) although search_orders applied.",
    );
    const noCall = explainCase(
      evidence([record({ selected: null, tool_calls: 0, response_text: "Sorry." })]),
    );
    expect(noCall.fix?.detail[0]).toBe("The model answered in text instead of calling a tool.");
  });

  it("falls back to the run-wide rival of the same expected label when the case itself never failed", () => {
    const rivals: Rival[] = [{ expected: "search_orders", rival: "get_order", count: 4, of: 9 }];
    const x = explainCase(evidence([record({})], { rivals }));
    expect(x.stage).toBeNull();
    expect(x.fix).toBeNull();
    expect(x.rival).toMatchObject({ rival: { name: "get_order" }, count: 4, of: 9, scope: "run" });
  });

  it("says it cannot tell why a tool was hidden when run.json has no definition for it", () => {
    const x = explainCase(
      evidence([record({ acceptable: ["refund_order"], selected: "get_order" })], {
        hidden: [
          {
            name: "refund_order",
            family: null,
            effect: null,
            open_world: null,
            rules: [],
            acceptable: true,
          },
        ],
      }),
    );
    expect(x.exposure.groups).toEqual([
      { rule: null, value: "reason unknown", tools: ["refund_order"], more: 0 },
    ]);
    expect(x.fix?.detail[0]).toBe(
      "refund_order is hidden in phase support, but run.json does not say why (no definition or policy).",
    );
  });

  it("explains a coverage gap as a tool to build, whatever the model picked", () => {
    const x = explainCase(
      evidence([record({ acceptable: ["translate_text"], selected: "search_orders" })]),
    );
    expect(x.stage).toBe("coverage");
    expect(x.ladder.map((s) => s.status)).toEqual([
      "failed",
      "not_reached",
      "not_reached",
      "not_reached",
    ]);
    expect(x.fix?.action).toBe("build a tool");
    expect(x.rival?.expected).toEqual({ name: "translate_text", description: null });
  });
});

describe("renderCaseExplanation", () => {
  it("strips terminal control sequences from registry, case and model strings", () => {
    const x = explainCase(
      evidence(
        [
          record({
            goal: "clear\u001b[2J screen\rnow",
            selected: "get_order",
            response_text: "\u001b]0;title\u0007hi",
          }),
        ],
        {
          descriptions: { get_order: "Look up\u001b[31m red", search_orders: "Search." },
        },
      ),
    );
    const text = renderCaseExplanation(x, { color: false });
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(text).toContain("clear\\u001b[2J screen now");
    expect(text).toContain("Look up\\u001b[31m red");
  });

  it("colours only when asked", () => {
    const x = explainCase(evidence([record({})]));
    expect(renderCaseExplanation(x, { color: false })).not.toContain("\u001b[");
    expect(renderCaseExplanation(x, { color: true })).toContain("\u001b[1mCase c\u001b[22m");
  });
});

describe("show --case with text in any script", () => {
  it("keeps the columns straight when descriptions and goals are CJK (display width, not UTF-16 units)", () => {
    const descriptions = {
      search_orders: "按商品名称、日期或自由文本搜索订单。当用户没有订单号时使用。",
      get_order: "根据确切的订单号返回一个订单的当前记录。用户只有名称或描述时不要使用。",
      ask_user: "Ask the user.",
    };
    const goal = "我上周买的蓝色茶壶在哪里？帮我查一下订单状态。";
    const x = explainCase(
      evidence(
        [
          record({ trial: 0, goal, selected: "get_order", arguments: {} }),
          record({ trial: 1, goal, selected: "get_order", arguments: {} }),
        ],
        { descriptions },
      ),
    );
    const text = renderCaseExplanation(x, { color: false, width: 120 });
    const lines = text.split("\n");
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(120);
    const sides = lines.filter((line) => line.includes(" │ "));
    expect(sides.length).toBeGreaterThan(2);
    const bar = (line: string) => displayWidth(line.slice(0, line.indexOf(" │ ")));
    expect(new Set(sides.map(bar)).size, sides.join("\n")).toBe(1);
    expect(text).toContain("茶壶");
  });
});
