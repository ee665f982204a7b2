import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "./support/cli.js";

/** Paths as the CLI shows them: relative to the working directory (the repository root under vitest). */
const B = "test/fixtures/bad-input";
const VALID = `${B}/valid.cases.yaml`;

/** Each bad input of the issue, through the real CLI: exit 2, one line `file:line: what`, nothing written. */
const CASES: { name: string; args: string[]; line: string }[] = [
  {
    name: "YAML syntax error",
    args: ["--cases", `${B}/yaml-syntax.cases.yaml`],
    line: `${B}/yaml-syntax.cases.yaml:7: YAML syntax error: Nested mappings are not allowed in compact mappings`,
  },
  {
    name: "unknown key",
    args: ["--cases", `${B}/unknown-key.cases.yaml`],
    line: `${B}/unknown-key.cases.yaml:8: cases[1]: unknown key "acceptible" (did you mean "acceptable"? expected one of: id, goal, phase, acceptable, calls, order, allow_extra, max_steps, results, parallel_tool_calls, dispatch, forbidden, family, tags, args, context, messages, prior_steps, must_see, must_not_see, system, todo, origin, turns)`,
  },
  {
    name: "missing required field",
    args: ["--cases", `${B}/missing-goal.cases.yaml`],
    line: `${B}/missing-goal.cases.yaml:7: case "refund": has no goal: give the user's request (goal:), or turns: for a conversation`,
  },
  {
    name: "empty acceptable",
    args: ["--cases", `${B}/empty-acceptable.cases.yaml`],
    line: `${B}/empty-acceptable.cases.yaml:5: cases[0].acceptable: must have at least 1 item`,
  },
  {
    name: "a name both acceptable and forbidden",
    args: ["--cases", `${B}/acceptable-forbidden.cases.yaml`],
    line: `${B}/acceptable-forbidden.cases.yaml:13: case "refund-no-id": acceptable and forbidden both name "refund_order"`,
  },
  {
    name: "duplicate case ids across files",
    args: ["--cases", `${B}/dup-ids/a.yaml`, `${B}/dup-ids/b.yaml`],
    line: `${B}/dup-ids/b.yaml:7: duplicate case id "refund" (also defined at ${B}/dup-ids/a.yaml:6)`,
  },
  {
    name: "input_schema not valid JSON Schema",
    args: ["--cases", VALID, "--registry", `${B}/bad-input-schema.registry.yaml`],
    line: `${B}/bad-input-schema.registry.yaml:11: tools[0].input_schema.properties.order_id.type: not a valid JSON Schema 2020-12: expected one of: array, boolean, integer, null, number, object, string (got "strin")`,
  },
  {
    name: "duplicate tool names",
    args: ["--cases", VALID, "--registry", `${B}/duplicate-tools.registry.yaml`],
    line: `${B}/duplicate-tools.registry.yaml:11: tools[2].name: duplicate tool name "get_order" (first defined at line 3)`,
  },
  {
    name: "registry tool claiming family: control",
    args: ["--cases", VALID, "--registry", `${B}/control-family.registry.yaml`],
    line: `${B}/control-family.registry.yaml:9: tools[1]: tool "escalate" claims to be a trusted control (family: control); controls come from route-eval's own configuration, not from a registry`,
  },
  {
    name: "unknown phase",
    args: ["-c", `${B}/phases.route-eval.yaml`, "--cases", `${B}/unknown-phase.cases.yaml`],
    line: `${B}/unknown-phase.cases.yaml:9: case "refund": unknown phase "suport" (known phases: billing, support)`,
  },
  {
    name: "case file pointing at a missing registry",
    args: ["--cases", `${B}/missing-registry.cases.yaml`],
    line: `${B}/missing-registry.cases.yaml:2: registry "../registries/nope.yaml" not found (tried test/fixtures/registries/nope.yaml); registry: in the case file (relative to it) or --registry sets it`,
  },
  {
    name: "unknown config key",
    args: ["-c", `${B}/unknown-key.route-eval.yaml`],
    line: `${B}/unknown-key.route-eval.yaml:5: discovery: unknown key "top_k" (expected one of: retriever, k, embeddings)`,
  },
  {
    name: "bm25 without k",
    args: ["-c", `${B}/bm25-no-k.route-eval.yaml`, "--cases", VALID],
    line: `${B}/bm25-no-k.route-eval.yaml:4: discovery: retriever "bm25" needs k, the number of ordinary tools it keeps (controls do not count); add discovery.k or pass --k`,
  },
];

describe("bad input through the CLI", () => {
  for (const c of CASES) {
    it(`${c.name}: exit 2, one line naming file:line, nothing written`, async () => {
      const out = join(tempDir(), "reports");
      const result = await runCli(["run", ...c.args, "--out", out]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`route-eval: ${c.line}\n`);
      expect(result.stdout).toBe("");
      expect(existsSync(out)).toBe(false);
    });
  }

  it("prints the stack trace only with --debug", async () => {
    const result = await runCli(["run", "--cases", `${B}/empty-acceptable.cases.yaml`, "--debug"]);
    expect(result.code).toBe(2);
    expect(result.stderr.split("\n")[0]).toBe(
      `route-eval: ${B}/empty-acceptable.cases.yaml:5: cases[0].acceptable: must have at least 1 item`,
    );
    expect(result.stderr).toMatch(/\n\s+at /);
  });

  it("a bad flag value is a usage error (exit 2) that says what was expected", async () => {
    const result = await runCli(["run", "--trials", "zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "option '-n, --trials <n>' argument 'zero' is invalid. expected a whole number from 1 to 10,000.",
    );
  });

  it("an unknown command is a usage error", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command 'frobnicate'");
  });

  it("a run that fails on bad input leaves earlier runs untouched", async () => {
    const out = join(tempDir(), "reports");
    const good = await runCli([
      "run",
      "--cases",
      VALID,
      "--out",
      out,
      "--run-id",
      "first",
      "-f",
      "json",
    ]);
    expect(good.code).toBe(0);
    const bad = await runCli(["run", "--cases", `${B}/empty-acceptable.cases.yaml`, "--out", out]);
    expect(bad.code).toBe(2);
    expect(readdirSync(out)).toEqual(["first"]);
    expect(readdirSync(join(out, "first")).sort()).toEqual([
      "records.jsonl",
      "report.json",
      "run.json",
      "sets.jsonl",
    ]);
  });
});
