import { describe, expect, it } from "vitest";
import { splitDescription } from "../src/registry/split-description.js";

describe("splitDescription splits only where the text makes it clear", () => {
  it("keeps a plain description whole as the purpose", () => {
    const text = "Search orders by free text. Use it when you have no id; it returns candidates.";
    expect(splitDescription(text)).toEqual({ purpose: text, use_when: [], avoid_when: [] });
  });

  it("reads route-eval's own rendering back, items split before a capital", () => {
    const text =
      "Look up one order.\nUse when: An order id is known.\nAvoid when: Only an email is known; use lookup_order_by_email.; The text is free-form; use search_orders.";
    expect(splitDescription(text)).toEqual({
      purpose: "Look up one order.",
      use_when: ["An order id is known."],
      avoid_when: [
        "Only an email is known; use lookup_order_by_email.",
        "The text is free-form; use search_orders.",
      ],
    });
  });

  it("takes bulleted sections and condition sentences", () => {
    const text = [
      "Refund a payment.",
      "",
      "Use this tool when:",
      "- a single charge is wrong",
      "* the payment id is known",
      "Do not use it for whole orders; use refund_order.",
    ].join("\n");
    expect(splitDescription(text)).toEqual({
      purpose: "Refund a payment.",
      use_when: ["a single charge is wrong", "the payment id is known"],
      avoid_when: ["Do not use it for whole orders; use refund_order."],
    });
  });

  it("keeps the text whole when a marker opens it (no purpose would remain)", () => {
    const text = "Use when: you need orders.";
    expect(splitDescription(text)).toEqual({ purpose: text, use_when: [], avoid_when: [] });
  });

  it("keeps a multi-line purpose, trimmed", () => {
    expect(splitDescription("  First line.\nSecond line.\nAvoid when: Never.  ")).toEqual({
      purpose: "First line.\nSecond line.",
      use_when: [],
      avoid_when: ["Never."],
    });
  });
});
