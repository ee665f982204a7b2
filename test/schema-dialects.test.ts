/**
 * Every JSON Schema dialect a server may declare is read as that dialect, and patterns from
 * outside are matched in linear time.
 */
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkArguments, matchArguments } from "../src/classify/check-arguments.js";
import { loadRegistry } from "../src/registry/load-registry.js";
import { runCli, writeFiles } from "./support/cli.js";

const MIXED = resolve("test/fixtures/dialects/mixed.registry.yaml");

describe("JSON Schema dialects", () => {
  it("a registry mixing draft-04, draft-07, 2019-09 and 2020-12 loads, and each tool's arguments are checked in its own dialect", () => {
    const registry = loadRegistry(MIXED, process.cwd());
    expect(registry.tools.map((t) => t.name)).toEqual([
      "set_count_d4",
      "set_count_d7",
      "set_count_2019",
      "set_count",
    ]);
    for (const tool of registry.tools) {
      const schema = tool.input_schema ?? {};
      expect(checkArguments(schema, { count: 6 }), tool.name).toEqual([]);
      expect(checkArguments(schema, { count: 5 }).length, tool.name).toBeGreaterThan(0);
    }
  });

  it("lints without an internal error (draft-07's $schema used to exit 4)", async () => {
    const result = await runCli(["lint", MIXED]);
    expect(result.stderr).toBe("");
    expect(result.code).toBeLessThanOrEqual(1);
    expect(result.stdout).toContain("4 tools in 1 registry");
  });

  it("runs: cases on the mixed registry go through the whole pipeline", async () => {
    const dir = writeFiles({
      "c.yaml": `registry: ${MIXED}\ncases:\n  - {id: c, goal: Set the count to 6., acceptable: [set_count_d4, set_count_d7, set_count_2019, set_count]}\n`,
    });
    const result = await runCli(
      [
        "run",
        "--cases",
        join(dir, "c.yaml"),
        "--out",
        join(dir, "out"),
        "--no-gates",
        "--no-step-summary",
        "--no-progress",
        "-f",
        "json",
      ],
      dir,
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).metrics.trials).toBe(3);
  });

  it("a draft-04 schema is invalid as 2020-12 (boolean exclusiveMinimum), so the dialect really decides; undeclared, it is read as draft-04", () => {
    const d4 = loadRegistry(MIXED, process.cwd()).tools[0].input_schema ?? {};
    const as2020 = { ...d4, $schema: "https://json-schema.org/draft/2020-12/schema" };
    expect(checkArguments(as2020, { count: 6 })[0]).toMatch(/invalid input_schema/);
    const { $schema: _dropped, ...undeclared } = d4;
    expect(checkArguments(undeclared, { count: 6 })).toEqual([]);
    expect(checkArguments(undeclared, { count: 5 })).not.toEqual([]);
    expect(checkArguments(undeclared, { count: 5 })).toEqual(checkArguments(d4, { count: 5 }));
  });

  it("an unknown $schema is an error naming the tool and the value", async () => {
    const dir = writeFiles({
      "r.yaml":
        'revision: "1"\ntools:\n  - name: t\n    family: f\n    purpose: Do a thing for one record.\n    effect: read_only\n    input_schema: {$schema: "https://example.com/my-schema", type: object}\n',
    });
    const result = await runCli(["lint", join(dir, "r.yaml")], dir);
    expect(result.stdout).toContain(
      'r.yaml:7: error schema-invalid: tools[0].input_schema["$schema"]: unknown JSON Schema dialect "https://example.com/my-schema" (route-eval reads draft-04, draft-06, draft-07, 2019-09, 2020-12',
    );
  });
});

describe("linear-time patterns", () => {
  const schema = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } };
  const evil = `${"a".repeat(10_000)}!`;

  // A backtracking engine takes longer than the universe has on these; the test's own timeout is the guard.
  it("^(a+)+$ against 10,000 characters: an argument check finishes (a linear-time engine)", () => {
    expect(checkArguments(schema, { code: evil })[0]).toMatch(/must match pattern/);
    expect(checkArguments(schema, { code: "a".repeat(10_000) })).toEqual([]);
  });

  it("a schema whose pattern RE2 cannot run is one message when arguments are checked, before any value meets it", () => {
    const lookahead = {
      type: "object",
      properties: { code: { type: "string", pattern: "^(?=a)" } },
    };
    expect(checkArguments(lookahead, {})).toEqual([
      expect.stringMatching(
        /^\(schema\): invalid input_schema: .*lookaround and backreferences are not supported/,
      ),
    ]);
    const plain = {
      type: "object",
      properties: { code: { type: "string", pattern: "^[a-z]+_[0-9]+$" } },
    };
    expect(checkArguments(plain, { code: "order_12" })).toEqual([]);
    expect(checkArguments(plain, { code: "Order_12" })).toEqual([
      '/code: must match pattern "^[a-z]+_[0-9]+$"',
    ]);
  });

  it("a case's expected-argument pattern too", () => {
    expect(matchArguments({ code: { pattern: "^(a+)+$" } }, { code: evil }).match).toBe(false);
  });

  it("a pattern RE2 cannot run (a backreference) is reported clearly where the registry is read", async () => {
    const dir = writeFiles({
      "r.yaml":
        'revision: "1"\ntools:\n  - name: t\n    family: f\n    purpose: Do a thing for one record.\n    effect: read_only\n    input_schema: {type: object, properties: {x: {type: string, pattern: "(a)\\\\1"}}}\n',
      "c.yaml": "registry: r.yaml\ncases:\n  - {id: c, goal: Do it., acceptable: [t]}\n",
    });
    const result = await runCli(
      ["run", "--cases", join(dir, "c.yaml"), "--out", join(dir, "out")],
      dir,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("cannot be matched in linear time");
    expect(result.stderr).toContain("lookaround and backreferences are not supported");
  });
});
