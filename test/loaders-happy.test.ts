import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { expandGlob } from "../src/cases/expand-globs.js";
import { loadCases } from "../src/cases/load-cases.js";
import { loadConfig } from "../src/config/load-config.js";

const PROJECT = fileURLToPath(new URL("./fixtures/loaders/project/", import.meta.url));
const at = (name: string): string => resolve(PROJECT, name);

describe("loadCases on a small project", () => {
  const config = loadConfig(null, {}, PROJECT);
  const cases = loadCases(config);

  it("expands cases/**/*.yaml in sorted path order, skipping dot directories", () => {
    expect(cases.map((c) => c.id)).toEqual([
      "refund-after-lookup",
      "order-status-exact-id",
      "refund-minimal",
    ]);
    expect(cases.map((c) => c.source)).toEqual([
      { file: at("cases/more/refunds.yaml"), line: 3 },
      { file: at("cases/orders.yaml"), line: 3 },
      { file: at("cases/orders.yaml"), line: 15 },
    ]);
  });

  it("keeps every written field", () => {
    const full = cases[1];
    expect(full.phase).toBe("support");
    expect(full.acceptable).toEqual(["get_order"]);
    expect(full.forbidden).toEqual(["refund_order"]);
    expect(full.family).toBe("exact-id-vs-free-text");
    expect(full.tags).toEqual(["read"]);
    expect(full.args).toEqual({ get_order: { order_id: "ord_123" } });
    expect(full.context).toEqual({ actor: "customer_42" });
    expect(full.must_see).toEqual(["get_order"]);
    expect(full.must_not_see).toEqual(["refund_order"]);
  });

  it("fills defaults for a minimal case", () => {
    const { registry, source, ...minimal } = cases[2];
    expect(minimal).toEqual({
      id: "refund-minimal",
      goal: "Refund order ord_9.",
      phase: null,
      acceptable: ["refund_order"],
      forbidden: [],
      family: null,
      tags: [],
      args: {},
      context: {},
      messages: [],
      must_see: [],
      must_not_see: [],
    });
    expect(source.line).toBe(15);
    expect(registry.snapshot).toBe("shop");
  });

  it("reads prior turns and argument patterns; an unregistered acceptable tool is not an error", () => {
    const lookup = cases[0];
    expect(lookup.acceptable).toEqual(["refund_order", "search_orders"]);
    expect(lookup.args).toEqual({ refund_order: { order_id: { pattern: "^ord_\\d+$" } } });
    expect(lookup.messages).toEqual([
      { role: "user", content: "Where is ord_7?" },
      {
        role: "assistant",
        tool_calls: [{ id: "call_1", name: "get_order", arguments: { order_id: "ord_7" } }],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"status": "delivered"}' },
    ]);
  });

  it("resolves each file's registry relative to the file and loads it once", () => {
    expect(cases[0].registry.file).toBe(at("registries/shop.yaml"));
    expect(cases[0].registry).toBe(cases[1].registry);
  });

  it("lets the configured registry override every file's own", () => {
    const overridden = loadConfig(null, { registry: at("registries/other.yaml") }, PROJECT);
    const snapshots = loadCases(overridden).map(
      (c) => `${c.registry.snapshot}@${c.registry.revision}`,
    );
    expect(snapshots).toEqual(["other@7", "other@7", "other@7"]);
  });

  it("takes explicit files instead of the configured globs", () => {
    expect(loadCases(config, [at("cases/more/*.yaml")]).map((c) => c.id)).toEqual([
      "refund-after-lookup",
    ]);
  });
});

describe("expandGlob", () => {
  it("matches *, ? and ** and returns sorted absolute paths", () => {
    expect(expandGlob("cases/*.yaml", PROJECT)).toEqual([at("cases/orders.yaml")]);
    expect(expandGlob("cases/**", PROJECT)).toEqual([
      at("cases/more/refunds.yaml"),
      at("cases/orders.yaml"),
    ]);
    expect(expandGlob("**/sh?p.yaml", PROJECT)).toEqual([at("registries/shop.yaml")]);
    expect(expandGlob("*/o*.yaml", PROJECT)).toEqual([
      at("cases/orders.yaml"),
      at("registries/other.yaml"),
    ]);
    expect(expandGlob(at("registries/shop.yaml"), "/")).toEqual([at("registries/shop.yaml")]);
    expect(expandGlob("cases/none/*.yaml", PROJECT)).toEqual([]);
  });
});
