import { describe, it, expect } from "vitest";
import {
  classifyRecord,
  classifyTrial,
  findArgumentsError,
  UNPARSEABLE_PREFIX,
  type TrialSets,
} from "../src/classify/classify-trial.js";
import type { TrialRecord } from "../src/types.js";

const CONTROLS = ["ask_user", "wait_for_event", "no_applicable_tool"];
const ALL = [...CONTROLS, "get_order", "find_orders", "cancel_order"];

/** A trial where every set holds every tool; override what the test is about. */
function sets(over: Partial<TrialSets>): TrialSets {
  return {
    acceptable: ["get_order"],
    forbidden: [],
    registry_names: ALL,
    exposed_names: ALL,
    retrieved_names: ALL,
    visible_order: ALL,
    selected: "get_order",
    arguments_error: null,
    ...over,
  };
}

describe("classifyTrial: the ladder", () => {
  it("is correct when the selected tool is acceptable", () => {
    expect(classifyTrial(sets({}))).toEqual({
      failed_stage: null,
      selection_error: null,
      violated: false,
    });
  });

  it("fails coverage when no acceptable tool is registered, whatever the model picked", () => {
    const registry = [...CONTROLS, "get_order"];
    for (const selected of ["refund_order", "get_order", null, "no_applicable_tool"]) {
      const result = classifyTrial(
        sets({ acceptable: ["refund_order"], registry_names: registry, selected }),
      );
      expect(result.failed_stage).toBe("coverage");
      expect(result.selection_error).toBeNull();
    }
  });

  it("fails exposure when registered but not exposed", () => {
    const exposed = [...CONTROLS, "find_orders"];
    const result = classifyTrial(
      sets({ exposed_names: exposed, retrieved_names: exposed, visible_order: exposed }),
    );
    expect(result).toEqual({ failed_stage: "exposure", selection_error: null, violated: false });
  });

  it("fails discovery when exposed but not retrieved", () => {
    const visible = [...CONTROLS, "find_orders"];
    const result = classifyTrial(
      sets({ retrieved_names: visible, visible_order: visible, selected: "find_orders" }),
    );
    expect(result).toEqual({ failed_stage: "discovery", selection_error: null, violated: false });
  });

  it("fails selection when visible but not chosen", () => {
    expect(classifyTrial(sets({ selected: "find_orders" }))).toEqual({
      failed_stage: "selection",
      selection_error: "wrong_tool",
      violated: false,
    });
  });

  it("accepts any of several acceptable tools, and needs only one of them at each rung", () => {
    const acceptable = ["get_order", "find_orders"];
    const partial = [...CONTROLS, "find_orders"];
    expect(classifyTrial(sets({ acceptable, selected: "find_orders" })).failed_stage).toBeNull();
    expect(classifyTrial(sets({ acceptable, selected: "get_order" })).failed_stage).toBeNull();
    const onlyOne = sets({
      acceptable,
      registry_names: partial,
      exposed_names: partial,
      retrieved_names: partial,
      visible_order: partial,
      selected: "find_orders",
    });
    expect(classifyTrial(onlyOne).failed_stage).toBeNull();
    expect(classifyTrial(sets({ acceptable, selected: "cancel_order" })).failed_stage).toBe(
      "selection",
    );
  });

  it("treats abstention-only cases through the controls", () => {
    const abstain = sets({ acceptable: ["no_applicable_tool"], selected: "no_applicable_tool" });
    expect(classifyTrial(abstain).failed_stage).toBeNull();
    const picked = classifyTrial(
      sets({ acceptable: ["no_applicable_tool"], selected: "get_order" }),
    );
    expect(picked).toEqual({
      failed_stage: "selection",
      selection_error: "wrong_tool",
      violated: false,
    });
    const noControls = ["get_order"];
    const unexposed = sets({
      acceptable: ["no_applicable_tool"],
      exposed_names: noControls,
      retrieved_names: noControls,
      visible_order: noControls,
      selected: "no_applicable_tool",
    });
    expect(classifyTrial(unexposed).failed_stage).toBe("exposure");
  });

  it("marks violations independently of the stage", () => {
    const forbidden = ["cancel_order"];
    expect(classifyTrial(sets({ forbidden, selected: "cancel_order" }))).toEqual({
      failed_stage: "selection",
      selection_error: "wrong_tool",
      violated: true,
    });
    const uncovered = classifyTrial(
      sets({ acceptable: ["refund_order"], forbidden, selected: "cancel_order" }),
    );
    expect(uncovered).toEqual({ failed_stage: "coverage", selection_error: null, violated: true });
    const hidden = [...CONTROLS, "cancel_order"];
    const unexposed = classifyTrial(
      sets({
        forbidden,
        exposed_names: hidden,
        retrieved_names: hidden,
        visible_order: hidden,
        selected: "cancel_order",
      }),
    );
    expect(unexposed).toEqual({ failed_stage: "exposure", selection_error: null, violated: true });
    expect(classifyTrial(sets({ forbidden, selected: null })).violated).toBe(false);
  });
});

