import { describe, it, expect } from "vitest";
import { checkArguments, equalJson, matchArguments } from "../src/classify/check-arguments.js";
import type { JsonObject } from "../src/types.js";

const ORDER_SCHEMA: JsonObject = {
  type: "object",
  properties: { order_id: { type: "string" }, limit: { type: "integer", minimum: 1 } },
  required: ["order_id"],
  additionalProperties: false,
};

describe("checkArguments", () => {
  it("accepts valid arguments", () => {
    expect(checkArguments(ORDER_SCHEMA, { order_id: "ord_123" })).toEqual([]);
    expect(checkArguments(ORDER_SCHEMA, { order_id: "ord_123", limit: 3 })).toEqual([]);
  });

  it("names the path and the rule that failed", () => {
    expect(checkArguments(ORDER_SCHEMA, { order_id: 5 })).toEqual(["/order_id: must be string"]);
    expect(checkArguments(ORDER_SCHEMA, {})).toEqual([
      "(root): must have required property 'order_id'",
    ]);
    expect(checkArguments(ORDER_SCHEMA, { order_id: "x", extra: 1 })).toEqual([
      "(root): must NOT have additional properties 'extra'",
    ]);
    expect(checkArguments(ORDER_SCHEMA, null)).toEqual(["(root): must be object"]);
  });

  it("reports every error, not just the first", () => {
    expect(checkArguments(ORDER_SCHEMA, { limit: 0 })).toEqual([
      "(root): must have required property 'order_id'",
      "/limit: must be >= 1",
    ]);
  });

  it("speaks JSON Schema 2020-12 and reuses compiled schemas", () => {
    const tuple: JsonObject = {
      type: "array",
      prefixItems: [{ type: "string" }, { type: "number" }],
    };
    expect(checkArguments(tuple, ["a", 1])).toEqual([]);
    expect(checkArguments(tuple, [1, "a"])).toEqual(["/0: must be string", "/1: must be number"]);
    expect(checkArguments({ ...tuple }, [1, 1])).toEqual(["/0: must be string"]);
  });

  it("keeps schemas that share an $id apart", () => {
    const a: JsonObject = { $id: "https://example.com/args", type: "string" };
    const b: JsonObject = { $id: "https://example.com/args", type: "number" };
    expect(checkArguments(a, "x")).toEqual([]);
    expect(checkArguments(b, "x")).toEqual(["(root): must be number"]);
  });

  it("turns a schema that does not compile into one message instead of a crash", () => {
    const errors = checkArguments({ type: "nonsense" }, {});
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^\(schema\): invalid input_schema: /);
  });
});

describe("matchArguments", () => {
  it("compares exact values deeply, ignoring key order but not array order", () => {
    expect(matchArguments({ order_id: "ord_123" }, { order_id: "ord_123", extra: true })).toEqual({
      match: true,
      mismatches: [],
    });
    expect(
      matchArguments({ filter: { a: 1, b: [1, 2] } }, { filter: { b: [1, 2], a: 1 } }).match,
    ).toBe(true);
    expect(
      matchArguments({ filter: { a: 1, b: [1, 2] } }, { filter: { b: [2, 1], a: 1 } }),
    ).toEqual({
      match: false,
      mismatches: ['filter: expected {"a":1,"b":[1,2]}, got {"b":[2,1],"a":1}'],
    });
    expect(matchArguments({ qty: 1 }, { qty: "1" })).toEqual({
      match: false,
      mismatches: ['qty: expected 1, got "1"'],
    });
    expect(matchArguments({ note: null }, { note: null }).match).toBe(true);
  });

  it("tests patterns against the string form of the value", () => {
    expect(
      matchArguments({ email: { pattern: "@example\\.com$" } }, { email: "a@example.com" }).match,
    ).toBe(true);
    expect(
      matchArguments({ email: { pattern: "@example\\.com$" } }, { email: "a@example.org" }),
    ).toEqual({
      match: false,
      mismatches: ['email: "a@example.org" does not match /@example\\.com$/'],
    });
    expect(matchArguments({ qty: { pattern: "^[0-9]+$" } }, { qty: 12 }).match).toBe(true);
    expect(matchArguments({ qty: { pattern: "^[0-9]+$" } }, { qty: 1.5 }).match).toBe(false);
    expect(matchArguments({ flag: { pattern: "^true$" } }, { flag: true }).match).toBe(true);
    expect(matchArguments({ filter: { pattern: '"a":1' } }, { filter: { a: 1 } }).match).toBe(true);
  });

  it("counts a missing argument as a mismatch, also when the arguments are not an object", () => {
    expect(matchArguments({ order_id: "ord_123", note: null }, {})).toEqual({
      match: false,
      mismatches: ["order_id: missing", "note: missing"],
    });
    expect(matchArguments({ order_id: { pattern: ".*" } }, null)).toEqual({
      match: false,
      mismatches: ["order_id: missing"],
    });
  });

  it("reports an invalid pattern as a mismatch", () => {
    expect(matchArguments({ id: { pattern: "(" } }, { id: "x" })).toEqual({
      match: false,
      mismatches: ["id: invalid pattern /(/"],
    });
  });
});

describe("equalJson", () => {
  it("distinguishes arrays, objects and inherited names", () => {
    expect(equalJson([], {})).toBe(false);
    expect(equalJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(equalJson({ constructor: 1 }, { toString: 1 })).toBe(false);
    expect(equalJson({ a: [{ b: null }] }, { a: [{ b: null }] })).toBe(true);
  });
});