describe("classifyTrial: selection error types", () => {
  const typeOf = (over: Partial<TrialSets>) => classifyTrial(sets(over)).selection_error;

  it("no_call when there was no tool call", () => {
    expect(typeOf({ selected: null })).toBe("no_call");
  });
  it("phantom_tool when the name was not visible, even if it exists", () => {
    expect(typeOf({ selected: "delete_everything" })).toBe("phantom_tool");
    const visible = [...CONTROLS, "get_order"];
    expect(
      typeOf({ retrieved_names: visible, visible_order: visible, selected: "cancel_order" }),
    ).toBe("phantom_tool");
  });
  it("abstained and asked for the controls", () => {
    expect(typeOf({ selected: "no_applicable_tool" })).toBe("abstained");
    expect(typeOf({ selected: "ask_user" })).toBe("asked");
  });
  it("malformed when the arguments did not parse, wrong_tool otherwise", () => {
    expect(typeOf({ selected: "find_orders", arguments_error: "Unexpected token" })).toBe(
      "malformed",
    );
    expect(typeOf({ selected: "find_orders" })).toBe("wrong_tool");
  });
  it("is null unless the failure is at selection", () => {
    expect(typeOf({ selected: "get_order", arguments_error: "Unexpected token" })).toBeNull();
    expect(typeOf({ acceptable: ["refund_order"], selected: null })).toBeNull();
  });
});

/** A stored record whose own classification fields claim "correct and violated". */
function toRecord(s: TrialSets, argument_errors: string[] | null): TrialRecord {
  const { arguments_error: _unused, ...names } = s;
  return {
    ...names,
    case_id: "c",
    trial: 0,
    phase: null,
    family: null,
    tags: [],
    retrieval_k: null,
    retrieval: null,
    arguments: null,
    argument_errors,
    argument_match: null,
    failed_stage: null,
    selection_error: null,
    violated: true,
    must_see: [],
    must_not_see: [],
    response_text: null,
    tool_calls: 1,
    usage: { input_tokens: null, output_tokens: null },
    latency_ms: 0,
    endpoint: "test",
    model: "test",
    request_hash: "h",
    error: null,
  };
}

describe("classifyRecord", () => {
  it("reads the parse failure from argument_errors and ignores stored classifications", () => {
    expect(findArgumentsError(null)).toBeNull();
    expect(findArgumentsError(["/order_id: must be string"])).toBeNull();
    expect(findArgumentsError([`${UNPARSEABLE_PREFIX}: Unexpected end`])).toBe(
      `${UNPARSEABLE_PREFIX}: Unexpected end`,
    );
    const record = toRecord(sets({ selected: "find_orders" }), [`${UNPARSEABLE_PREFIX}: bad`]);
    expect(classifyRecord(record)).toEqual({
      failed_stage: "selection",
      selection_error: "malformed",
      violated: false,
    });
  });
});
